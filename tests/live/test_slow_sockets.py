"""Slow and stuck sockets are bounded (issue 21): a spectator that never reads while bots play
fast is closed 1013 (Try Again Later) once a frame waits SEJMI_WS_SEND_TIMEOUT_S for it, or
more than SEJMI_WS_BACKLOG batches queue for it in its process; a socket that reads, beside it
on the same server process, misses nothing. Measured before the bound: such a socket was never
closed by the server and held every batch (~80 KB a socket after a short game)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from websockets.sync.client import connect

from games.chat.services import chat_post
from games.table import commands

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def _server(django_db_blocker, tmp_path_factory, timeout: str, sndbuf: int | None,
            pong: str = ""):  # fmt: skip
    """One uvicorn worker with send timeout `timeout`, on this run's test database and channel
    prefix (so it hears what this process commits). It serves a listening socket made here,
    with a small send buffer when `sndbuf` is given, which the sockets it accepts inherit: a
    client that stops reading fills it after some kilobytes, not the megabytes Linux would grow
    it to."""
    from django.conf import settings

    from tests.support.processes import database_url as _database_url
    from tests.support.processes import service_env, stop, wait_http
    from tests.support.processes import venv_bin as _venv_bin

    listener = socket.socket()
    if sndbuf is not None:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    log = tmp_path_factory.mktemp("slow") / "uvicorn.log"
    with django_db_blocker.unblock():
        url = _database_url()
    env = service_env(DATABASE_URL=url, REDIS_URL=settings.REDIS_URL or "",
                      CHANNEL_PREFIX=settings.CHANNEL_PREFIX, SEJMI_WS_SEND_TIMEOUT_S=timeout,
                      SEJMI_WS_PONG_TIMEOUT_S=pong, SEJMI_WS_BACKLOG="64",
                      LOG_LEVEL="WARNING")  # fmt: skip
    argv = [str(_venv_bin("uvicorn")), "sejmi.asgi:application", "--fd",
            str(listener.fileno()), "--no-access-log"]  # fmt: skip
    with open(log, "wb") as out:
        server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, pass_fds=(listener.fileno(),),
                                  start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, server, timeout=60, tail=lambda: log.read_text()[-2000:])
        yield base, log
    finally:
        stop(server)
        listener.close()


@pytest.fixture(scope="module")
def strict_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """A frame untaken for 1 s closes its socket (an unanswered ping: 60 s); small kernel
    buffers."""
    with _server(django_db_blocker, tmp_path_factory, "1", 4096, pong="60") as served:
        yield served


@pytest.fixture(scope="module")
def patient_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """A send may wait 60 s (longer than any test here): only the backlog bound can close a
    socket within a test; small kernel buffers."""
    with _server(django_db_blocker, tmp_path_factory, "60", 4096) as served:
        yield served


@pytest.fixture(scope="module")
def roomy_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """Frames untaken for 2 s close their socket; the kernel's own buffers, which hold a whole
    game's frames for a client that never reads (the server's sends never block)."""
    with _server(django_db_blocker, tmp_path_factory, "2", None) as served:
        yield served


class Stalled:
    """A websocket client that never reads after the handshake: a raw socket with the smallest
    receive buffer, the upgrade done by hand. `close_code()` then reads everything the server
    sent and returns the code of its close frame (None if it sent none)."""

    def __init__(self, url: str, rcvbuf: int | None = 1024) -> None:
        host_port, path = url.removeprefix("ws://").split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.socket()
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())  # fmt: skip
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)  # byte by byte: nothing past the response is taken
        assert head.startswith(b"HTTP/1.1 101"), head

    def ask_resync(self) -> None:
        """Ask for every event again (API.md: {"type": "resync", "after": 0}): a client may
        still send while it reads nothing, and each answer is the whole game so far."""
        payload, mask = json.dumps({"type": "resync", "after": 0}).encode(), os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def close_code(self, timeout: float) -> int | None:
        self.sock.settimeout(timeout)
        data = b""
        try:
            while chunk := self.sock.recv(65536):
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        self.received = len(data)
        return _close_code(data)


def _close_code(data: bytes) -> int | None:
    """The code of the close frame in a server's (unmasked) websocket byte stream."""
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            length, at = int.from_bytes(data[at : at + 2]), at + 2
        elif length == 127:
            length, at = int.from_bytes(data[at : at + 8]), at + 8
        if opcode == 0x8 and length >= 2:
            return int.from_bytes(data[at : at + 2])
        at += length
    return None


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_never_reads_is_closed_1013_and_a_reading_one_misses_nothing(
    strict_server, settings
):
    """The game goes on fast: bots move, and its player writes long chat lines that every
    spectator reads (a game's frames alone fit the kernel's buffers: ~90 KB a game)."""
    base, log = strict_server
    settings.SEJMI_SEND_TASKS = False  # only this test moves the bots
    settings.CHAT_RATE = (100_000, 1)
    alice = get_user_model().objects.create_user("slow-alice")
    done = commands.game_create(user=alice, seats=4, options={"bots": [1, 2, 3]})
    done = commands.game_join(user=alice, game_id=done.game_id, seat=0)
    ws = base.replace("http://", "ws://") + f"/ws/games/{done.game_id}/"
    stalled = Stalled(ws)
    reader = connect(ws, open_timeout=10, max_queue=None)  # reads all the time, in its thread
    json.loads(reader.recv(timeout=10))
    _chat_flood(reader, done, alice, 400, pause=0.002)  # every line, once, in order

    code = stalled.close_code(timeout=15)
    assert code == 1013, (stalled.received, log.read_text()[-2000:])
    assert "socket too slow" in log.read_text()
    reader.close()


