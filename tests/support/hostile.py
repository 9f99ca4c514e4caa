"""What the hostile-input and resync tests share: players over the REST API, a bots-only game
driven by the deadline sweeper, and the real server (uvicorn on a free loopback port, on this
run's test database and Redis) for what only a real socket shows: HTTP statuses of the
handshake, close frames."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.support import players
from tests.support.processes import database_url, free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]


# A new user with a token client; a 500 is an answer to assert on, not an exception.
register = functools.partial(players.register, stem="hostile", raising=False)


def started_game(seats: int = 2) -> tuple[int, list[APIClient]]:
    """A game every seat of which a registered player took (so it has started)."""
    players = [register() for _ in range(seats)]
    created = players[0].post("/api/games/", {"seats": seats}, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, player in enumerate(players):
        joined = player.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return gid, players


def token_of(client: APIClient) -> str:
    return Token.objects.get(user__username=client.username).key  # type: ignore[attr-defined]


# Bots-only games, played by the deadline sweeper in a thread (as `make run` does)


def bot_game(seats: int = 4) -> int:
    """A bots-only game (it starts at once; the sweeper plays it), watched live (every socket
    here is a spectator's)."""
    host = register(stem="host")
    options = {"bots": list(range(seats)), "block_window_s": 3600, "spectator_delay": 0}
    created = host.post("/api/games/", {"seats": seats, "options": options}, format="json")
    assert created.status_code == 201, created.content
    return created.json()["id"]


@contextmanager
def bots_playing(pause: float = 0.002) -> Iterator[threading.Event]:
    """Sweep due bot moves in a thread until the block ends (each sweep commits, then
    broadcasts after commit, as in production). Use with settings.SEJMI_SEND_TASKS = False."""
    from games.clock import runner

    stop = threading.Event()
    failures: list[BaseException] = []

    def loop() -> None:
        try:
            while not stop.is_set():
                runner.sweep()
                time.sleep(pause)
        except BaseException as err:  # reported by the test, not lost in a thread
            failures.append(err)
        finally:
            connections.close_all()

    thread = threading.Thread(target=loop, name="hostile-bots", daemon=True)
    thread.start()
    try:
        yield stop
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not failures, failures


# The real server


@contextmanager
def live_server(log: Path) -> Iterator[str]:
    """uvicorn serving sejmi.asgi on a free port, on the test database and REDIS_URL; yields
    its ws:// base. Stopped (its process group) at the end."""
    port = free_port()
    from django.conf import settings

    # CHANNEL_PREFIX: this process's, so the server's sockets hear what the tests broadcast.
    env = dict(os.environ, DATABASE_URL=database_url(), DEBUG="0", SEJMI_INPROCESS_RUNNER="0",
               ALLOWED_HOSTS="127.0.0.1,localhost", PYTHONPATH=str(ROOT),
               CHANNEL_PREFIX=settings.CHANNEL_PREFIX)  # fmt: skip
    argv = [sys.executable, "-m", "uvicorn", "sejmi.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--ws-per-message-deflate", "false"]  # fmt: skip
    with open(log, "wb") as out:
        server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)  # fmt: skip
    try:
        wait_http(f"http://127.0.0.1:{port}", server, timeout=60,
                  tail=lambda: log.read_text(errors="replace")[-2000:])  # fmt: skip
        yield f"ws://127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=5)
