"""Fixtures of the accounts' tests: registered API clients, and accounts made the way an older
release (or the admin) could, bypassing registration."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def legacy_account(db):
    """An account named as registration no longer allows (made before the fix, or by the
    admin): signed in over the API with its token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    def make(name: str) -> APIClient:
        user = get_user_model()(username=name)
        user.set_password("s3cret-pass-1")
        # bulk_create, not user_create: made as before issue 32, without its folded name
        (user,) = get_user_model().objects.bulk_create([user])
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        client.username = name  # type: ignore[attr-defined]
        return client

    return make
