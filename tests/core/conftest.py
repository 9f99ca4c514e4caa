"""Fixtures of the core's tests: registered API clients and a running two-player game."""

from __future__ import annotations

import itertools

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

_names = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()


def register(name: str | None = None) -> APIClient:
    client = APIClient()
    name = name or f"core{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


@pytest.fixture
def make_player(db):
    return register


@pytest.fixture
def running(make_player):
    """A started two-player game: (game id, [seat 0's client, seat 1's client])."""
    seats = [make_player(), make_player()]
    gid = seats[0].post("/api/games/", {"seats": 2}, format="json").json()["id"]
    for seat, client in enumerate(seats):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return gid, seats


def a_legal_command(gid: int, seats: list[APIClient]) -> tuple[APIClient, dict]:
    """Some seat that may act, and one of its legal bodies (with expected_seq)."""
    for client in seats:
        view = client.get(f"/api/games/{gid}/").json()
        if view["legal"]:
            return client, {"expected_seq": view["seq"], **view["legal"][0]}
    raise AssertionError("nobody may act")
