"""Accounts (register, token) and the lobby list with its filters (API.md, Accounts, Games)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.support.api import assert_error

PASSWORD = "s3cret-pass-1"


def register(username, password=PASSWORD):
    return APIClient().post("/api/auth/register/", {"username": username, "password": password},
                            format="json")  # fmt: skip


@pytest.mark.django_db
def test_registering_answers_a_token_that_works():
    answer = register("ada")
    assert answer.status_code == 201
    assert set(answer.json()) == {"token", "username"} and answer.json()["username"] == "ada"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert client.post("/api/games/", {"seats": 2}, format="json").status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["ada", "bot", "BOT"])
def test_a_taken_or_reserved_username_is_409_username_taken(name):
    register("ada")
    users = get_user_model().objects.count()
    assert_error(register(name), 409, "username_taken")
    assert get_user_model().objects.count() == users


BAD_REGISTRATIONS = {
    "a short password": {"username": "ada", "password": "abc"},
    "a common password": {"username": "ada", "password": "password123"},
    "a numeric password": {"username": "ada", "password": "4815162342108"},
    "a password like the name": {"username": "adalovelace", "password": "adalovelace1"},
    "an empty username": {"username": "", "password": PASSWORD},
    "a username with a space": {"username": "ada lovelace", "password": PASSWORD},
    "a username too long": {"username": "a" * 41, "password": PASSWORD},
    "a username that is a number": {"username": 5, "password": PASSWORD},
    "a password that is a number": {"username": "ada", "password": 48151623421089},
    "no password": {"username": "ada"},
    "an unknown field": {"username": "ada", "password": PASSWORD, "admin": True},
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(BAD_REGISTRATIONS))
def test_a_bad_registration_is_400_invalid_and_creates_nobody(case):
    answer = APIClient().post("/api/auth/register/", BAD_REGISTRATIONS[case], format="json")
    assert_error(answer, 400, "invalid")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_the_token_endpoint_answers_the_same_token_for_the_right_password():
    token = register("ada").json()["token"]
    answer = APIClient().post("/api/auth/token/", {"username": "ada", "password": PASSWORD},
                              format="json")  # fmt: skip
    assert answer.status_code == 200 and answer.json() == {"token": token}


@pytest.mark.django_db
@pytest.mark.parametrize("username, password", [("ada", "wrong-pass-1"), ("nobody", PASSWORD)])
def test_a_wrong_password_or_an_unknown_user_is_401(username, password):
    register("ada")
    answer = APIClient().post("/api/auth/token/", {"username": username, "password": password},
                              format="json")  # fmt: skip
    assert_error(answer, 401, "not_authenticated")


@pytest.mark.django_db
def test_a_token_request_without_a_password_is_400_invalid():
    register("ada")
    answer = APIClient().post("/api/auth/token/", {"username": "ada"}, format="json")
    assert_error(answer, 400, "invalid")


@pytest.fixture
def games(make_player, settings) -> dict:
    """A standard game in the lobby (ada), a pairs game under way (ada, bea, cyd, dan) and a
    standard game that has ended (bea, cyd)."""
    settings.SEJMI_ALLOW_RIGGED = True
    ada, bea, cyd, dan = (make_player(name) for name in ("ada", "bea", "cyd", "dan"))

    def create(client, seats, variant="standard", rig=None, players=()):
        body = {"seats": seats, "variant": variant, **({"rig": rig} if rig else {})}
        gid = client.post("/api/games/", body, format="json").json()["id"]
        for p in players:
            assert p.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
        return gid

    waiting = create(ada, 3, players=[ada])
    playing = create(ada, 4, "pairs", players=[ada, bea, cyd, dan])
    rig = {"lives": [1, 1], "hands": [["C34"], ["C05", "C06"]], "first": 0}
    ended = create(bea, 2, rig=rig, players=[bea, cyd])
    lose_1_on_all = {"type": "play", "card": "C34", "effect": 0, "scope": "all", "target": None}
    for client, body in ((bea, lose_1_on_all), (cyd, {"type": "pass"})):  # both drop out (R17)
        seq = client.get(f"/api/games/{ended}/").json()["seq"]
        sent = client.post(f"/api/games/{ended}/commands/", {"expected_seq": seq, **body},
                           format="json")  # fmt: skip
        assert sent.status_code == 200, sent.content
    assert cyd.get(f"/api/games/{ended}/").json()["status"] == "ended"
    return {"lobby": waiting, "active": playing, "ended": ended}


def listed(query: dict) -> list[int]:
    answer = APIClient().get("/api/games/", query)
    assert answer.status_code == 200, answer.content
    return [game["id"] for game in answer.json()]


@pytest.mark.django_db
def test_the_lobby_lists_every_game_newest_first_with_its_players(games):
    rows = APIClient().get("/api/games/").json()
    assert [g["id"] for g in rows] == [games["ended"], games["active"], games["lobby"]]
    first = {g["id"]: g for g in rows}[games["lobby"]]
    assert {"id", "variant", "seats", "players", "status"} <= set(first)
    assert (first["variant"], first["seats"], first["players"], first["status"]) == (
        "standard", 3, ["ada", None, None], "lobby")  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query, expected",
    [
        ({"status": "lobby"}, ["lobby"]),
        ({"status": "active"}, ["active"]),
        ({"status": "ended"}, ["ended"]),
        ({"variant": "pairs"}, ["active"]),
        ({"variant": "standard"}, ["ended", "lobby"]),
        ({"variant": "pairs_extreme"}, []),
        ({"player": "ada"}, ["active", "lobby"]),
        ({"player": "dan"}, ["active"]),
        ({"player": "cyd"}, ["ended", "active"]),
        ({"player": "nobody"}, []),
        ({"status": "active", "player": "ada"}, ["active"]),
        ({"variant": "standard", "player": "cyd"}, ["ended"]),
        ({"status": "lobby", "variant": "pairs"}, []),
    ],
)
def test_the_lobby_filters_by_status_variant_and_player(games, query, expected):
    assert listed(query) == [games[name] for name in expected]
