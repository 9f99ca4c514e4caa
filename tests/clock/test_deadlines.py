"""Deadlines and bots with a real Celery worker on the Redis broker (issue 3, item 5; R19, R21).

The worker (fixture `celery_deadline_worker`) runs in a thread of this process and consumes the
broker like any worker, so every test commits its data (django_db(transaction=True)). Nothing
here calls the sweeper in-process: the game moves on only when the worker acts. (Only the
refusal tests call games.table.deadline directly, with service calls that refuse.)
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from games.clock import runner, tasks
from games.core import task_queue
from games.core.errors import ApiError
from games.core.models import GameProjection
from games.engine import HeuristicBot, IllegalCommand, execute, fold, new_game, new_seed
from games.table import commands, deadline
from replays.selectors import state_at
from sejmi import asgi
from sejmi.celery import app
from tests.support.deadlines import (
    NO_GREEN,
    SHORT_GAME,
    after_first,
    at,
    events,
    send,
    start_game,
    view,
    wait_for,
    wait_for_event,
    wait_until_past,
)
from tests.support.processes import database_url

pytestmark = pytest.mark.django_db(transaction=True)

# --- deadlines close decisions by themselves -----------------------------------------------


def test_a_block_window_closes_itself_at_its_deadline(celery_deadline_worker, rigged, trio):
    """R19: the window closes at its deadline; R21: nobody answered, so the service passes."""
    alice, bob, _ = trio
    hands = [["C25", "C29", "C30"], NO_GREEN[:3]]
    gid = start_game(alice, [bob], seats=2, options={"block_window_s": 1},
                     rig={"first": 0, "hands": hands})  # fmt: skip
    played = send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)
    assert played["phase"] == "block" and played["deadline"] is not None

    tail = wait_for_event(alice, gid, "timed_out")

    play = after_first(alice, gid, "card_played")[0]
    assert at(played["deadline"]) - at(play["at"]) == timedelta(seconds=1)
    assert at(tail[0]["at"]) >= at(played["deadline"])
    assert tail[0]["data"] == {"phase": "block", "seats": [1]}
    assert [e["type"] for e in tail[1:3]] == ["block_passed", "block_window_closed"]
    assert "effect_resolved" in [e["type"] for e in tail]
    assert view(bob, gid)["players"][1]["lives"] == 5  # LOSE_1 resolved: not blocked


def test_r21_a_timed_out_kostic_is_played_for_by_the_built_in_bot(
    celery_deadline_worker, rigged, trio
):
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 1},
                     rig={"first": 0, "hands": [["C25", "C29", "C33"], NO_GREEN[3:6]]})  # fmt: skip
    before = view(alice, gid)
    assert before["phase"] == "play" and before["awaiting"] == [0]

    tail = wait_for_event(alice, gid, "timed_out")

    assert tail[0]["data"] == {"phase": "play", "seats": [0]}
    assert at(tail[0]["at"]) >= at(before["deadline"])
    assert tail[1]["type"] == "card_played"
    bots_choice = HeuristicBot().choose(state_at(gid, tail[0]["seq"] - 1), 0).body()
    assert {"type": "play", **tail[1]["data"]} == {"seat": 0, **bots_choice}


# --- tasks are idempotent by seq --------------------------------------------------------------


def test_a_duplicate_or_stale_advance_changes_nothing(
    celery_deadline_worker, rigged, trio, settings
):
    settings.SEJMI_SEND_TASKS = False  # only the tasks sent by hand below reach the worker
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 1}, rig={"first": 0})
    due = view(alice, gid)
    wait_until_past(due["deadline"])
    count = len(events(alice, gid))

    sent = [
        tasks.advance.delay(gid, due["seq"]),
        tasks.advance.delay(gid, due["seq"]),  # the same task delivered twice
        tasks.advance.delay(gid, due["seq"] - 1),  # scheduled for an older seq
        tasks.advance.delay(gid + 1000, 1),  # no such game
    ]
    outcomes = [celery_deadline_worker.outcome(task.id) for task in sent]

    assert outcomes == [runner.ACTED, runner.MOVED_ON, runner.MOVED_ON, runner.MOVED_ON]
    log = events(alice, gid)
    assert [e["type"] for e in log].count("timed_out") == 1
    moved = len(log)
    assert moved > count
    again = tasks.advance.delay(gid, due["seq"])  # late, for a game that has moved on
    assert celery_deadline_worker.outcome(again.id) == runner.MOVED_ON
    assert len(events(alice, gid)) == moved


def test_an_advance_that_arrives_early_changes_nothing_and_comes_back_when_due(
    celery_deadline_worker, rigged, trio, settings
):
    settings.SEJMI_SEND_TASKS = False  # the game's own task is not sent: only the early one
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 2}, rig={"first": 0})
    settings.SEJMI_SEND_TASKS = True
    due = view(alice, gid)
    count = len(events(alice, gid))

    early = tasks.advance.delay(gid, due["seq"])

    assert celery_deadline_worker.outcome(early.id) == runner.NOT_DUE
    assert timezone.now() < at(due["deadline"]), "the test was too slow to send an early task"
    assert len(events(alice, gid)) == count
    tail = wait_for_event(alice, gid, "timed_out")  # the early task came back at the deadline
    assert at(tail[0]["at"]) >= at(due["deadline"])
    assert [e["type"] for e in events(alice, gid)].count("timed_out") == 1


# --- an engine refusal at a deadline is a bug: said loudly, not taken for "moved on" ---------


def refusing(code: str, monkeypatch) -> None:
    """The table's timeout refused with `code`, as the commit raises it from the engine."""

    def refuse(*, game_id: int, expected_seq: int) -> None:
        raise ApiError.from_engine(IllegalCommand(code, "refused at the deadline"))

    monkeypatch.setattr(commands, "game_timeout", refuse)


