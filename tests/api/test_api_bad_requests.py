"""Bad game creations, joins and reads get their documented 4xx and the error shape, and
change nothing (API.md, Errors)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.core.models import Game, GameEvent
from games.table.models import PlayerSeat
from tests.support.api import (
    assert_error,
    open_table,
)


def nothing_changes():
    return Game.objects.count(), GameEvent.objects.count(), PlayerSeat.objects.count()


CREATE = {
    "a rig without SEJMI_ALLOW_RIGGED": ({"seats": 2, "rig": {"first": 0}}, 400, "invalid"),
    "seven seats": ({"seats": 7}, 400, "invalid"),
    "one seat": ({"seats": 1}, 400, "invalid"),
    "seats as text": ({"seats": "4"}, 400, "invalid"),
    "seats true": ({"seats": True}, 400, "invalid"),
    "no seats": ({"variant": "standard"}, 400, "invalid"),
    "an unknown variant": ({"seats": 4, "variant": "chess"}, 400, "invalid"),
    "pairs for three": ({"seats": 3, "variant": "pairs"}, 400, "invalid"),
    "options not an object": ({"seats": 2, "options": [1]}, 400, "invalid"),
    "an unknown option": ({"seats": 2, "options": {"speed": 2}}, 400, "invalid"),
    "a bot seat that does not exist": ({"seats": 2, "options": {"bots": [9]}}, 400, "invalid"),
    "a bot seat twice": ({"seats": 3, "options": {"bots": [1, 1]}}, 400, "invalid"),
    "a zero block window": ({"seats": 2, "options": {"block_window_s": 0}}, 400, "invalid"),
    "duel_coin as text": ({"seats": 2, "options": {"duel_coin": "yes"}}, 400, "invalid"),
    "an unknown field": ({"seats": 2, "colour": "red"}, 400, "invalid"),
    "a json list": ([{"seats": 2}], 400, "invalid"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(CREATE))
def test_a_bad_game_creation_is_refused_and_creates_nothing(player, settings, case):
    settings.SEJMI_ALLOW_RIGGED = False
    body, status, code = CREATE[case]
    before = nothing_changes()
    assert_error(player.post("/api/games/", body, format="json"), status, code)
    assert nothing_changes() == before


@pytest.mark.django_db
def test_creating_a_game_needs_a_login():
    assert_error(APIClient().post("/api/games/", {"seats": 2}, format="json"), 401,
                 "not_authenticated")  # fmt: skip


@pytest.fixture
def lobby(make_player) -> dict:
    """A three-seat game in the lobby with its creator on seat 0, and a newcomer."""
    creator = make_player()
    gid = creator.post("/api/games/", {"seats": 3}, format="json").json()["id"]
    creator.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json")
    return {"gid": gid, "creator": creator, "newcomer": make_player()}


JOIN = {
    "seat as text": ({"seat": "1"}, 400, "invalid"),
    "seat true": ({"seat": True}, 400, "invalid"),
    "a seat that does not exist": ({"seat": 5}, 400, "invalid"),
    "a negative seat": ({"seat": -1}, 400, "invalid"),
    "a taken seat": ({"seat": 0}, 409, "seat_taken"),
    "a json list": ([], 400, "invalid"),
    "a json string": ("seat 1", 400, "invalid"),
    "an unknown field": ({"chair": 1}, 400, "invalid"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(JOIN))
def test_a_bad_join_is_refused_and_seats_nobody(lobby, case):
    body, status, code = JOIN[case]
    before = nothing_changes()
    answer = lobby["newcomer"].post(f"/api/games/{lobby['gid']}/join/", body, format="json")
    assert_error(answer, status, code)
    assert nothing_changes() == before


@pytest.mark.django_db
def test_joining_twice_is_409_already_seated(lobby):
    before = nothing_changes()
    again = lobby["creator"].post(f"/api/games/{lobby['gid']}/join/", {}, format="json")
    assert_error(again, 409, "already_seated")
    assert nothing_changes() == before


@pytest.mark.django_db
def test_joining_a_full_game_is_409_game_full(make_player):
    table = open_table(make_player, 2)
    before = nothing_changes()
    late = make_player().post(table.url("join/"), {}, format="json")
    assert_error(late, 409, "game_full")
    assert nothing_changes() == before


@pytest.mark.django_db
def test_joining_needs_a_login_and_a_game(lobby):
    assert_error(APIClient().post(f"/api/games/{lobby['gid']}/join/", {}, format="json"), 401,
                 "not_authenticated")  # fmt: skip
    assert_error(lobby["newcomer"].post("/api/games/987654/join/", {}, format="json"), 404,
                 "not_found")  # fmt: skip


READS = {
    "events after -1": ("events/?after=-1", 400, "invalid"),
    "events after x": ("events/?after=x", 400, "invalid"),
    "a replay without at": ("replay/", 400, "invalid"),
    "a replay at 0": ("replay/?at=0", 400, "invalid"),
    "a replay after the head": ("replay/?at=100000", 400, "invalid"),
    "a replay at x": ("replay/?at=x", 400, "invalid"),
    "the audit of a running game": ("audit/", 403, "forbidden"),
    "a method the resource lacks": ("DELETE", 405, "method_not_allowed"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(READS))
def test_a_bad_read_is_refused(make_player, case):
    table = open_table(make_player, 2)
    tail, status, code = READS[case]
    client = table.seats[0]
    answer = client.delete(table.url()) if tail == "DELETE" else client.get(table.url(tail))
    assert_error(answer, status, code)


@pytest.mark.django_db
@pytest.mark.parametrize("tail", ["", "events/", "replay/?at=1", "audit/"])
def test_reading_an_unknown_game_is_404_not_found(tail):
    assert_error(APIClient().get(f"/api/games/987654/{tail}"), 404, "not_found")


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/nothing/", "/api/games/abc/", "/api/games/1/secrets/"])
def test_an_unknown_address_is_404_not_found(url):
    assert_error(APIClient().get(url), 404, "not_found")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query", ["status=bogus", "variant=chess", "player=%00", "status=lobby%00"]
)
def test_a_bad_lobby_filter_is_400_invalid(query):
    assert_error(APIClient().get(f"/api/games/?{query}"), 400, "invalid")


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["HTTP_AUTHORIZATION", "HTTP_IDEMPOTENCY_KEY", "HTTP_X_ANY"])
def test_nul_bytes_in_a_header_are_400_invalid(header):
    """PostgreSQL cannot even compare a text with a NUL in it: refused before any view."""
    answer = APIClient().get("/api/games/", **{header: "Token abc\x00def"})
    assert_error(answer, 400, "invalid")


@pytest.mark.django_db
def test_a_bad_token_is_401_even_where_anonymous_reads_are_allowed():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef")
    assert_error(client.get("/api/games/"), 401, "not_authenticated")
