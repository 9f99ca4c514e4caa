"""`make run`'s one loop sleeps while nothing is due (issue 19: idle under 1 % of a core) and
still plays every bot at once and applies every deadline on time (R21): it wakes after a
commit that had a task for Celery (none here), at that task's eta, and at the next due time
the database holds (games.clock.alarm). The runner runs for real in a thread on the test
database; only its sweep is counted (it still does its work)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.clock import alarm as alarm_module
from games.clock import runner
from games.clock.alarm import Alarm
from games.core import task_queue
from tests.support.deadlines import SHORT_GAME, events, start_game, view, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def make_run_loop(settings, monkeypatch):
    """The loop as `runner.start` runs it, in a thread; yields the times it swept."""
    settings.SEJMI_SEND_TASKS = False  # `make run` has no Celery
    looks: list[float] = []
    sweep = runner.sweep

    def counted_sweep(**kwargs):
        looks.append(time.monotonic())
        return sweep(**kwargs)

    monkeypatch.setattr(runner, "sweep", counted_sweep)
    alarm = Alarm()
    monkeypatch.setattr(task_queue, "_not_sent_hooks", [alarm.ring])
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, daemon=True, kwargs={
        "alarm": alarm, "stop": stop, "beside": runner._every_notification_chore})  # fmt: skip
    thread.start()
    yield looks, alarm
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_idle_it_sleeps_instead_of_polling(make_run_loop):
    looks, _ = make_run_loop
    time.sleep(0.3)
    before = len(looks)
    time.sleep(2.0)
    # The polling loop looked every 0.2 s: 10 times here. Idle, the alarm looks every
    # IDLE_LOOK_S (10 s) at most.
    assert len(looks) - before == 0, f"{len(looks) - before} looks in 2 s with nothing due"


def test_a_ring_with_an_eta_wakes_it_then_and_not_before(make_run_loop):
    looks, alarm = make_run_loop
    time.sleep(0.3)
    rung = time.monotonic()
    alarm.ring(timezone.now() + timedelta(seconds=0.8))
    wait_for(lambda: [t for t in looks if t > rung], "a look after the ring's eta", timeout=3)
    first = min(t for t in looks if t > rung)
    assert 0.7 <= first - rung < 1.5


def test_bots_answer_at_once_and_a_human_move_wakes_it(make_run_loop, rigged, player):
    """A human against two bots, moved by the loop alone: each commit rings the alarm."""
    looks, _ = make_run_loop
    gid = start_game(player, seats=3, options={"bots": [1, 2]}, rig=SHORT_GAME)
    moves, waited = 0, []
    while True:
        asked = time.monotonic()
        now = wait_for(lambda: (v := view(player, gid))["status"] == "ended" or v["legal"] and v,
                       "the bots to hand the game back to the human", timeout=10)  # fmt: skip
        waited.append(time.monotonic() - asked)
        if now is True:
            break
        body = {"expected_seq": now["seq"], **now["legal"][0]}
        answer = player.post(f"/api/games/{gid}/commands/", body, format="json")
        assert answer.status_code == 200, answer.content
        moves += 1
    assert moves > 0 and view(player, gid)["winners"]
    assert "timed_out" not in {e["type"] for e in events(player, gid)}
    # Woken by the commits, not found by the 10 s idle look: no answer took seconds.
    assert max(waited) < alarm_module.IDLE_LOOK_S / 2, waited


def test_a_deadline_in_the_database_wakes_it_on_time_without_a_ring(make_run_loop, rigged, trio):
    """R21: a block window's deadline, found by the loop's look at the next due time."""
    looks, alarm = make_run_loop
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"block_window_s": 1},
                     rig={"first": 0, "hands": [["C25", "C29", "C30"],
                                                ["C33", "C34", "C35"]]})  # fmt: skip
    alarm.ring()  # the game's start had nothing due: let the loop read the next due time
    body = {
        "expected_seq": view(alice, gid)["seq"],
        "type": "play",
        "card": "C25",
        "effect": 0,
        "scope": "one",
        "target": 1,
    }
    task_queue._not_sent_hooks.clear()  # nothing rings now: the loop finds the deadline alone
    alarm.ring()
    played = alice.post(f"/api/games/{gid}/commands/", body, format="json")
    assert played.status_code == 200, played.content
    deadline = played.json()["view"]["deadline"]
    assert deadline
    timed_out = wait_for(lambda: [e for e in events(alice, gid) if e["type"] == "timed_out"],
                         "the block window's timeout", timeout=8)  # fmt: skip
    assert timed_out
