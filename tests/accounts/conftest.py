"""Fixtures of the accounts' tests: registered API clients, and accounts made the way an older
release (or the admin) could, bypassing registration."""

from __future__ import annotations

import itertools

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

_names = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()  # throttle counters live in the cache


def register(name: str | None = None) -> APIClient:
    client = APIClient()
    name = name or f"acct{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username = answer.json()["username"]  # type: ignore[attr-defined]
    return client


@pytest.fixture
def make_player(db):
    return register


@pytest.fixture
def legacy_account(db):
    """An account named as registration no longer allows (made before the fix, or by the
    admin): signed in over the API with its token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    def make(name: str) -> APIClient:
        user = get_user_model()(username=name)
        user.set_password("s3cret-pass-1")
        # bulk_create sends no post_save: made as before issue 32, without its folded name
        (user,) = get_user_model().objects.bulk_create([user])
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        client.username = name  # type: ignore[attr-defined]
        return client

    return make
