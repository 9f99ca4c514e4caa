"""Who is away from a seat, end to end through the API on the real database (issue 10,
API.md "Correspondence"): vacations stand the clocks still and end by themselves, by the
player or by his command; K timeouts in a row hand a seat to the bot until `return`; a leaver's
seat is played by the bot to the end; a game no human touches for 30 days ends as abandoned.
Deadlines are applied by the sweeper (`games.tasks.sweep()`, in-process), the clock moved by
patching django.utils.timezone.now."""

from __future__ import annotations

from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games.clock import tasks
from games.core.models import GameProjection
from tests.support.api import assert_error, open_table
from tests.support.read_models import read_models

pytestmark = pytest.mark.django_db

REAL_NOW = timezone.now


class Clock:
    """django.utils.timezone.now, moved by hand."""

    def __init__(self) -> None:
        self.now = REAL_NOW()

    def __call__(self) -> datetime:
        return self.now

    def move(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock(settings):
    settings.SEJMI_SEND_TASKS = False  # the sweeper below is the only worker
    c = Clock()
    with mock.patch("django.utils.timezone.now", c):
        yield c


def view(client, gid: int) -> dict:
    return client.get(f"/api/games/{gid}/").json()


def events(client, gid: int) -> list[dict]:
    return client.get(f"/api/games/{gid}/events/").json()["events"]


def types(client, gid: int) -> list[str]:
    return [e["type"] for e in events(client, gid)]


def act(client, gid: int, prefer: str = "pass") -> dict:
    """The caller sends a legal command (a pass if he may), at the seq he sees."""
    mine = view(client, gid)
    legal = mine["legal"]
    body = next((b for b in legal if b["type"] == prefer), legal[0])
    answer = client.post(f"/api/games/{gid}/commands/", {"expected_seq": mine["seq"], **body},
                         format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()["view"]


def sweep_all() -> None:
    while tasks.sweep():
        pass


def deadline(gid: int) -> tuple[str | None, datetime | None]:
    proj = GameProjection.objects.get(game_id=gid)
    return proj.deadline_kind, proj.deadline_at


def kostic_plays(table) -> tuple[int, dict]:
    """The Kostič plays (any legal play): a block window opens for the others."""
    v = view(table.seats[0], table.gid)
    seat = v["kostic"]
    return seat, act(table.seats[seat], table.gid, prefer="play")


def audit_green(client, gid: int) -> dict:
    report = client.get(f"/api/games/{gid}/audit/").json()
    assert report["chain_ok"] and report["rules_ok"] and report["replay_ok"], report
    assert report["seed_ok"] and report["rederive_ok"], report
    return report


# --- vacations ------------------------------------------------------------------------------


def test_a_vacation_stops_a_block_window_and_resumes_it_with_the_time_left(make_player, clock):
    table = open_table(make_player, 3, options={"block_window_s": 60})
    kostic, _ = kostic_plays(table)
    asked = [s for s in range(3) if s != kostic]
    since = clock.now
    assert deadline(table.gid) == ("block", since + timedelta(seconds=60))
    early, away_one = table.seats[asked[0]], table.seats[asked[1]]
    act(early, table.gid)  # a pass, sealed while the window is open (R19)
    clock.move(seconds=20)
    answer = away_one.post("/api/me/vacation/", {"days": 2}, format="json")
    assert answer.status_code == 200, answer.content
    until = datetime.fromisoformat(answer.json()["until"])
    assert until == clock.now + timedelta(days=2) and answer.json()["days_left"] == 28
    assert deadline(table.gid) == ("vacation", until)  # the window's clock stands still
    who = view(early, table.gid)["players"][asked[1]]
    assert who["away"] == "vacation" and who["away_until"] == answer.json()["until"]
    told = types(away_one, table.gid)
    assert told[-1] == "vacation_started" and "block_passed" not in told[-3:]  # R19 holds
    assert view(early, table.gid)["legal"] == []  # his pass is still his, sealed

    clock.move(hours=30)
    sweep_all()
    assert types(away_one, table.gid)[-1] == "vacation_started"  # nothing timed out
    ended = away_one.delete("/api/me/vacation/")
    assert ended.status_code == 200 and ended.json()["until"] is None
    assert deadline(table.gid) == ("block", clock.now + timedelta(seconds=40))  # 40 s left
    assert view(early, table.gid)["players"][asked[1]]["away"] is None
    clock.move(seconds=39)
    sweep_all()
    assert "timed_out" not in types(away_one, table.gid)
    clock.move(seconds=2)
    sweep_all()
    after = events(away_one, table.gid)
    tail = [e["type"] for e in after]
    i = tail.index("timed_out")
    assert tail[i - 3 : i + 2] == ["vacation_started", "vacation_ended", "block_passed",
                                   "timed_out", "block_passed"]  # fmt: skip
    assert after[i]["data"]["seats"] == [asked[1]]


def test_a_vacation_ends_by_itself_at_until(make_player, clock):
    table = open_table(make_player, 2)
    alice = table.seats[0]
    answer = alice.post("/api/me/vacation/", {"days": 1}, format="json").json()
    assert answer["days_left"] == 29
    assert view(alice, table.gid)["players"][0]["away"] == "vacation"
    clock.move(hours=23)
    sweep_all()
    assert types(alice, table.gid)[-1] == "vacation_started"
    clock.move(hours=1, seconds=1)
    sweep_all()  # nobody acts: the VACATION deadline ends it
    assert types(alice, table.gid)[-1] == "vacation_ended"
    assert view(alice, table.gid)["players"][0]["away"] is None
    status = alice.get("/api/me/vacation/").json()
    assert status["until"] is None and status["days_left"] == 29
    kind, at = deadline(table.gid)
    assert kind in ("turn", "block") and at > clock.now  # the clocks go on


def test_an_accepted_command_ends_his_vacation_in_all_his_games(make_player, clock):
    table = open_table(make_player, 2)
    second = make_player()
    # the same two players in a second game
    created = table.seats[0].post("/api/games/", {"seats": 2}, format="json").json()["id"]
    for client in table.seats:
        assert client.post(f"/api/games/{created}/join/", {}, format="json").status_code == 200
    kostic = view(table.seats[0], table.gid)["kostic"]
    player = table.seats[kostic]
    player.post("/api/me/vacation/", {"days": 5}, format="json")
    assert types(player, created)[-1] == "vacation_started"
    refused = player.post(f"/api/games/{table.gid}/commands/", {"expected_seq": 0,
                          "type": "pass"}, format="json")  # fmt: skip
    assert refused.status_code == 409  # a refused command ends nothing
    assert player.get("/api/me/vacation/").json()["until"] is not None
    act(player, table.gid, prefer="play")
    in_game = types(player, table.gid)
    assert in_game[in_game.index("vacation_ended") + 1] == "card_played"
    assert types(player, created)[-1] == "vacation_ended"
    assert player.get("/api/me/vacation/").json()["until"] is None
    assert second.get("/api/me/vacation/").json()["days_left"] == 30


def test_the_allowance_is_enforced(make_player, clock, settings):
    alice = make_player()
    for bad in ({"days": 31}, {"days": 0}, {"days": "3"}, {"days": True}, {}, {"days": 1, "x": 1}):
        assert_error(alice.post("/api/me/vacation/", bad, format="json"), 400, "invalid")
    assert alice.post("/api/me/vacation/", {"days": 30}, format="json").status_code == 200
    assert_error(alice.post("/api/me/vacation/", {"days": 1}, format="json"), 400, "invalid")
    clock.move(hours=30)
    assert alice.delete("/api/me/vacation/").json()["days_left"] == 29  # 1.25 days used: one
    assert_error(alice.delete("/api/me/vacation/"), 400, "invalid")
    assert_error(alice.post("/api/me/vacation/", {"days": 30}, format="json"), 400, "invalid")
    assert alice.post("/api/me/vacation/", {"days": 29}, format="json").status_code == 200
    settings.SEJMI_VACATION_DAYS_PER_YEAR = 40
    assert alice.get("/api/me/vacation/").json()["days_left"] == 10  # 30.25 days held: 30
    assert_error(APIClient().get("/api/me/vacation/"), 401, "not_authenticated")


def test_a_vacation_costs_the_time_it_lasted_rounded_over_the_year(make_player, clock):
    """Issue 18: a vacation ended after seconds gives the whole allowance back; the year's
    total time is rounded to whole days (half up), so short vacations still add up."""
    alice = make_player()
    vacation = "/api/me/vacation/"
    assert alice.post(vacation, {"days": 3}, format="json").json()["days_left"] == 27  # held
    clock.move(seconds=20)
    assert alice.delete(vacation).json()["days_left"] == 30  # a change of mind costs nothing
    for _ in range(4):  # four times 6 hours: one day
        alice.post(vacation, {"days": 1}, format="json")
        clock.move(hours=6)
        alice.delete(vacation)
    assert alice.get(vacation).json()["days_left"] == 29
    alice.post(vacation, {"days": 2}, format="json")
    clock.move(hours=12)  # 36 hours and 20 s in all: a day and a half rounds up
    assert alice.delete(vacation).json()["days_left"] == 28
    assert alice.post(vacation, {"days": 29}, format="json").status_code == 400
    assert alice.post(vacation, {"days": 28}, format="json").json()["days_left"] == 0


# --- the bot takes a seat, and gives it back ------------------------------------------------


def time_out_until_taken(table, absent: int) -> None:
    """Seat `absent` never acts; the others act whenever asked; deadlines pass."""
    for _ in range(200):
        if view(table.seats[absent], table.gid)["players"][absent]["away"] == "bot":
            return
        v = view(table.seats[0], table.gid)
        present = [s for s in v["awaiting"] if s != absent
                   and view(table.seats[s], table.gid)["legal"]]  # fmt: skip
        if present:
            act(table.seats[present[0]], table.gid)
            continue
        clock_now = timezone.now()
        GameProjection.objects.filter(game_id=table.gid, deadline_at__gt=clock_now).update(
            deadline_at=clock_now
        )  # the deadline passed
        sweep_all()
    raise AssertionError("the bot never took the seat")


def test_k_timeouts_hand_the_seat_to_the_bot_and_return_takes_it_back(make_player, clock):
    table = open_table(make_player, 2, options={"timeouts_to_bot": 2})
    time_out_until_taken(table, absent=0)
    log = events(table.seats[0], table.gid)
    took = next(i for i, e in enumerate(log) if e["type"] == "seat_taken_by_bot")
    assert log[took - 1]["type"] == "timed_out" and log[took]["data"] == {"seat": 0}
    assert sum(e["type"] == "timed_out" and 0 in e["data"]["seats"] for e in log) == 2
    assert_error(table.seats[1].post(table.url("return/"), {}, format="json"), 400, "invalid")
    back = table.seats[0].post(table.url("return/"), {}, format="json")
    assert back.status_code == 200, back.content
    assert back.json()["view"]["players"][0]["away"] is None
    assert types(table.seats[0], table.gid)[-1] == "seat_returned"
    assert_error(table.seats[0].post(table.url("return/"), {}, format="json"), 400, "invalid")


# --- leaving ----------------------------------------------------------------------------------


def test_a_leaver_is_played_by_the_bot_to_the_end_and_the_audit_is_green(make_player, clock):
    """One game with all of it: a vacation paused and resumed, a takeover after K timeouts
    and the return, a leave; the bot plays the leaver's seat to the end."""
    table = open_table(make_player, 3, options={"timeouts_to_bot": 1})
    leaver, stayer, sleeper = table.seats
    stayer.post("/api/me/vacation/", {"days": 3}, format="json")
    clock.move(hours=1)
    stayer.delete("/api/me/vacation/")
    time_out_until_taken(table, absent=2)
    assert sleeper.post(table.url("return/"), {}, format="json").status_code == 200
    assert_error(make_player().post(table.url("leave/"), {}, format="json"), 403, "forbidden")
    left = leaver.post(table.url("leave/"), {}, format="json")
    assert left.status_code == 200, left.content
    mine = left.json()["view"]
    assert mine["you"] == 0 and mine["legal"] == [] and mine["players"][0]["away"] == "bot"
    assert mine["players"][0]["left"] is True
    assert_error(leaver.post(table.url("leave/"), {}, format="json"), 400, "invalid")
    sweep_all()  # the bot's moves for him are due at once (a late command would apply them)
    now = view(leaver, table.gid)["seq"]
    assert_error(leaver.post(table.url("commands/"), {"expected_seq": now, "type": "pass"},
                             format="json"), 403, "forbidden")  # fmt: skip
    for _ in range(3000):
        v = view(stayer, table.gid)
        if v["status"] == "ended":
            break
        humans = [s for s in v["awaiting"] if s != 0 and view(table.seats[s], table.gid)["legal"]]
        if humans:
            act(table.seats[humans[0]], table.gid, prefer="play")
        else:
            sweep_all()  # the bot plays seat 0 at once
    final = view(leaver, table.gid)
    assert final["status"] == "ended" and 0 not in final["winners"]
    got = set(types(leaver, table.gid))
    assert {"seat_left", "seat_taken_by_bot", "seat_returned", "vacation_started",
            "vacation_ended"} <= got  # fmt: skip
    audit_green(leaver, table.gid)
    transcript = leaver.get(table.url("transcript/?lang=cs")).json()["lines"]
    assert any("opouští hru" in line for line in transcript)
    live = read_models()
    call_command("rebuild_projections")
    assert read_models() == live


def test_leaving_needs_a_running_game_and_a_seat(make_player, clock):
    alice = make_player()
    gid = alice.post("/api/games/", {"seats": 2}, format="json").json()["id"]
    alice.post(f"/api/games/{gid}/join/", {}, format="json")
    assert_error(alice.post(f"/api/games/{gid}/leave/", {}, format="json"), 400, "invalid")
    assert_error(alice.post("/api/games/999999/leave/", {}, format="json"), 404, "not_found")
    assert_error(alice.post(f"/api/games/{gid}/leave/", {"x": 1}, format="json"), 400, "invalid")


# --- abandoned -------------------------------------------------------------------------------


def test_a_game_no_human_touches_for_30_days_ends_as_abandoned(make_player, clock):
    days20 = 20 * 86_400
    options = {"timeouts_to_bot": 0, "turn_deadline_s": days20, "block_window_s": days20}
    table = open_table(make_player, 2, options=options)
    clock.move(days=20, seconds=1)
    sweep_all()  # the Kostič's turn times out; R21 plays for him
    assert "timed_out" in types(table.seats[0], table.gid)
    assert deadline(table.gid)[0] == "abandon"  # 30 days after the joins come first
    clock.move(days=9, hours=23)
    sweep_all()
    assert view(table.seats[0], table.gid)["status"] == "active"
    clock.move(hours=1)
    sweep_all()
    final = view(table.seats[0], table.gid)
    assert final["status"] == "ended" and final["winners"] == []
    last = events(table.seats[0], table.gid)[-1]
    assert last["type"] == "game_ended" and last["data"]["reason"] == "abandoned"
    assert len(last["data"]["seed"]) == 64  # R22: the seed is revealed
    audit_green(table.seats[0], table.gid)
