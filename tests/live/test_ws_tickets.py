"""Secrets out of logs (issue 9, hole 8).

A websocket's URL is written to the access log, so a socket is best opened with a single-use,
short-lived ticket (`POST /api/ws-ticket/`, then `/ws/games/{id}/?ticket=`) rather than the
long-lived token (`?token=` still works, API.md). A ticket opens one socket as its user; used,
expired or unknown, it connects as a spectator, like a bad token. And whatever a client puts in
the URL, the logs show `token=[redacted]` / `ticket=[redacted]` (sejmi.log_redaction).
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from rest_framework.test import APIClient

from games.live import tickets
from sejmi.asgi import application
from sejmi.log_redaction import RedactSecrets, redact
from tests.support.players import register as player

TIMEOUT = 5
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # tickets and throttle counters
    yield


@pytest.fixture
def table(db) -> tuple[int, APIClient]:
    """A two-seat lobby game; its creator sits in seat 0."""
    seated = player()
    gid = seated.post("/api/games/", {"seats": 2}, format="json").json()["id"]
    assert seated.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json").status_code == 200
    return gid, seated


def ticket_for(client: APIClient) -> str:
    answer = client.post("/api/ws-ticket/", {}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["expires_in"] == tickets.TICKET_TTL_S == 30
    assert tickets.TICKET.fullmatch(body["ticket"])
    return body["ticket"]


async def seat_seen(gid: int, query: str):
    """Open /ws/games/{gid}/?{query}; the `you` of the first view (None: a spectator)."""
    sock = WebsocketCommunicator(application, f"/ws/games/{gid}/?{query}",
                                 headers=[(b"origin", b"http://localhost")])  # fmt: skip
    try:
        connected, code = await sock.connect(timeout=TIMEOUT)
        assert connected, code
        first = await sock.receive_json_from(timeout=TIMEOUT)
        assert first["type"] == "view"
        return first["view"]["you"]
    finally:
        await sock.disconnect()


# Getting a ticket


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [None, "Token " + "0" * 40, "Token nonsense"])
def test_an_anonymous_caller_or_a_bad_token_gets_no_ticket(auth):
    client = APIClient()
    if auth:
        client.credentials(HTTP_AUTHORIZATION=auth)
    answer = client.post("/api/ws-ticket/", {}, format="json")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "not_authenticated"


@pytest.mark.django_db
def test_a_ticket_is_new_each_time_and_its_secret_is_not_what_the_cache_keeps(table):
    _, seated = table
    first, second = ticket_for(seated), ticket_for(seated)
    assert first != second
    assert not any(first in key for key in cache._cache)  # LocMemCache: only the SHA-256


@pytest.mark.django_db
def test_the_ticket_route_takes_no_fields_and_is_in_the_schema(table):
    _, seated = table
    answer = seated.post("/api/ws-ticket/", {"user": "someone-else"}, format="json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert "post" in schema["paths"]["/api/ws-ticket/"]


# Using it


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ticket_opens_one_socket_as_its_player_then_is_refused(table):
    gid, seated = table
    ticket = await sync_to_async(ticket_for)(seated)
    assert await seat_seen(gid, f"ticket={ticket}") == 0
    assert await seat_seen(gid, f"ticket={ticket}") is None  # used: a spectator, like a bad token


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_expired_ticket_connects_as_a_spectator(table, monkeypatch):
    gid, seated = table
    monkeypatch.setattr(tickets, "TICKET_TTL_S", 1)
    answer = await sync_to_async(seated.post)("/api/ws-ticket/", {}, format="json")
    assert answer.json()["expires_in"] == 1
    time.sleep(1.2)
    assert await seat_seen(gid, f"ticket={answer.json()['ticket']}") is None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ticket", ["x" * 43, "short", "%00", "a" * 200])
async def test_an_unknown_or_garbage_ticket_connects_as_a_spectator(table, ticket):
    gid, _ = table
    assert await seat_seen(gid, f"ticket={ticket}") is None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_token_in_the_query_still_works(table):
    """API.md promises `?token=`; the ticket is only the recommended way."""
    gid, seated = table
    token = seated._credentials["HTTP_AUTHORIZATION"].removeprefix("Token ")
    assert await seat_seen(gid, f"token={token}") == 0


@pytest.mark.django_db
def test_a_ticket_redeemed_twice_gives_its_user_once(table):
    _, seated = table
    ticket = ticket_for(seated)
    users = [tickets.ticket_redeem(ticket) for _ in range(2)]
    assert users[0] is not None and users[0].username == seated.username and users[1] is None


# Keeping secrets out of the logs


@pytest.mark.parametrize(
    "line, shown",
    [
        ("/ws/games/7/?token=0123abcd", "/ws/games/7/?token=[redacted]"),
        ("/ws/?after=3&ticket=Zx-_9&lang=cs", "/ws/?after=3&ticket=[redacted]&lang=cs"),
        ("/api/games/?TOKEN=abc", "/api/games/?TOKEN=[redacted]"),
        ('"GET /x/?token=abc HTTP/1.1" 200', '"GET /x/?token=[redacted] HTTP/1.1" 200'),
        ("/api/games/?tokens=3&page=2", "/api/games/?tokens=3&page=2"),
    ],
)  # fmt: skip
def test_redact_blanks_token_and_ticket_values_only(line, shown):
    assert redact(line) == shown


def test_the_filter_redacts_an_access_record_and_keeps_its_shape():
    """uvicorn's AccessFormatter unpacks (client, method, path, version, status)."""
    args = ("127.0.0.1:5000", "GET", "/ws/games/1/?token=s3cret", "1.1", 101)
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d', args, None)  # fmt: skip
    assert RedactSecrets().filter(record)
    assert record.args == ("127.0.0.1:5000", "GET", "/ws/games/1/?token=[redacted]", "1.1", 101)


