"""Fixtures for the reliability suite (issue 9): players, staff, sockets and a real uvicorn.

Fixtures only, none autouse: tests/django_fixtures.py already applies to every test here.
Players come from tests/service/conftest.py's `register` (imported, not copied).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from bench.env import wait_http
from tests.service.conftest import celery_deadline_worker, register  # noqa: F401 (a fixture)

WS_TIMEOUT = 10  # seconds a websocket may take to connect (a busy 2-core machine)


@pytest.fixture
def make_player(db):
    """`make_player(name=None)` → an APIClient registered and authenticated by token."""
    return lambda name=None: register(name=name)


@pytest.fixture
def player(make_player) -> APIClient:
    return make_player()


@pytest.fixture
def make_staff(make_player):
    """`make_staff()` → a registered player whose account is staff (is_staff)."""

    def make() -> APIClient:
        client = make_player()
        user = Token.objects.get(user__username=client.username).user
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        return client

    return make


@pytest.fixture
def rigged(settings):
    """Rigged games allowed (API.md: tests and demos only)."""
    settings.SEJMI_ALLOW_RIGGED = True


@pytest.fixture
def no_throttles(monkeypatch):
    """DRF's rates out of the way: a test that plays whole games for several roles sends more
    requests a minute than the anonymous rate allows, which is not what it is about."""
    rates = {scope: "1000000/min" for scope in SimpleRateThrottle.THROTTLE_RATES}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()


@pytest.fixture
def no_celery(settings):
    """Nothing sent to Celery at commit: the test moves bots itself (games.tasks.sweep)."""
    settings.SEJMI_SEND_TASKS = False


@pytest_asyncio.fixture
async def open_socket():
    """`await open_socket(gid, token=None)` → a connected WebsocketCommunicator through the whole
    ASGI stack (origin check, token auth by header, channels_redis). Every socket is closed at
    the end."""
    opened: list[WebsocketCommunicator] = []

    async def open_(gid: int, token: str | None = None) -> WebsocketCommunicator:
        from sejmi.asgi import application

        headers = [(b"origin", b"http://localhost")]
        if token is not None:  # API.md: the same auth as REST (no secret in the URL)
            headers.append((b"authorization", f"Token {token}".encode()))
        sock = WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)
        connected, code = await sock.connect(timeout=WS_TIMEOUT)
        assert connected, f"socket to game {gid} refused: {code}"
        opened.append(sock)
        return sock

    yield open_
    for sock in opened:
        await sock.disconnect()
    await sync_to_async(connections.close_all)()  # the ORM's worker thread lets go of the DB


def _database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture(scope="module")
def uvicorn_server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """A real uvicorn with two worker processes on loopback, on this run's test database
    (tests that use it need django_db(transaction=True), so the server sees their rows).
    Yields its base URL, e.g. http://127.0.0.1:PORT."""
    from django.conf import settings

    from bench.env import free_port, start, stop

    port = free_port()
    log = tmp_path_factory.mktemp("uvicorn") / "uvicorn.log"
    argv = [str(_venv_bin("uvicorn")), "sejmi.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--workers", "2", "--no-access-log"]  # fmt: skip
    with django_db_blocker.unblock():
        url = _database_url()
    # CHANNEL_PREFIX: this process's (derived from the configured database name, not the test
    # one), so the server's sockets hear what this process commits and broadcasts.
    server = start(argv, log, DATABASE_URL=url, REDIS_URL=settings.REDIS_URL or "",
                   CHANNEL_PREFIX=settings.CHANNEL_PREFIX, SEJMI_ALLOW_RIGGED="1",
                   LOG_LEVEL="ERROR")  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, server, timeout=60, tail=lambda: log.read_text()[-2000:])
        yield base
    finally:
        stop(server)


def _venv_bin(name: str):
    import sys
    from pathlib import Path

    return Path(sys.executable).parent / name
