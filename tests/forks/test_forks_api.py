"""Forks over the API (issue 30; API.md, "Play on from a moment, notes and odds"): the done-when
of the issue as one test, then every bad input: a 4xx with its code, and nothing created."""

from __future__ import annotations

import random

import pytest

from games.clock import runner
from games.core.models import Game, GameEvent, GameProjection
from games.engine import events as ev
from games.engine import fold, legal_commands
from games.forks.models import Fork
from tests.support.api import open_table, send

# What a player's view says of the position (a replay's read-only fields and the game's
# identity aside: id, seq, status, legal, the revealed hands and seed, the seats' names).
POSITION = ("phase", "kostic", "turn", "awaiting", "you", "hand", "partner_hand", "draw_count",
            "discard", "countdown", "pending", "variant")  # fmt: skip
SEAT_POSITION = ("seat", "lives", "hand_count", "eliminated", "team")


def position(view: dict) -> dict:
    return {**{k: view[k] for k in POSITION},
            "players": [{k: p[k] for k in SEAT_POSITION} for p in view["players"]]}  # fmt: skip


def source_snapshot(gid: int) -> tuple:
    rows = list(GameEvent.objects.filter(game_id=gid).order_by("seq").values_list("seq", "hash"))
    proj = GameProjection.objects.get(game_id=gid)
    return rows, proj.seq, proj.head_hash, proj.state


