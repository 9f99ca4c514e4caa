"""Bad commands get their documented 4xx and `{"error": {"code", "message"}}`, and append
nothing: no event, no stored answer, the same seq (API.md, Errors; R35 for the order)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from games.core.models import GameEvent, GameProjection, IdempotentAnswer
from tests.support.api import (
    Table,
    assert_error,
    event_count,
)

# Seat 0 is Kostič with C17 (green SWAP_NEIGHBOR / blue GAIN_1), C01 (green DUEL / red GAIN_1)
# and C34 (blue LOSE_1 / red ODD_UP); seat 1 holds C05, C06 and C07.
RIG = {"hands": [["C17", "C01", "C34"], ["C05", "C06", "C07"]], "first": 0}
GOOD = {"type": "play", "card": "C34", "effect": 0, "scope": "one", "target": 1}


@dataclass(frozen=True)
class Raw:
    """A body sent as these exact bytes."""

    text: str
    content_type: str = "application/json"


@dataclass
class Game:
    table: Table
    spectator: APIClient

    @property
    def seq(self) -> int:
        return GameProjection.objects.get(game_id=self.table.gid).seq

    def client(self, who: str) -> APIClient:
        return {"kostic": self.table.seats[0], "other": self.table.seats[1],
                "spectator": self.spectator, "anonymous": APIClient()}[who]  # fmt: skip


@pytest.fixture
def game(make_player, settings) -> Game:
    settings.SEJMI_ALLOW_RIGGED = True
    alice, bob = make_player(), make_player()
    gid = alice.post("/api/games/", {"seats": 2, "rig": RIG}, format="json").json()["id"]
    for client in (alice, bob):
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    return Game(Table(gid, [alice, bob]), make_player())


def play(**changes) -> dict:
    return {**GOOD, **changes}


def without(name: str) -> dict:
    return {k: v for k, v in GOOD.items() if k != name}


SEQ = object()  # stands for the current seq in a case's body
CASES = {
    # transport
    "malformed json": ("kostic", Raw('{"expected_seq": 1, "type": '), 400, "invalid"),
    "not json at all": ("kostic", Raw("play C34 on seat 1"), 400, "invalid"),
    "nested too deeply": ("kostic", Raw("[" * 5000 + "]" * 5000), 400, "invalid"),
    "text/plain": ("kostic", Raw('{"type": "pass"}', "text/plain"), 415, "unsupported_media_type"),
    "form encoded": (
        "kostic",
        Raw("type=pass", "application/x-www-form-urlencoded"),
        415,
        "unsupported_media_type",
    ),  # fmt: skip
    "a json list": ("kostic", [GOOD], 400, "invalid"),
    "a json string": ("kostic", "play", 400, "invalid"),
    "a json number": ("kostic", 7, 400, "invalid"),
    "json null": ("kostic", Raw("null"), 400, "invalid"),
    "no auth": ("anonymous", GOOD, 401, "not_authenticated"),
    # shape and types
    "missing expected_seq": ("kostic", "no seq", 400, "invalid"),
    "expected_seq as text": ("kostic", {**GOOD, "expected_seq": "1"}, 400, "invalid"),
    "expected_seq true": ("kostic", {**GOOD, "expected_seq": True}, 400, "invalid"),
    "missing type": ("kostic", without("type"), 400, "invalid"),
    "unknown type": ("kostic", play(type="cheat"), 400, "invalid"),
    "missing target": ("kostic", without("target"), 400, "invalid"),
    "effect true": ("kostic", play(effect=True), 400, "invalid"),
    "effect 2": ("kostic", play(effect=2), 400, "invalid"),
    "effect as text": ("kostic", play(effect="0"), 400, "invalid"),
    "target x": ("kostic", play(target="x"), 400, "invalid"),
    "target as text": ("kostic", play(target="1"), 400, "invalid"),
    "target 1.5": ("kostic", play(target=1.5), 400, "invalid"),
    "target true": ("kostic", play(target=True), 400, "invalid"),
    "card a number": ("kostic", play(card=34), 400, "invalid"),
    "card null": ("kostic", play(card=None), 400, "invalid"),
    "scope some": ("kostic", play(scope="some"), 400, "invalid"),
    "an unknown field": ("kostic", play(cheat=True), 400, "invalid"),
    "a field of another command": ("kostic", {"type": "pass", "card": "C34"}, 400, "invalid"),
    # R35: the sender may not act now
    "the other seat plays": (
        "other",
        play(card="C05", effect=1, scope="all", target=None),
        409,
        "not_your_turn",
    ),  # fmt: skip
    # Who may act comes before which seq (issue 21): a non-player is refused for that alone.
    "a spectator plays": ("spectator", GOOD, 403, "forbidden"),
    # R35: the command breaks a rule
    "an unknown card": ("kostic", play(card="C99"), 422, "illegal_move"),
    "a card id in lower case": ("kostic", play(card="c34"), 422, "illegal_move"),
    "a foreign card": ("kostic", play(card="C05"), 422, "illegal_move"),
    "a target seat that does not exist": ("kostic", play(target=7), 422, "illegal_move"),
    "a negative target": ("kostic", play(target=-1), 422, "illegal_move"),
    "a duel on oneself (R3)": (
        "kostic",
        play(card="C01", effect=0, target=0),
        422,
        "illegal_move",
    ),  # fmt: skip
    "red on one player": ("kostic", play(card="C01", effect=1, target=0), 422, "illegal_move"),
    "green on all": (
        "kostic",
        play(card="C17", effect=0, scope="all", target=None),
        422,
        "illegal_move",
    ),  # fmt: skip
    "all players with a target": (
        "kostic",
        play(card="C34", effect=1, scope="all", target=1),
        422,
        "illegal_move",
    ),  # fmt: skip
    "one player without a target": ("kostic", play(target=None), 422, "illegal_move"),
    "a pass when a play is asked": ("kostic", {"type": "pass"}, 422, "illegal_move"),
    "a bet when a play is asked": (
        "kostic",
        {"type": "bet", "kind": "parity", "value": "odd"},
        422,
        "illegal_move",
    ),  # fmt: skip
}


def send_case(game: Game, who: str, body, *, url: str | None = None, **headers):
    client, url = game.client(who), url or game.table.url("commands/")
    if isinstance(body, Raw):
        return client.generic("POST", url, body.text.encode(), content_type=body.content_type,
                              **headers)  # fmt: skip
    if body == "no seq":
        return client.post(url, GOOD, format="json", **headers)
    if isinstance(body, dict):
        body = {"expected_seq": game.seq, **body}
    return client.post(url, body, format="json", **headers)


def unchanged(game: Game):
    """What any refused command must leave as it was."""
    return (event_count(game.table.gid), game.seq, IdempotentAnswer.objects.count(),
            GameEvent.objects.count())  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_command_gets_its_error_and_appends_nothing(game, case):
    who, body, status, code = CASES[case]
    before = unchanged(game)
    assert_error(send_case(game, who, body, HTTP_IDEMPOTENCY_KEY=f"key-{case}"), status, code)
    assert unchanged(game) == before
    assert send_case(game, "kostic", GOOD).status_code == 200  # and the game goes on


@pytest.mark.django_db
@pytest.mark.parametrize("offset", [-1, 1, 1000])
def test_a_stale_expected_seq_is_409_stale_seq(game, offset):
    before = unchanged(game)
    answer = send_case(game, "kostic", {**GOOD, "expected_seq": game.seq + offset})
    assert_error(answer, 409, "stale_seq")
    assert unchanged(game) == before


@pytest.mark.django_db
@pytest.mark.parametrize("offset", [-1, 0, 1, 1000])
def test_a_non_players_command_is_forbidden_whatever_its_seq_and_names_no_seq(game, offset):
    """Issue 21: a delayed spectator learned the present from `stale_seq` ("expected_seq 0 is
    not the last seq 411"). Who may act is checked first, and the answer tells no seq."""
    before = unchanged(game)
    answer = send_case(game, "spectator", {**GOOD, "expected_seq": game.seq + offset})
    assert_error(answer, 403, "forbidden")
    assert not any(ch.isdigit() for ch in answer.json()["error"]["message"])
    assert unchanged(game) == before


@pytest.mark.django_db
def test_an_unknown_game_is_404_not_found(game):
    before = unchanged(game)
    url = "/api/games/987654/commands/"
    assert_error(send_case(game, "kostic", GOOD, url=url), 404, "not_found")
    assert unchanged(game) == before


@pytest.mark.django_db
def test_a_bad_token_is_401(game):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    answer = client.post(game.table.url("commands/"), {**GOOD, "expected_seq": game.seq},
                         format="json")  # fmt: skip
    assert_error(answer, 401, "not_authenticated")


@pytest.mark.django_db
def test_a_body_over_64_kib_is_413_too_large(game):
    before = unchanged(game)
    huge = json.dumps({**GOOD, "expected_seq": game.seq, "pad": "x" * (64 * 1024)})
    assert_error(send_case(game, "kostic", Raw(huge)), 413, "too_large")
    assert unchanged(game) == before


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "k" * 201, "tab\there"])
def test_a_bad_idempotency_key_is_400_invalid(game, key):
    before = unchanged(game)
    assert_error(send_case(game, "kostic", GOOD, HTTP_IDEMPOTENCY_KEY=key), 400, "invalid")
    assert unchanged(game) == before


@pytest.mark.django_db
def test_a_command_to_an_ended_game_is_409_game_over(game, settings):
    alice, bob = game.table.seats
    rig = {**RIG, "lives": [1, 1]}
    gid = alice.post("/api/games/", {"seats": 2, "rig": rig}, format="json").json()["id"]
    for client in (alice, bob):
        client.post(f"/api/games/{gid}/join/", {}, format="json")
    ended = Game(Table(gid, [alice, bob]), game.spectator)
    assert send_case(ended, "kostic", play(effect=0, scope="all", target=None)).status_code == 200
    assert send_case(ended, "other", {"type": "pass"}).json()["view"]["status"] == "ended"
    before = unchanged(ended)
    for who in ("kostic", "other"):
        assert_error(send_case(ended, who, {"type": "pass"}), 409, "game_over")
    assert unchanged(ended) == before
