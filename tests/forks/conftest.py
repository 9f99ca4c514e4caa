"""Fixtures for the tests of forks, notes and odds (issue 30): API clients per user, and a
finished three-seat game of humans played over HTTP."""

from __future__ import annotations

import itertools
import random

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from tests.service.api_helpers import Table, open_table, play_to_end

_names = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()  # throttle counters live in the cache
    yield


def register(name: str | None = None, *, staff: bool = False) -> APIClient:
    client = APIClient()
    name = name or f"forker{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    if staff:
        from django.contrib.auth import get_user_model

        get_user_model().objects.filter(username=name).update(is_staff=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username = name  # type: ignore[attr-defined]
    return client


@pytest.fixture
def make_player(db):
    return lambda name=None, staff=False: register(name, staff=staff)


@pytest.fixture
def finished_trio(make_player) -> Table:
    """Three players' game, played to its end over HTTP by random legal commands."""
    table = open_table(make_player, seats=3)
    play_to_end(table, random.Random(30))
    return table