def human_moment(gid: int) -> tuple[int, int]:
    """(at, seat): a seq after which a seat had to play a card (the Kostič's decision), in
    the middle of the game."""
    rows = [GameEvent.objects.filter(game_id=gid).order_by("seq")]
    events = [ev.Event(r.type, r.data, r.v) for r in rows[0]]
    state, moments = fold(events[:1]), []
    for seq, e in enumerate(events[1:], start=2):
        state = fold([e], state)
        if state.status == "active" and state.phase == "play" and state.awaiting:
            moments.append((seq, state.awaiting[0]))
    return moments[len(moments) // 2]


def play_fork(client, gid: int, seat: int, rnd: random.Random) -> dict:
    """The fork to its end: our seat by random legal commands over HTTP, the bots by the
    deadline runner (a bot is due at once)."""
    for _ in range(5000):
        view = client.get(f"/api/games/{gid}/").json()
        if view["status"] == "ended":
            return view
        if seat in view["awaiting"] and view["legal"]:
            answer = send(client, gid, {"expected_seq": view["seq"], **rnd.choice(view["legal"])})
            assert answer.status_code == 200, answer.content
        else:
            assert runner.advance(gid, view["seq"]) == runner.ACTED, view
    raise AssertionError("the fork did not end")


def test_done_when_a_finished_three_seat_game_forks_where_a_human_played(finished_trio):
    table = finished_trio
    before = source_snapshot(table.gid)
    at, seat = human_moment(table.gid)
    me = table.seats[seat]
    replay = me.get(table.url(f"replay/?at={at}")).json()
    seats = ["bot"] * 3
    seats[seat] = "me"
    answer = me.post(table.url("forks/"), {"at": at, "seats": seats, "deal": "same"},
                     format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    view = answer.json()
    fork = view["id"]
    assert view["forked_from"] == {"game": table.gid, "at": at}
    assert view["status"] == "active" and view["seq"] > 1
    # The fork's first view is the source's replay at that moment, for that player.
    assert position(view) == position(replay)
    assert view["you"] == seat and seat in view["awaiting"] and view["legal"]
    assert view["hands"] is None  # nobody else's hand (R23)
    there = fold(
        [
            ev.Event(r.type, r.data, r.v)
            for r in GameEvent.objects.filter(game_id=table.gid, seq__lte=at).order_by("seq")
        ]
    )
    assert sorted(map(str, view["legal"])) == sorted(
        str(c.body()) for c in legal_commands(there, seat)
    )
    # Its first events: where it came from, the seats, the start.
    events = me.get(f"/api/games/{fork}/events/").json()["events"]
    first = events[0]
    assert first["type"] == "forked"
    source_hash = GameEvent.objects.get(game_id=table.gid, seq=at).hash
    assert first["data"]["source"] == {"game": table.gid, "at": at, "hash": source_hash}
    assert first["data"]["seed_commitment"] == view["seed_commitment"]
    for other, hand in enumerate(first["data"]["hands"]):
        assert (hand == view["hand"]) if other == seat else all(c is None for c in hand)
    assert all(c is None for c in first["data"]["draw"])
    assert [e["type"] for e in events[1:5]] == ["seat_taken"] * 3 + ["game_started"]
    assert me.get(table.url("forks/")).json()[0]["game"] == fork
    # Played to its end, its audit green and its origin proven; the source untouched.
    end = play_fork(me, fork, seat, random.Random(7))
    assert end["forked_from"] == {"game": table.gid, "at": at}
    audit = me.get(f"/api/games/{fork}/audit/").json()
    for check in ("seed_ok", "rederive_ok", "chain_ok", "signature_ok", "replay_ok",
                  "rules_ok", "origin_ok"):  # fmt: skip
        assert audit[check] is True, (check, audit)
    assert source_snapshot(table.gid) == before
    assert table.seats[0].get(table.url("audit/")).json()["origin_ok"] is None
    # A fork is unrated (games.ratings), whatever it proves.
    from games.ratings.services import outcome

    assert outcome(fork) is None


def test_a_fresh_deal_with_an_open_seat_waits_for_a_player_then_starts(finished_trio,
                                                                       make_player):  # fmt: skip
    table = finished_trio
    at, seat = human_moment(table.gid)
    seats = ["open"] * 3
    seats[seat] = "me"
    answer = table.seats[seat].post(
        table.url("forks/"), {"at": at, "seats": seats, "deal": "fresh"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    fork = answer.json()
    assert fork["status"] == "lobby" and fork["forked_from"]["at"] == at
    newcomer, other = make_player(), make_player()
    for client in (newcomer, other):
        joined = client.post(f"/api/games/{fork['id']}/join/", {}, format="json")
        assert joined.status_code == 200, joined.content
    view = newcomer.get(f"/api/games/{fork['id']}/").json()
    assert view["status"] == "active" and view["hand"]
    first = GameEvent.objects.get(game_id=fork["id"], seq=1)
    assert first.data["deal"] == "fresh" and first.data["shuffle"] is not None


def _nothing_created(call):
    games, forks = Game.objects.count(), Fork.objects.count()
    answer = call()
    assert Game.objects.count() == games and Fork.objects.count() == forks
    return answer


@pytest.mark.parametrize(("body", "why"), [
    ({"at": 0, "seats": ["me", "bot", "bot"], "deal": "same"}, "at"),
    ({"at": 10_000, "seats": ["me", "bot", "bot"], "deal": "same"}, "at"),
    ({"at": "5", "seats": ["me", "bot", "bot"], "deal": "same"}, "at"),
    ({"at": 1, "seats": ["me", "bot", "bot"], "deal": "same"}, "being played"),
    ({"at": 20, "seats": ["me", "bot"], "deal": "same"}, "seats"),
    ({"at": 20, "seats": ["me", "bot", "robot"], "deal": "same"}, "seat is"),
    ({"at": 20, "seats": ["me", "me", "bot"], "deal": "same"}, "one seat"),
    ({"at": 20, "seats": "me,bot,bot", "deal": "same"}, "seats"),
    ({"at": 20, "seats": ["me", "bot", "bot"], "deal": "shuffled"}, "deal"),
    ({"at": 20, "seats": ["me", "bot", "bot"], "deal": "same", "x": 1}, "unknown"),
])  # fmt: skip
def test_bad_fork_requests_are_invalid_and_create_nothing(finished_trio, body, why):
    table = finished_trio
    answer = _nothing_created(lambda: table.seats[0].post(table.url("forks/"), body,
                                                          format="json"))  # fmt: skip
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "invalid" and why in answer.json()["error"]["message"]


def test_no_fork_of_a_running_game_for_anyone_staff_included(make_player, make_staff):
    table = open_table(make_player, seats=3)
    staff = make_staff()
    body = {"at": 5, "seats": ["me", "bot", "bot"], "deal": "same"}
    for client in (table.seats[0], staff):
        answer = _nothing_created(lambda c=client: c.post(table.url("forks/"), body,
                                                          format="json"))  # fmt: skip
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_not_over"


def test_forks_need_a_signed_in_caller_and_a_game(finished_trio):
    from rest_framework.test import APIClient

    body = {"at": 20, "seats": ["me", "bot", "bot"], "deal": "same"}
    anonymous = APIClient().post(finished_trio.url("forks/"), body, format="json")
    assert anonymous.status_code == 401
    missing = finished_trio.seats[0].post("/api/games/999999/forks/", body, format="json")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert APIClient().get("/api/games/999999/forks/").status_code == 404