def overdue_game(alice, bob, settings) -> tuple[int, int]:
    """A started two-seat game whose turn deadline has passed, with no task scheduled."""
    settings.SEJMI_SEND_TASKS = False
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 60}, rig={"first": 0})
    past = timezone.now() - timedelta(seconds=1)
    GameProjection.objects.filter(game_id=gid).update(deadline_at=past)
    return gid, view(alice, gid)["seq"]


@pytest.mark.parametrize("code", ["illegal_move", "invalid"])
def test_r21_an_engine_refusal_at_a_deadline_is_logged_as_an_error(
    code, rigged, trio, settings, caplog, monkeypatch
):
    alice, bob, _ = trio
    gid, seq = overdue_game(alice, bob, settings)
    refusing(code, monkeypatch)

    with caplog.at_level(logging.ERROR, logger="games.clock.runner"):
        outcome = runner.advance(gid, seq)
        acted = runner.sweep()  # still overdue: refused again, loudly

    assert outcome == runner.REFUSED and acted == 0
    errors = [r for r in caplog.records if r.name == "games.clock.runner"]
    assert [r.levelno for r in errors] == [logging.ERROR, logging.ERROR]
    said = errors[0].getMessage()
    assert f"game {gid}" in said and f"seq {seq}" in said and code in said
    assert view(alice, gid)["seq"] == seq  # nothing was appended


@pytest.mark.parametrize("code", ["stale_seq", "not_your_turn", "game_over"])
def test_a_race_lost_at_a_deadline_is_moved_on_quietly(
    code, rigged, trio, settings, caplog, monkeypatch
):
    alice, bob, _ = trio
    gid, seq = overdue_game(alice, bob, settings)
    refusing(code, monkeypatch)

    with caplog.at_level(logging.DEBUG, logger="games.clock.runner"):
        outcome = runner.advance(gid, seq)

    assert outcome == runner.MOVED_ON
    assert not [r for r in caplog.records if r.name == "games.clock.runner"]


# --- `make run`: the in-process runner starts with the server, by the setting alone ---------


@pytest.mark.parametrize("runner_on", [True, False])
def test_the_inprocess_runner_starts_at_server_startup_only_when_set(
    runner_on, settings, monkeypatch
):
    settings.SEJMI_INPROCESS_RUNNER = runner_on
    started: list[bool] = []
    monkeypatch.setattr(runner, "start", lambda: started.append(True))
    incoming = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[str] = []

    async def receive() -> dict:
        return next(incoming)

    async def send(message: dict) -> None:
        sent.append(message["type"])

    asyncio.run(asgi.application({"type": "lifespan"}, receive, send))

    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert started == ([True] if runner_on else [])


