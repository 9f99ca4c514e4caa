"""Issue 32, item 4 (hole 5): with the Redis black-holed — a port that takes the connection and
never answers (a network partition, not a crash) — SIGTERM stops a web worker within 10 s.

Before: the server ran as docker-compose.yml runs it, with a game socket open, waited on the
socket's Redis calls (no socket timeout: the channel layer's connection waits for an answer for
ever) for 91 s to more than 10 minutes after SIGTERM, until killed."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from bench.harness.env import uvicorn_argv
from tests.support.processes import database_url, free_port, start, wait_http

SHUTDOWN_BOUND_S = 10.0


class BlackHole:
    """A TCP listener on loopback that accepts every connection and never answers."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        self.accepted = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(conn)  # never read, never answered, never closed
            self.accepted.set()

    def close(self) -> None:
        self.listener.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def black_hole() -> Iterator[BlackHole]:
    hole = BlackHole()
    yield hole
    hole.close()


def _open_game_socket(port: int, path: str) -> socket.socket:
    """A websocket handshake sent by hand (its answer does not matter: the socket stays open)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    return sock


@pytest.mark.django_db(transaction=True)
def test_with_redis_black_holed_sigterm_stops_the_web_server_within_10_s(
    black_hole, tmp_path: Path
):
    user = get_user_model().objects.create_user(username="eva", password="s3cret-pass-1")
    token = Token.objects.create(user=user).key
    hole = f"redis://127.0.0.1:{black_hole.port}/0"
    port = free_port()
    log = tmp_path / "uvicorn.log"
    # docker-compose.yml's own uvicorn command (one worker is enough to hold a socket).
    server = start(uvicorn_argv(port, workers=1), log, DATABASE_URL=database_url(),
                   REDIS_URL=hole, CHANNEL_REDIS_URLS=hole, CACHE_URL="",
                   CELERY_BROKER_URL="memory://", SEJMI_FOLLOW="inline",
                   LOG_LEVEL="WARNING")  # fmt: skip
    sockets = []
    try:
        wait_http(f"http://127.0.0.1:{port}", server, timeout=60,
                  tail=lambda: log.read_text()[-2000:])  # fmt: skip
        sockets = [_open_game_socket(port, f"/ws/games/1/?token={token}"),
                   _open_game_socket(port, f"/ws/me/?token={token}")]  # fmt: skip
        assert black_hole.accepted.wait(10), "the sockets never reached the Redis"
        time.sleep(1.5)  # the handshakes are waiting on the black hole now
        os.killpg(server.pid, signal.SIGTERM)
        began = time.monotonic()
        try:
            server.wait(timeout=SHUTDOWN_BOUND_S + 5)
        except Exception:
            pass
        took = time.monotonic() - began
        print(f"stopped {took:.1f} s after SIGTERM")
        assert server.poll() is not None and took <= SHUTDOWN_BOUND_S, (
            f"still running {took:.1f} s after SIGTERM: {log.read_text()[-3000:]}"
        )
    finally:
        for sock in sockets:
            sock.close()
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
