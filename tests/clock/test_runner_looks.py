"""Background work proportional to what happened (issue 19): the deadline runner's look, while
nothing is due, is one statement (`next_due`), with no sweep and no reminder step, and `make
run`'s loop runs the notification chores only when something asks for them (a reminder due, a
derive or mail not sent), not after a bot's move that told nobody anything. Deadlines stay on
time (R21): the look still finds the next deadline and reminder."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.clock import runner
from games.clock.alarm import Alarm
from games.core.models import GameProjection
from games.notifications.models import DeadlineReminder
from tests.support.deadlines import NO_GREEN, events, send, start_game, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def counted(monkeypatch):
    """runner.sweep counted; a `beside` step that counts its calls."""
    calls = {"sweep": 0, "beside": 0}
    sweep = runner.sweep

    def counted_sweep(**kwargs):
        calls["sweep"] += 1
        return sweep(**kwargs)

    def beside():
        calls["beside"] += 1

    monkeypatch.setattr(runner, "sweep", counted_sweep)
    return calls, beside


def _running(**kwargs) -> tuple[threading.Thread, threading.Event]:
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, daemon=True, kwargs={"stop": stop, **kwargs})
    thread.start()
    return thread, stop


def _stopped(thread: threading.Thread, stop: threading.Event) -> None:
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_an_idle_runner_neither_sweeps_nor_reminds(counted, settings):
    """`manage.py run_deadlines` with nothing due: it looked with an ORM sweep every 0.2 s and
    ran its reminder step every second; now it only reads when the next one is due."""
    settings.SEJMI_SEND_TASKS = False
    calls, beside = counted
    thread, stop = _running(interval=0.05, beside=beside, beside_every=0.1)
    time.sleep(1.0)  # twenty looks
    _stopped(thread, stop)
    assert calls == {"sweep": 0, "beside": 0}


def test_next_due_is_the_earliest_deadline_and_reminder(rigged, trio, settings):
    settings.SEJMI_SEND_TASKS = False
    assert runner.next_due() == runner.Due(None, None)
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 600}, rig={"first": 0})
    proj = GameProjection.objects.get(game_id=gid)
    due = runner.next_due()
    assert proj.deadline_at is not None and due.deadline == proj.deadline_at
    soon = timezone.now() + timedelta(seconds=30)
    DeadlineReminder.objects.create(game_id=gid, seq=proj.seq + 100, remind_at=soon)
    DeadlineReminder.objects.create(game_id=gid, seq=proj.seq + 101,
                                    remind_at=soon - timedelta(seconds=20), done=True)  # fmt: skip
    assert runner.next_due().reminder == min(
        soon, *DeadlineReminder.objects.filter(done=False).values_list("remind_at", flat=True)
    )
    GameProjection.objects.filter(game_id=gid).update(status="ended")
    assert runner.next_due().deadline is None  # only active games' deadlines


def test_a_passed_deadline_is_swept_at_the_next_look(counted, rigged, trio, settings):
    """R21: the look that finds a deadline passed sweeps, and the block window times out."""
    settings.SEJMI_SEND_TASKS = False
    calls, beside = counted
    alice, bob, _ = trio
    gid = start_game(alice, [bob], seats=2, options={"block_window_s": 1},
                     rig={"first": 0, "hands": [["C25", "C29", "C30"], NO_GREEN[:3]]})  # fmt: skip
    thread, stop = _running(interval=0.05, beside=beside)
    try:
        send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)
        wait_for(lambda: calls["sweep"] or None, "a sweep once the window passed", 8)
        wait_for(lambda: any(e["type"] == "timed_out" for e in events(alice, gid)) or None,
                 "the block window's timeout", 8)  # fmt: skip
    finally:
        _stopped(thread, stop)


def test_make_runs_loop_does_no_chores_for_a_look_at_an_eta(counted, settings):
    """A ring with an eta (a bot's move, a deadline: told nobody anything) is a look, and no
    notification chores; a ring without one (a derive or mail not sent to Celery) asks for
    them. The loop ran every chore after every look."""
    settings.SEJMI_SEND_TASKS = False
    calls, beside = counted
    alarm = Alarm()
    thread, stop = _running(alarm=alarm, beside=beside)
    try:
        wait_for(lambda: calls["beside"] or None, "the first look's housekeeping", 5)
        time.sleep(0.2)
        looks, chores = calls["sweep"], calls["beside"]
        alarm.ring(timezone.now())  # as a bot's `advance` not sent to Celery rings it
        wait_for(lambda: calls["sweep"] > looks or None, "a look at the ring", 5)
        time.sleep(0.3)
        assert calls["beside"] == chores, "no chores for a look at an eta"
        alarm.ring()  # as a mail or derive not sent to Celery rings it
        wait_for(lambda: calls["beside"] > chores or None, "the chores asked for", 5)
    finally:
        _stopped(thread, stop)