def _chat_flood(reader, done, alice, lines: int, pause: float = 0.0) -> None:
    """`lines` long chat lines, `pause` seconds apart, every one of which the reading socket
    hears once, in order."""
    said: list[int] = []
    for n in range(lines):
        said.append(chat_post(user=alice, game_id=done.game_id, channel="table",
                              text=f"{n:04} " + "x" * 480)["id"])  # fmt: skip
        time.sleep(pause)
    heard: list[int] = []
    deadline = time.monotonic() + 30
    while len(heard) < len(said) and time.monotonic() < deadline:
        frame = json.loads(reader.recv(timeout=10))
        if frame["type"] == "chat":
            heard.append(frame["message"]["id"])
    assert heard == said


def _slow_lines(log: Path, game_id: int) -> list[str]:
    return [line for line in log.read_text().splitlines()
            if f"game {game_id} socket too slow" in line]  # fmt: skip


def _bot_game(name: str):
    """A game the bots played to its end at once (every seat a bot): ~160 events."""
    from games.core.models import GameProjection

    user = get_user_model().objects.create_user(name)
    done = commands.game_create(user=user, seats=4, options={"bots": [0, 1, 2, 3]})
    while done.state.status != "ended":
        done = commands.game_bot_moves(game_id=done.game_id, expected_seq=done.seq)
    assert GameProjection.objects.get(game_id=done.game_id).seq > 50
    return done


def _chatty_game(name: str, base: str, settings):
    """`name` at seat 0 of a game against three bots, chat unthrottled, no tasks sent; the
    user, the game and its socket URL."""
    settings.SEJMI_SEND_TASKS = False
    settings.CHAT_RATE = (100_000, 1)
    alice = get_user_model().objects.create_user(name)
    done = commands.game_create(user=alice, seats=4, options={"bots": [1, 2, 3]})
    done = commands.game_join(user=alice, game_id=done.game_id, seat=0)
    return alice, done, base.replace("http://", "ws://") + f"/ws/games/{done.game_id}/"


@pytest.mark.django_db(transaction=True)
def test_the_backlog_bound_alone_closes_a_socket_behind_64_batches(patient_server, settings):
    """Issue 32 item 10: each bound has a test that fails without it. Here a send may wait
    60 s, so only SEJMI_WS_BACKLOG can close the stalled socket within the test: mutant "the
    backlog is never counted" leaves it open (no close frame read) and this test fails."""
    base, log = patient_server
    alice, done, ws = _chatty_game("backlog-alice", base, settings)
    stalled = Stalled(ws)
    reader = connect(ws, open_timeout=10, max_queue=None)
    json.loads(reader.recv(timeout=10))
    _chat_flood(reader, done, alice, 400)
    code = stalled.close_code(timeout=10)
    assert code == 1013, (stalled.received, log.read_text()[-2000:])
    assert len(lines := _slow_lines(log, done.game_id)) == 1, lines
    assert "waiting" in lines[0], lines
    reader.close()


@pytest.mark.django_db(transaction=True)
def test_the_stuck_send_bound_alone_closes_a_socket_whose_one_send_waits(strict_server, settings):
    """Issue 32 item 10, the mutant "the stuck-send check of games/live/pacing.py never fires"
    (`outbox.stuck` never compares `sending_since` with SEJMI_WS_SEND_TIMEOUT_S): every other
    test still passed, because the backlog bound closed their sockets. Here 150 chat lines
    (~80 KB) fill what the buffers take, so one write waits, with fewer than 64 queued behind
    it, and an unanswered ping counts only after 60 s: only the stuck-send check can close the
    socket, 1013 within its 1 s bound (and a look a second)."""
    base, log = strict_server
    alice, done, ws = _chatty_game("stuck-alice", base, settings)
    stalled = Stalled(ws)
    for n in range(150):
        chat_post(user=alice, game_id=done.game_id, channel="table",
                  text=f"{n:04} " + "x" * 480)  # fmt: skip
    time.sleep(4)  # the bound, looks and the close, with room
    code = stalled.close_code(timeout=3)
    assert code == 1013, (stalled.received, log.read_text()[-2000:])
    assert len(lines := _slow_lines(log, done.game_id)) == 1, lines
    assert "untaken" in lines[0], (lines, stalled.received)


@pytest.mark.django_db(transaction=True)
def test_spectators_that_never_read_are_closed_1013_though_the_buffers_hold_their_frames(
    roomy_server,
):
    """Issue 32 item 5: 600 spectators that never read were closed 1011 after ~40 s (uvicorn's
    ping timeout), never 1013, never logged: the kernel's buffers took every frame, so no send
    of the server ever waited. A socket now has to take its frames (a ping after them is
    answered) within SEJMI_WS_SEND_TIMEOUT_S (2 s here), or is closed 1013 and logged once."""
    base, log = roomy_server
    settings_timeout = 2
    done = _bot_game("roomy-owner")
    ws = base.replace("http://", "ws://") + f"/ws/games/{done.game_id}/"
    stalled = [Stalled(ws, rcvbuf=None) for _ in range(3)]
    for sock in stalled:
        sock.ask_resync()  # the whole game: frames the buffers hold, never read
    time.sleep(settings_timeout + 4)  # a look to ping, the bound, a look to close, the close
    codes = [sock.close_code(timeout=1) for sock in stalled]
    assert codes == [1013] * 3, (codes, log.read_text()[-2000:])
    assert len(_slow_lines(log, done.game_id)) == 3, log.read_text()[-2000:]