# --- the sweeper: the guarantee behind the scheduled tasks ----------------------------------


def test_the_sweeper_applies_an_overdue_deadline_that_was_never_scheduled(
    celery_deadline_worker, rigged, trio, settings
):
    settings.SEJMI_SEND_TASKS = False  # as if scheduling had failed (the broker was away)
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"block_window_s": 1},
                     rig={"first": 0, "hands": [["C25", "C29", "C30"], NO_GREEN[:3]]})  # fmt: skip
    played = send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)
    wait_until_past(played["deadline"])
    assert after_first(alice, gid, "timed_out") is None  # nothing was scheduled
    settings.SEJMI_SEND_TASKS = True

    swept = tasks.sweep.delay()

    assert celery_deadline_worker.outcome(swept.id) >= 1
    tail = after_first(alice, gid, "timed_out")
    assert tail is not None and tail[0]["data"] == {"phase": "block", "seats": [1]}


def test_a_deadline_beyond_the_visibility_timeout_is_left_to_the_sweeper(
    celery_deadline_worker, rigged, trio
):
    """Celery on Redis re-delivers an ETA task older than the visibility timeout, so a long
    deadline is not sent as a task at all: the sweeper (celery beat) applies it when due."""
    alice, bob, _ = trio
    two_days = 2 * 24 * 3600
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": two_days},
                     rig={"first": 0})  # fmt: skip
    proj = GameProjection.objects.get(game_id=gid)
    assert proj.deadline_at - proj.decision_since == timedelta(seconds=two_days)
    assert task_queue.horizon() < timedelta(seconds=two_days)
    assert deadline.schedule(gid, proj) is False
    # Two days pass (the deadline is part of the stored game; the clock is what we move).
    GameProjection.objects.filter(game_id=gid).update(
        decision_since=proj.decision_since - timedelta(days=2),
        deadline_at=proj.deadline_at - timedelta(days=2),
    )  # fmt: skip

    swept = tasks.sweep.delay()

    assert celery_deadline_worker.outcome(swept.id) >= 1
    tail = after_first(alice, gid, "timed_out")
    assert tail is not None and tail[0]["data"] == {"phase": "play", "seats": [0]}
    assert tail[1]["type"] == "card_played" and tail[1]["data"]["seat"] == 0


# --- R21: what the service does for the absent, as seen over HTTP -----------------------------


def test_r21_block_window_timeout_passes_for_the_silent_only(celery_deadline_worker, rigged, trio):
    """R26: bob's own pass is final and does not restart the window's clock."""
    alice, bob, carol = trio
    hands = [["C25", "C29", "C30"], NO_GREEN[:3], NO_GREEN[3:6]]
    gid = start_game(alice, [bob, carol], seats=3, options={"block_window_s": 2},
                     rig={"first": 0, "hands": hands})  # fmt: skip
    played = send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)
    passed = send(bob, gid, type="pass")
    assert passed["deadline"] == played["deadline"]

    tail = wait_for_event(alice, gid, "timed_out")

    assert tail[0]["data"] == {"phase": "block", "seats": [2]}
    assert tail[1]["type"] == "block_passed" and tail[1]["data"]["seat"] == 2
    assert tail[2]["type"] == "block_window_closed"


