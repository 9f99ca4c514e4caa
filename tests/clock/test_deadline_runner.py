"""`manage.py run_deadlines` (issue 9, bench-faults: after a Redis restart the Celery worker
consumed nothing and deadlines were up to 95 s late): deadlines held from PostgreSQL alone.

Two runner processes at once, their Redis a port nobody listens on (no broker, no channel
layer), nothing sent to Celery by this process: a block window still times out, once (R21), and
a bots-only game still plays on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings as django_settings

from tests.support.deadlines import (
    NO_GREEN,
    events,
    send,
    start_game,
    wait_for,
    wait_until_past,
)
from tests.support.processes import database_url

pytestmark = pytest.mark.django_db(transaction=True)

DEAD_REDIS = "redis://127.0.0.1:9/0"  # the discard port: nothing answers there


@pytest.fixture
def runners(tmp_path):
    """Two `manage.py run_deadlines` processes on the test database, with no reachable Redis."""
    env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": DEAD_REDIS,
           "SEJMI_INPROCESS_RUNNER": "0", "PYTHONUNBUFFERED": "1"}  # fmt: skip
    logs = [tmp_path / f"runner{i}.log" for i in range(2)]
    procs = []
    for log in logs:
        with log.open("w") as out:
            procs.append(subprocess.Popen(
                [sys.executable, "manage.py", "run_deadlines"], cwd=django_settings.BASE_DIR,
                env=env, stdout=out, stderr=subprocess.STDOUT))  # fmt: skip
    try:
        for log in logs:
            wait_for(lambda log=log: "sweeping every" in log.read_text(), "a runner to start", 30)
        yield logs
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            assert proc.wait(timeout=10) == 0, "run_deadlines stops cleanly on SIGTERM"
    for log in logs:  # (each broadcast fails, logged: no Redis; the events are committed)
        assert "deadline sweep failed" not in log.read_text(), log.read_text()


def test_two_runners_without_redis_time_a_block_window_out_once(
    rigged, no_celery, make_player, runners
):
    alice, bob = make_player("alice"), make_player("bob")
    gid = start_game(alice, [bob], seats=2, options={"block_window_s": 1},
                     rig={"first": 0, "hands": [["C25", "C29", "C30"], NO_GREEN[:3]]})  # fmt: skip
    played = send(alice, gid, type="play", card="C25", effect=0, scope="one", target=1)
    wait_until_past(played["deadline"])
    started = time.monotonic()
    log = wait_for(lambda: [e for e in events(alice, gid) if e["type"] == "timed_out"] or None,
                   "a runner to apply the timeout", 10)  # fmt: skip
    assert time.monotonic() - started < 2, "a runner sweeps every 0.2 s"
    assert len(log) == 1 and log[0]["data"] == {"phase": "block", "seats": [1]}  # R21, once
    time.sleep(0.5)  # the other runner came by too, and did nothing
    assert [e["type"] for e in events(alice, gid)].count("timed_out") == 1


def test_a_game_whose_row_is_held_does_not_hold_another_games_deadline(
    rigged, no_celery, make_player, runners
):
    """The runners advanced overdue games one after another: one game whose row a slow
    transaction holds (here: held on purpose, its deadline the first due) kept every later
    deadline waiting (bench-load: a burst of deadlines up to 1.3 s late). Side by side, the
    other game's window times out while the first is still held."""
    import threading

    from django.db import connections, transaction

    from games.core.models import GameProjection

    hands = {"first": 0, "hands": [["C25", "C29", "C30"], NO_GREEN[:3]]}
    games = []
    for names in (("anna", "ben"), ("cyril", "dana")):
        first, second = make_player(names[0]), make_player(names[1])
        gid = start_game(first, [second], seats=2, options={"block_window_s": 1}, rig=hands)
        games.append((first, gid))
    (held_client, held), (other_client, other) = games
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        with transaction.atomic():
            GameProjection.objects.select_for_update().get(game_id=held)
            locked.set()
            release.wait(30)
        connections.close_all()

    # The held game's window is opened first, so its deadline is the first due.
    send(held_client, held, type="play", card="C25", effect=0, scope="one", target=1)
    played = send(other_client, other, type="play", card="C25", effect=0, scope="one", target=1)
    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(10)
        wait_until_past(played["deadline"])
        wait_for(lambda: [e for e in events(other_client, other) if e["type"] == "timed_out"]
                 or None, "the other game's timeout while the first is held", 5)  # fmt: skip
        assert not [e for e in events(held_client, held) if e["type"] == "timed_out"]
    finally:
        release.set()
        holder.join(30)
    wait_for(lambda: [e for e in events(held_client, held) if e["type"] == "timed_out"] or None,
             "the held game's timeout once let go", 10)  # fmt: skip


def test_the_runners_move_the_bots_without_a_worker(make_player, runners):
    host = make_player("host")
    created = host.post("/api/games/", {"seats": 3, "options": {"bots": [0, 1, 2]}},
                        format="json")  # fmt: skip
    gid = created.json()["id"]
    final = wait_for(lambda: (v := host.get(f"/api/games/{gid}/").json())["status"] == "ended"
                     and v, "the bots to finish their game", 60)  # fmt: skip
    log = events(host, gid)
    assert [e["seq"] for e in log] == list(range(1, final["seq"] + 1))
    audit = host.get(f"/api/games/{gid}/audit/").json()
    assert audit["chain_ok"] and audit["replay_ok"]


def test_with_the_runner_deployed_no_celery_task_waits_for_a_clock(settings, monkeypatch,
                                                                  make_player):  # fmt: skip
    """SEJMI_DEADLINE_RUNNER=1 (docker-compose, the bench stack): the runner applies every
    clock's deadline, so a move sends no ETA task to wait for it (one per move, held by the
    worker and then mostly moot: a sixth of the workers' CPU in bench-load). A bot's move still
    goes to Celery at once; without the runner the clock's task is sent as before."""
    from games.core.models import GameProjection
    from games.table import deadline
    from sejmi.celery import app

    sent = []
    monkeypatch.setattr(app, "send_task",  # the one way a task is sent (games.core.task_queue)
                        lambda name, args, eta, queue: sent.append((name, args, eta)))  # fmt: skip
    settings.SEJMI_ALLOW_RIGGED, settings.SEJMI_SEND_TASKS = True, True
    alice, bob = make_player("alice"), make_player("bob")
    gid = start_game(alice, [bob], seats=2, options={"turn_deadline_s": 600}, rig={"first": 0})
    proj = GameProjection.objects.get(game_id=gid)
    assert proj.deadline_kind == deadline.DeadlineKind.TURN

    settings.SEJMI_DEADLINE_RUNNER = True
    sent.clear()  # what the set-up's commits sent
    assert deadline.schedule(gid, proj) is False and sent == []
    proj.deadline_kind, proj.deadline_at = deadline.DeadlineKind.BOT, proj.decision_since
    assert deadline.schedule(gid, proj) is True and len(sent) == 1

    settings.SEJMI_DEADLINE_RUNNER = False
    proj.refresh_from_db()
    assert deadline.schedule(gid, proj) is True and len(sent) == 2
