"""Issue 32, item 8 (what to build: 7): caps on legal actions, each 429 `too_many` with
Retry-After (API.md, Conventions): at most 5 open disputes per player and game and 20 in all;
at most SEJMI_BOT_GAMES_PER_HOUR bots-only games created per user per hour; /api/disputes/ is
paginated. Before: one player filed 447 disputes in 7 s; a bots-only game appended ~164
events per POST /api/games/, without limit."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

_names = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()


def _player() -> APIClient:
    client = APIClient()
    answer = client.post(
        "/api/auth/register/",
        {"username": f"cap{next(_names)}", "password": "s3cret-pass-1"},
        format="json",
    )
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def _game_against_a_bot(client: APIClient) -> int:
    gid = client.post("/api/games/", {"seats": 2, "options": {"bots": [1]}},
                      format="json").json()["id"]  # fmt: skip
    assert client.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json").status_code == 200
    return gid


def _dispute(client: APIClient, gid: int, seq: int | None):
    return client.post(f"/api/games/{gid}/disputes/", {"reason": "look", "seq": seq},
                       format="json")  # fmt: skip


def _too_many(answer) -> None:
    assert answer.status_code == 429, answer.content
    assert answer.json()["error"]["code"] == "too_many"
    assert int(answer["Retry-After"]) > 0


@pytest.mark.django_db
def test_five_open_disputes_per_game_and_twenty_in_all(settings):
    """Mutant: no count before the insert → the 6th dispute of a game is 201."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    eva = _player()
    games = [_game_against_a_bot(eva) for _ in range(5)]
    for seq in range(1, 6):
        assert _dispute(eva, games[0], seq).status_code == 201
    _too_many(_dispute(eva, games[0], None))
    for gid in games[1:4]:
        for seq in range(1, 6):
            assert _dispute(eva, gid, seq).status_code == 201
    _too_many(_dispute(eva, games[4], 1))  # 20 open in all
    other = _player()  # the caps are per player
    assert _dispute(other, _game_against_a_bot(other), 1).status_code == 201


@pytest.mark.django_db
def test_the_disputes_list_is_paginated(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    eva = _player()
    for gid in [_game_against_a_bot(eva) for _ in range(3)]:
        for seq in range(1, 6):
            assert _dispute(eva, gid, seq).status_code == 201
    first = eva.get("/api/disputes/?page_size=10").json()
    assert first["count"] == 15 and len(first["disputes"]) == 10 and first["previous"] is None
    second = eva.get(first["next"]).json()
    assert len(second["disputes"]) == 5 and second["next"] is None
    ids = [d["id"] for d in first["disputes"] + second["disputes"]]
    assert len(set(ids)) == 15
    assert eva.get("/api/disputes/?page=9").status_code == 404


@pytest.mark.django_db
def test_bots_only_games_are_capped_per_user_and_hour(settings):
    """Mutant: no cap → every POST /api/games/ of a bots-only game is 201."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
    eva = _player()
    cap = settings.SEJMI_BOT_GAMES_PER_HOUR
    for _ in range(cap):
        made = eva.post("/api/games/", {"seats": 2, "options": {"bots": [0, 1]}}, format="json")
        assert made.status_code == 201, made.content
    _too_many(eva.post("/api/games/", {"seats": 2, "options": {"bots": [0, 1]}}, format="json"))
    assert (
        eva.post("/api/games/", {"seats": 2, "options": {"bots": [1]}}, format="json").status_code
        == 201
    )  # a game with a human seat is not capped
    assert _player().post("/api/games/", {"seats": 2, "options": {"bots": [0, 1]}},
                          format="json").status_code == 201  # fmt: skip


def test_the_caps_are_the_documented_ones():
    assert settings.SEJMI_BOT_GAMES_PER_HOUR == 10