def test_r21_neighbour_choice_timeout_picks_the_left_neighbour(
    celery_deadline_worker, rigged, trio, settings
):
    settings.SEJMI_SEND_TASKS = False  # the players act at once; only the choice is timed
    alice, bob, carol = trio
    hands = [["C10", "C29", "C30"], NO_GREEN[:3], NO_GREEN[3:6]]
    gid = start_game(alice, [bob, carol], seats=3, options={"turn_deadline_s": 1},
                     rig={"first": 0, "hands": hands, "lives": [6, 4, 4]})  # fmt: skip
    send(alice, gid, type="play", card="C10", effect=0, scope="one", target=1)  # GIVE_NEIGHBOR
    send(bob, gid, type="pass")
    settings.SEJMI_SEND_TASKS = True
    asked = send(carol, gid, type="pass")
    assert asked["phase"] == "choose_neighbor" and asked["pending"]["neighbor_options"] == [2, 0]

    tail = wait_for_event(alice, gid, "timed_out")

    assert tail[0]["data"] == {"phase": "choose_neighbor", "seats": [1]}
    assert tail[1]["type"] == "neighbor_chosen"
    assert tail[1]["data"] == {"seat": 1, "neighbor": 2}  # seat 1's left is seat 2
    assert [p["lives"] for p in view(alice, gid)["players"]] == [6, 3, 5]


def test_r21_duel_bet_timeout_bets_parity_even(celery_deadline_worker, rigged, trio, settings):
    settings.SEJMI_SEND_TASKS = False
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 1},
                     rig={"first": 0, "hands": [["C01", "C29", "C30"], NO_GREEN[:3]],
                          "dice": [3]})  # fmt: skip
    send(alice, gid, type="play", card="C01", effect=0, scope="one", target=1)  # DUEL
    settings.SEJMI_SEND_TASKS = True
    asked = send(bob, gid, type="pass")
    assert asked["phase"] == "bet" and asked["awaiting"] == [1]  # the challenged bets first

    tail = wait_for_event(alice, gid, "timed_out")

    assert tail[0]["data"] == {"phase": "bet", "seats": [1]}
    assert tail[1]["type"] == "bet_placed"
    assert tail[1]["data"] == {"seat": 1, "kind": "parity", "value": "even"}
    assert tail[2]["type"] == "die_rolled" and tail[2]["data"]["value"] == 3
    assert view(alice, gid)["players"][1]["lives"] == 4  # an odd roll: bob missed, -2


def test_r21_handoff_timeout_declines(celery_deadline_worker, rigged, trio, settings):
    settings.SEJMI_SEND_TASKS = False
    alice, bob, carol = trio
    hands = [["C25", "C29", "C30"], NO_GREEN[:3], NO_GREEN[3:6]]
    gid = start_game(alice, [bob, carol], seats=3, options={"turn_deadline_s": 1},
                     rig={"first": 0, "hands": hands, "lives": [5, 1, 6]})  # fmt: skip
    send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)  # LOSE_1
    send(bob, gid, type="pass")
    settings.SEJMI_SEND_TASKS = True
    asked = send(carol, gid, type="pass")
    assert asked["phase"] == "handoff" and asked["awaiting"] == [1]  # R15: bob was eliminated

    tail = wait_for_event(bob, gid, "timed_out")

    assert tail[0]["data"] == {"phase": "handoff", "seats": [1]}
    assert tail[1]["type"] == "card_handed_off"
    assert tail[1]["data"] == {"seat": 1, "card": None, "to": None, "discarded": NO_GREEN[:3]}
    assert view(carol, gid)["players"][2]["hand_count"] == 3  # nothing was handed to carol


# --- bot seats move through the same path ---------------------------------------------------


def test_a_human_plays_against_bots_moved_by_the_worker_alone(
    celery_deadline_worker, rigged, player
):
    gid = start_game(player, seats=3, options={"bots": [1, 2]}, rig=SHORT_GAME)
    moves = 0
    while True:
        now = wait_for(
            lambda: (v := view(player, gid))["status"] == "ended" or v["legal"] and v,
            "the bots to hand the game back to the human",
        )
        if now is True:
            break
        body = {"expected_seq": now["seq"], **now["legal"][0]}
        answer = player.post(f"/api/games/{gid}/commands/", body, format="json")
        # Never stale: bots answer a block window with the play that opens it, sealed (R19).
        assert answer.status_code == 200, answer.content
        moves += 1
    final = view(player, gid)
    assert final["status"] == "ended" and final["winners"] and moves > 0
    log = events(player, gid)
    assert [e["seq"] for e in log] == list(range(1, final["seq"] + 1))
    assert "timed_out" not in {e["type"] for e in log}  # the bots moved, nobody timed out
    assert {e["data"]["seat"] for e in log if e["type"] == "card_played"} == {0, 1, 2}


