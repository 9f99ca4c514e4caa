"""Standing orders (issue 10), end to end through the API on the real database: a player's order
answers his block windows the moment they open (he sends nothing), per game or by default,
private to him; the answers are ordinary events marked `standing` that the audit verifies."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from games.core.models import GameProjection
from games.table.models import StandingOrder
from tests.support.api import assert_error, open_table, play_to_end, send
from tests.support.statements import statements

# Seat 0 is the Kostič; seat 1 holds C26 (green/blue), C01 (green/red), C40 (blue/blue);
# seat 2 holds only blue and red cards. Seat 0's C25 green LOSE_1 on seat 1 opens the window.
HANDS = [["C25", "C04", "C06"], ["C26", "C01", "C40"], ["C33", "C34", "C35"]]
LOSE_ON_1 = {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1}
GAIN_ON_1 = {"type": "play", "card": "C25", "effect": 1, "scope": "one", "target": 1}
PASS = {"type": "pass"}
OPTIONS = {"block_window_s": 3600, "turn_deadline_s": 86_400}  # no deadline fires by itself


def table(make_player, **rig):
    rig = {"hands": HANDS, "first": 0, **rig}
    return open_table(make_player, 3, options=OPTIONS, rig=rig)


def put(client, path: str, block):
    return client.put(path, {"block": block}, format="json")


def game_order(t, seat: int, block):
    answer = put(t.seats[seat], t.url("standing-order/"), block)
    assert answer.status_code == 200, answer.content
    return answer.json()


def default_order(client, block):
    answer = put(client, "/api/me/standing-order/", block)
    assert answer.status_code == 200, answer.content
    return answer.json()


def play(t, body=LOSE_ON_1) -> dict:
    seq = t.seats[0].get(t.url()).json()["seq"]
    answer = send(t.seats[0], t.gid, {"expected_seq": seq, **body})
    assert answer.status_code == 200, answer.content
    return answer.json()


def events(t, seat: int | None = 0, after: int = 0) -> list[dict]:
    return t.seats[seat].get(t.url(f"events/?after={after}")).json()["events"]


@pytest.mark.django_db
def test_an_order_is_stored_and_read_back_by_its_owner(make_player, rigged):
    t = table(make_player)
    assert t.seats[1].get(t.url("standing-order/")).json() == {
        "game": t.gid, "block": None, "at": None, "applies": None}  # fmt: skip

    answer = game_order(t, 1, "aimed_at_me")

    assert answer["game"] == t.gid and answer["block"] == answer["applies"] == "aimed_at_me"
    assert answer["at"] is not None
    assert t.seats[1].get(t.url("standing-order/")).json() == answer


@pytest.mark.django_db
def test_an_aimed_at_me_order_blocks_at_once_with_the_cheapest_card(make_player, rigged):
    t = table(make_player)
    game_order(t, 1, "aimed_at_me")

    answer = play(t)  # seat 1 sends nothing

    tail = [(e["type"], e["data"]) for e in events(t, 2) if e["type"] == "play_blocked"]
    assert tail == [("play_blocked", {"seat": 1, "card": "C26", "standing": True})]
    view = answer["view"]
    assert view["phase"] == "play" and view["kostic"] == 1  # the window closed, the turn moved
    for lang, words in (("en", "(standing order)"), ("cs", "(trvalý pokyn)")):
        lines = t.seats[2].get(t.url(f"transcript/?lang={lang}")).json()["lines"]
        assert [line for line in lines if words in line and "C26" in line], lines


@pytest.mark.django_db
def test_never_passes_at_once_and_the_window_closes_without_waiting_for_his_deadline(
    make_player, rigged
):
    t = table(make_player)
    game_order(t, 1, "never")
    opened = play(t)["seq"]
    mine = t.seats[1].get(t.url()).json()
    assert mine["phase"] == "block" and mine["legal"] == []  # he has answered (sealed, R19)

    closed = send(t.seats[2], t.gid, {"expected_seq": opened, "type": "pass"})

    assert closed.status_code == 200 and closed.json()["view"]["phase"] == "play"
    told = [(e["type"], e["data"]) for e in events(t, 2, opened)][:3]
    turn = mine["turn"]
    assert told == [("block_passed", {"seat": 1, "turn": turn, "standing": True}),
                    ("block_passed", {"seat": 2, "turn": turn}),
                    ("block_window_closed", {})]  # fmt: skip
    proj = GameProjection.objects.get(game_id=t.gid)
    assert proj.deadline_kind == "turn"  # the block window's deadline is gone


@pytest.mark.django_db
def test_every_asked_player_with_an_order_closes_the_window_in_the_play_itself(make_player, rigged):
    t = table(make_player)
    game_order(t, 1, "duel_against_me")  # a LOSE_1 is no duel: a pass
    default_order(t.seats[2], "never")

    answer = play(t)

    assert answer["view"]["phase"] == "play"
    standing = [e["data"]["seat"] for e in events(t) if e["data"].get("standing")]
    assert standing == [1, 2]


@pytest.mark.django_db
def test_aimed_at_me_lets_a_gain_pass(make_player, rigged):
    t = table(make_player)
    game_order(t, 1, "aimed_at_me")
    opened = play(t, GAIN_ON_1)["seq"]
    assert t.seats[1].get(t.url()).json()["legal"] == []  # passed, sealed
    assert t.seats[2].get(t.url()).json()["seq"] == opened


@pytest.mark.django_db
def test_the_games_order_beats_the_default(make_player, rigged):
    t = table(make_player)
    default_order(t.seats[1], "never")
    game_order(t, 1, "aimed_at_me")
    assert t.seats[1].get(t.url("standing-order/")).json()["applies"] == "aimed_at_me"

    play(t)

    assert [e["data"]["seat"] for e in events(t) if e["type"] == "play_blocked"] == [1]


@pytest.mark.django_db
def test_the_default_answers_where_the_game_has_no_order(make_player, rigged):
    t = table(make_player)
    default_order(t.seats[1], "aimed_at_me")
    assert t.seats[1].get(t.url("standing-order/")).json() == {
        "game": t.gid, "block": None, "at": None, "applies": "aimed_at_me"}  # fmt: skip
    play(t)
    assert [e["data"]["seat"] for e in events(t) if e["type"] == "play_blocked"] == [1]


@pytest.mark.django_db
def test_null_removes_an_order_and_the_rows_stay(make_player, rigged):
    t = table(make_player)
    game_order(t, 1, "aimed_at_me")
    removed = game_order(t, 1, None)
    assert removed["block"] is None and removed["applies"] is None

    opened = play(t)["seq"]

    assert t.seats[1].get(t.url()).json()["legal"][0] == {"type": "pass"}  # he is asked
    assert not [e for e in events(t, 0, opened - 1) if e["data"].get("standing")]
    assert StandingOrder.objects.filter(game_id=t.gid).count() == 2  # append-only


@pytest.mark.django_db
def test_a_game_order_removed_falls_back_to_the_default(make_player, rigged):
    t = table(make_player)
    default_order(t.seats[1], "never")
    game_order(t, 1, "aimed_at_me")
    assert game_order(t, 1, None)["applies"] == "never"


@pytest.mark.django_db
def test_an_order_is_its_owners_alone(make_player, rigged):
    t = table(make_player)
    game_order(t, 1, "aimed_at_me")
    default_order(t.seats[1], "never")
    stranger = make_player()

    assert_error(stranger.get(t.url("standing-order/")), 403, "forbidden")
    assert_error(put(stranger, t.url("standing-order/"), "never"), 403, "forbidden")
    assert t.seats[2].get(t.url("standing-order/")).json()["applies"] is None  # his own: none
    assert stranger.get("/api/me/standing-order/").json()["applies"] is None
    assert_error(t.seats[1].get("/api/games/987654321/standing-order/"), 404, "not_found")
    anonymous = APIClient()
    assert_error(anonymous.get(t.url("standing-order/")), 401, "not_authenticated")
    assert_error(anonymous.get("/api/me/standing-order/"), 401, "not_authenticated")


@pytest.mark.django_db
def test_no_view_event_or_list_tells_that_an_order_exists(make_player, rigged):
    t = table(make_player)
    before = [t.seats[2].get(t.url()).json(), make_player().get("/api/games/").json()]
    game_order(t, 1, "never")
    default_order(t.seats[1], "aimed_at_me")
    after = [t.seats[2].get(t.url()).json(), make_player().get("/api/games/").json()]
    assert after == before
    assert "standing" not in str(t.seats[1].get(t.url()).json())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [{}, {"block": "always"}, {"block": 1}, {"block": True}, {"block": "never", "extra": 1},
     ["never"], "never"],
)  # fmt: skip
def test_a_bad_body_is_invalid(make_player, rigged, body):
    t = table(make_player)
    for path in (t.url("standing-order/"), "/api/me/standing-order/"):
        assert_error(t.seats[1].put(path, body, format="json"), 400, "invalid")
    assert not StandingOrder.objects.exists()


@pytest.mark.django_db
def test_a_finished_game_takes_no_order(make_player, rigged):
    # Seat 1 (one life, no red card) is hit by red LOSE_1 on everyone: the game ends (R17).
    rig = {"hands": [["C33", "C27"], ["C25", "C26"]], "lives": [6, 1], "first": 0}
    t = open_table(make_player, 2, options=OPTIONS, rig=rig)
    game_order(t, 1, "never")
    play(t, {"type": "play", "card": "C33", "effect": 1, "scope": "all", "target": None})
    assert t.seats[0].get(t.url()).json()["status"] == "ended"
    assert_error(put(t.seats[1], t.url("standing-order/"), "never"), 409, "game_over")
    assert t.seats[1].get(t.url("standing-order/")).json()["block"] == "never"


@pytest.mark.django_db
def test_a_game_with_standing_blocks_and_passes_verifies_green(make_player, rigged):
    t = table(make_player, deck=["C39", "C38", "C37", "C36"])
    game_order(t, 1, "aimed_at_me")
    default_order(t.seats[2], "never")
    play(t)  # seat 1 blocks by his order
    # Seat 1 is the Kostič now: LOSE_1 on seat 2, who passes by his default; seat 0 passes.
    seq = t.seats[1].get(t.url()).json()["seq"]
    body = {"type": "play", "card": "C01", "effect": 1, "scope": "all", "target": None}
    answer = send(t.seats[1], t.gid, {"expected_seq": seq, **body})  # red GAIN_1 on everyone
    assert answer.status_code == 200, answer.content
    send(t.seats[0], t.gid, {"expected_seq": answer.json()["seq"], "type": "pass"})
    marks = [(e["type"], e["data"]["seat"]) for e in events(t) if e["data"].get("standing")]
    assert marks == [("play_blocked", 1), ("block_passed", 2)]

    # To the end: every window answered by orders from now on, the rest played at random.
    for seat, order in enumerate(("never", "aimed_at_me", "duel_against_me")):
        game_order(t, seat, order)
    assert play_to_end(t, random.Random(10))["status"] == "ended"

    audit = t.seats[2].get(t.url("audit/")).json()
    assert audit["chain_ok"] and audit["replay_ok"] and audit["rules_ok"], audit


@pytest.mark.django_db
def test_orders_cost_one_statement_read_with_the_lock(make_player, rigged, settings):
    """Every command reads the seated players' orders in one statement sent with its row lock
    (one message: games.table.commit._read_ahead), before its first write, so a play that
    opens a window waits for no read of its own."""
    t = table(make_player)
    default_order(t.seats[2], "never")
    settings.SEJMI_FOLLOW = "queue"  # the followers' statements are not the command's

    def orders_read(call) -> list[int]:
        sql = statements(call)
        lock = next(i for i, q in enumerate(sql) if "FOR UPDATE" in q)
        first_write = next(i for i, q in enumerate(sql)
                           if q.startswith(("INSERT", "UPDATE", "WITH")))  # fmt: skip
        found = [i for i, q in enumerate(sql) if "games_standingorder" in q]
        assert all(lock < i < first_write for i in found), sql
        return found

    opened: list[dict] = []
    assert len(orders_read(lambda: opened.append(play(t)))) == 1  # the play opened the window
    seq = opened[0]["seq"]
    answer: list = []
    passes = lambda: answer.append(send(t.seats[1], t.gid, {"expected_seq": seq, **PASS}))  # noqa: E731
    assert len(orders_read(passes)) == 1 and answer[0].status_code == 200
