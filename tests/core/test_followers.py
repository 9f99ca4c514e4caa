"""Features follow the log (games.core.followers): the command's transaction tells and rates
nobody; a follower catches each game up in its own transaction, under its own cursor's lock,
after COMMIT — in the follower process in production (`manage.py run_deadlines`, woken through
Redis), in the runner thread under `make run`. A follower that dies between a game's COMMIT and
its own loses nothing and tells nothing twice."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.conf import settings as django_settings

from games.core import followers
from games.core.models import FollowerCursor
from games.notifications.models import Notification
from tests.support.deadlines import wait_for
from tests.support.processes import database_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(make_player, settings):
    """A started 2-seat game of two humans whose followers have not run: anna is to play."""
    settings.SEJMI_FOLLOW = "queue"
    settings.SEJMI_SEND_TASKS = False
    anna, ben = make_player(), make_player()
    created = anna.post("/api/games/", {"seats": 2, "options": {}}, format="json")
    gid = created.json()["id"]
    for client in (anna, ben):
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    return gid


def _followers(env_extra: dict[str, str]) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url(), "PYTHONUNBUFFERED": "1",
           "REDIS_URL": django_settings.REDIS_URL, "SEJMI_INPROCESS_RUNNER": "0",
           "SEJMI_FOLLOW": "queue", **env_extra}  # fmt: skip
    return subprocess.Popen([sys.executable, "manage.py", "run_deadlines", "--only-followers"],
                            cwd=django_settings.BASE_DIR, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip


def _told(gid: int) -> list[tuple[int, str, int]]:
    rows = Notification.objects.filter(game_id=gid).order_by("user_id", "kind", "seq")
    return list(rows.values_list("user_id", "kind", "seq"))


def _cursor(name: str, gid: int) -> int | None:
    row = FollowerCursor.objects.filter(follower=name, game_id=gid).first()
    return row.seq if row else None


def test_the_commit_tells_nobody_and_the_follower_process_does(game):
    """Woken through Redis, the follower process (outside the web) tells the game's news."""
    assert _told(game) == [], "told inside the command's transaction"
    followers.wake(game)  # the join's wake-up went to the queue before the process listened
    proc = _followers({})
    try:
        told = wait_for(lambda: _told(game), "the follower process to tell the news", 30)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert [kind for _, kind, _ in told] == ["your_turn"]


def test_a_follower_killed_between_commit_and_its_work_loses_nothing_nor_tells_twice(game):
    """The follower process dies (os._exit) after the notifications follower made its rows,
    before its transaction committed: nothing of it stays, its cursor did not move. The next
    process (or the sweeper) tells everything once; a second look tells nothing more."""
    followers.wake(game)
    proc = _followers({"SEJMI_FOLLOWER_DIES_AT": "notifications"})
    assert proc.wait(timeout=30) == 70, proc.stdout.read().decode()
    assert _told(game) == [] and _cursor("notifications", game) in (None, 0)
    assert _cursor("stats", game) in (None, 0), "one transaction: the followers before it too"
    followers.wake(game)
    proc = _followers({})
    try:
        told = wait_for(lambda: _told(game), "the next follower process to tell the news", 30)
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert followers.sweep(min_age=timedelta(0)) == 0, "nothing left to tell"
    assert _told(game) == told and len(told) == 1


def test_make_runs_thread_follows_what_was_woken(game, settings):
    """SEJMI_FOLLOW "thread" (`make run`): a wake-up rings the runner, which follows it."""
    rung: list[bool] = []
    followers.listen(lambda: rung.append(True))
    try:
        settings.SEJMI_FOLLOW = "thread"
        followers.wake(game)
        assert rung and _told(game) == []
        assert followers.follow_pending() > 0
        assert followers.follow_pending() == 0
        assert [kind for _, kind, _ in _told(game)] == ["your_turn"]
    finally:
        followers._listeners.clear()