def engine_bots_game(seats: int, rig: dict) -> tuple[list[str], list[int]]:
    """The same rigged game played by the engine's own bots: event types and winners."""
    seed = new_seed()
    log = new_game(seats=seats, seed=seed, options={"bots": list(range(seats))}, rig=rig)
    state = fold(log)
    while state.status == "active":
        seat = state.awaiting[0]
        new, state = execute(state, HeuristicBot().choose(state, seat), actor=seat, seed=seed)
        log += new
    return [e.type for e in log], list(state.winners or [])


def test_a_game_of_bots_only_plays_to_the_end_by_the_worker_alone(
    celery_deadline_worker, rigged, player
):
    rig = {**SHORT_GAME, "lives": [1, 6, 6]}
    body = {"seats": 3, "options": {"bots": [0, 1, 2]}, "rig": rig}
    created = player.post("/api/games/", body, format="json")
    assert created.status_code == 201 and created.json()["status"] == "active"  # at once
    gid = created.json()["id"]

    final = wait_for(lambda: (v := view(player, gid))["status"] == "ended" and v,
                     "the bots to finish their game", timeout=30)  # fmt: skip

    log = events(player, gid)
    assert [e["seq"] for e in log] == list(range(1, final["seq"] + 1))
    types, winners = engine_bots_game(3, rig)
    assert [e["type"] for e in log] == types and "timed_out" not in types
    assert final["winners"] == winners
    audit = player.get(f"/api/games/{gid}/audit/").json()
    assert audit["chain_ok"] and audit["replay_ok"]


# --- the production shape: `celery -A sejmi worker` and `celery -A sejmi beat` ---------------


def _celery(args: list[str], log) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url(), "PYTHONUNBUFFERED": "1",
           "REDIS_URL": django_settings.REDIS_URL, "SEJMI_INPROCESS_RUNNER": "0"}  # fmt: skip
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "sejmi", *args, "-l", "info"],
                            cwd=django_settings.BASE_DIR, env=env, stdout=log,
                            stderr=subprocess.STDOUT)  # fmt: skip


def test_celery_worker_and_beat_processes_start_with_the_project_settings(
    rigged, trio, settings, tmp_path
):
    """`celery -A sejmi worker` and `celery -A sejmi beat` (docker-compose's commands) start
    with the project's settings, and the worker process applies an overdue deadline."""
    settings.SEJMI_SEND_TASKS = False  # only the sweep sent below can close this window
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"block_window_s": 1},
                     rig={"first": 0, "hands": [["C25", "C29", "C30"], NO_GREEN[:3]]})  # fmt: skip
    played = send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)
    app.control.purge()
    worker_log, beat_log = tmp_path / "worker.log", tmp_path / "beat.log"
    with worker_log.open("w") as worker_out, beat_log.open("w") as beat_out:
        worker = _celery(["worker", "-P", "solo", "--without-mingle", "--without-gossip",
                          "--without-heartbeat", "-n", f"deadlines-{gid}@%h"],
                         worker_out)  # fmt: skip
        beat = _celery(["beat", "-s", str(tmp_path / "beat-schedule")], beat_out)
        try:
            wait_for(lambda: "ready." in worker_log.read_text(), "the worker to start", 30)
            wait_for(lambda: "beat: Starting" in beat_log.read_text(), "beat to start", 30)
            wait_until_past(played["deadline"])
            tasks.sweep.delay()  # what beat sends every 5 s (CELERY_BEAT_SCHEDULE)
            tail = wait_for(lambda: after_first(alice, gid, "timed_out"), "the worker's sweep")
        finally:
            for process in (beat, worker):
                process.terminate()
            for process in (beat, worker):
                process.wait(timeout=30)
    assert tail[0]["data"] == {"phase": "block", "seats": [1]}
    started = worker_log.read_text()
    assert "games.tasks.advance" in started and "games.tasks.sweep" in started
    assert django_settings.REDIS_URL in started  # the broker named by the settings
    beat_started = beat_log.read_text()
    assert django_settings.REDIS_URL in beat_started and "Traceback" not in beat_started