def test_settings_put_the_filter_on_every_handler_and_uvicorn_logs_through_them():
    """The configuration itself (the running process's logging may have been changed since by
    other tests: a Celery worker takes the root logger); the real servers are below."""
    config = settings.LOGGING
    assert config["filters"]["redact_secrets"]["()"] == "sejmi.log_redaction.RedactSecrets"
    assert all("redact_secrets" in h["filters"] for h in config["handlers"].values())
    assert config["loggers"]["uvicorn"] == {"handlers": ["uvicorn"], "propagate": False}
    assert config["loggers"]["uvicorn.access"]["handlers"] in (["uvicorn_access"], [])
    assert config["root"]["handlers"] == ["console"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVERS = {  # the command lines of docker-compose's web and of `make run`
    "docker-compose": ["--ws-per-message-deflate", "false"],
    "make run": ["--no-access-log", "--ws-per-message-deflate", "false"],
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
@pytest.mark.parametrize("server", list(SERVERS))
def test_a_real_uvicorn_logs_no_token_or_ticket(table, server):
    """An HTTP request and two sockets, each with a secret in its URL: the secrets never reach
    the server's output; the access lines appear only where the command line asks for them."""
    gid, _ = table
    port, secret = free_port(), "5ec2e7" * 7
    db = connection.settings_dict  # the test database, where `table` is committed
    env = {
        **os.environ,
        "SEJMI_INPROCESS_RUNNER": "0",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "sejmi.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), *SERVERS[server]],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        base = f"127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(f"http://{base}/api/games/?token={secret}", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        _open_socket(f"ws://{base}/ws/games/{gid}/?ticket={secret[:43]}")
        _open_socket(f"ws://{base}/ws/games/{gid}/?token={secret[:40]}")
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0]
    assert f"/ws/games/{gid}/?ticket=[redacted]" in output, output
    assert f"/ws/games/{gid}/?token=[redacted]" in output, output
    access_line = "GET /api/games/?token=[redacted]" in output
    assert access_line == (server == "docker-compose"), output
    assert secret[:20] not in output, output


def _open_socket(url: str) -> None:
    import asyncio

    async def visit():
        async with websockets.connect(url, open_timeout=TIMEOUT) as sock:
            await asyncio.wait_for(sock.recv(), TIMEOUT)

    asyncio.run(visit())
