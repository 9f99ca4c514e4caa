"""Overload (issue 9, bench): with the PostgreSQL pool exhausted a request waited the pool's
10 s and answered 500. Now it waits at most the pool's short timeout and answers 503
`unavailable`, in the one error shape, with Retry-After: the client tries again later."""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import asynccontextmanager, contextmanager

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test import Client
from psycopg_pool import PoolTimeout

from games.engine.errors import Code
from games.live import socket_db
from games.live.guard import TRY_AGAIN_LATER
from tests.support.sockets import PLAY, TIMEOUT, communicator, send_command

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def exhausted_pool():
    """Every connection of this process's PostgreSQL pool taken (and the pool at its maximum
    size); yields the pool's options."""
    pool_options = connection.settings_dict["OPTIONS"]["pool"]
    connection.close()  # this thread's connection back to the pool: the request will need one
    pool, taken = connection.pool, []
    try:
        while True:
            try:
                taken.append(pool.getconn(timeout=0.5))
            except PoolTimeout:
                break
        assert len(taken) >= 1
        yield pool_options
    finally:
        for conn in taken:
            pool.putconn(conn)


@asynccontextmanager
async def exhausted_pool_async():
    """`exhausted_pool` around async code: the ORM's thread and every socket thread
    (games.live.socket_db) give their connections back first."""
    threads = socket_db.EXECUTOR._max_workers
    everyone = threading.Barrier(threads)

    def let_go() -> None:  # each thread of the pool at once: none runs two of these
        connections.close_all()
        everyone.wait(10)

    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(socket_db.EXECUTOR, let_go)
                           for _ in range(threads)))  # fmt: skip
    held = exhausted_pool()
    await sync_to_async(held.__enter__)()
    try:
        yield
    finally:
        await sync_to_async(held.__exit__)(None, None, None)


def test_an_exhausted_pool_answers_503_unavailable_at_once_not_500(settings):
    with exhausted_pool() as pool_options:
        assert pool_options["timeout"] <= 3, "a request waits seconds at most for a connection"
        started = time.monotonic()
        answer = Client(raise_request_exception=False).get("/api/games/")
        waited = time.monotonic() - started
    assert answer.status_code == 503, answer.content
    assert answer.json()["error"]["code"] == Code.UNAVAILABLE
    assert int(answer["Retry-After"]) >= 1
    assert waited < pool_options["timeout"] + 2


def test_an_overloaded_api_logs_one_line_per_refusal_not_a_traceback(caplog):
    """bench-load at 200 games: Django logged each 503's traceback, and formatting them took a
    fifth of the web workers' CPU, which kept the pool exhausted (overload fed itself)."""
    with exhausted_pool():
        answer = Client(raise_request_exception=False).get("/api/games/")
    assert answer.status_code == 503, answer.content
    assert [r for r in caplog.records if r.exc_info] == []
    assert any("Service Unavailable" in r.getMessage() for r in caplog.records)


@pytest.mark.asyncio
async def test_a_socket_opened_on_an_exhausted_pool_is_closed_1013_try_again_later(table, caplog):
    """An exhausted pool at a socket's connect crashed the consumer (an HTTP 500 to the
    handshake and a traceback per socket). It is accepted and closed 1013, Try Again Later:
    the client reconnects with back-off and resyncs."""
    async with exhausted_pool_async():
        sock = communicator(table.gid, table.tokens[0])
        assert await sock.connect(timeout=TIMEOUT) == (True, None)
        closed = await sock.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER}
    assert [r for r in caplog.records if r.exc_info] == []


@pytest.mark.asyncio
async def test_a_socket_command_on_an_exhausted_pool_answers_unavailable_and_the_socket_stays(
    table, sockets
):
    sock, view = await sockets(table.gid, table.tokens[0])
    async with exhausted_pool_async():
        answer = await send_command(sock, "c1", {"expected_seq": view["seq"], **PLAY})
    assert answer["type"] == "error" and answer["id"] == "c1"
    assert answer["error"]["code"] == Code.UNAVAILABLE
    again = await send_command(sock, "c1", {"expected_seq": view["seq"], **PLAY})
    assert again["type"] == "ack", again  # the same id, once the pool has a connection
