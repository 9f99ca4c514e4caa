"""Fixtures for service tests: real PostgreSQL (make test), API clients per user."""

from __future__ import annotations

import itertools

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

_names = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()  # throttle counters live in the cache
    yield


def register(client: APIClient | None = None, name: str | None = None) -> APIClient:
    client = client or APIClient()
    name = name or f"player{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username = name  # type: ignore[attr-defined]
    return client


@pytest.fixture
def player(db) -> APIClient:
    return register()


@pytest.fixture
def make_player(db):
    return lambda name=None: register(name=name)
