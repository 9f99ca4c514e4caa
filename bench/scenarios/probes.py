"""`make bench-probes` (`python -m bench.scenarios.probes`): issue 32's probes run again, in the
shape that found the holes: docker-compose.yml's uvicorn command (2 workers), a Celery worker and
the deadline runner (bench.harness.env.server), every process acting as the service's database
role (`sejmi_app`, SEJMI_DB_ROLE, granted by `grant_service_role` after the owner migrated), the
bench database and Redis. One line per probe: probe | expected | seen | ok.

The owner here is the bench database's (`postgres`, a superuser: it can do what compose's
`sejmi` owner can, and more). Probes that need a server of another shape (the channel layer's
Redis down, black-holed) start a web node of their own beside the stack. The stuck sockets'
probe (issue 32, item 5) opens spectators that never read a byte, on the stack itself.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench.harness import env

PASSWORD = "s3cret-pass-1"
SERVICE_ROLE = "sejmi_app"
Result = tuple[str, str, str, bool]


def _register(base: str, name: str) -> str:
    answer = httpx.post(f"{base}/api/auth/register/", json={"username": name,
                        "password": PASSWORD}, timeout=10)  # fmt: skip
    answer.raise_for_status()
    return answer.json()["token"]


def _staff(base: str) -> str:
    """A staff account's token (made in the database, as an operator would)."""
    from django.contrib.auth import get_user_model

    from games.accounts.services import user_create

    if not get_user_model().objects.filter(username="probe_staff").exists():
        user_create(username="probe_staff", password=PASSWORD, is_staff=True)
    answer = httpx.post(f"{base}/api/auth/token/", json={"username": "probe_staff",
                        "password": PASSWORD}, timeout=10)  # fmt: skip
    answer.raise_for_status()
    return answer.json()["token"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def _ws_close_code(url: str, timeout: float = 10) -> str:
    """What a websocket handshake at `url` ends in: "open", "close <code>" or "http <status>"."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    try:
        with connect(url, open_timeout=timeout, close_timeout=2) as ws:
            try:
                ws.recv(timeout=3)
                ws.recv(timeout=1)  # a first view, then maybe the close
            except TimeoutError:
                return "open"
            except ConnectionClosed as closed:
                return f"close {closed.rcvd.code if closed.rcvd else '?'}"
            return "open"
    except InvalidStatus as err:
        return f"http {err.response.status_code}"
    except ConnectionClosed as closed:
        return f"close {closed.rcvd.code if closed.rcvd else '?'}"


# --- the probes on the stack --------------------------------------------------------------------


def reserved_names(base: str) -> Result:
    seen = {}
    for name in ("ｂｏｔ", "ｉｍｐｏｒｔｅｒ"):  # fullwidth: "bot", "importer" after NFKC
        body = {"username": name, "password": PASSWORD}
        seen[name] = httpx.post(f"{base}/api/auth/register/", json=body, timeout=10).status_code
    return ("fullwidth reserved names", "409 409", " ".join(map(str, seen.values())),
            set(seen.values()) == {409})  # fmt: skip


def _seated_game(base: str, token: str) -> int:
    """A two-seat game against the built-in bot, the caller at seat 0."""
    made = httpx.post(f"{base}/api/games/", json={"seats": 2, "options": {"bots": [1]}},
                      headers=_auth(token), timeout=10)  # fmt: skip
    made.raise_for_status()
    gid = made.json()["id"]
    httpx.post(f"{base}/api/games/{gid}/join/", json={"seat": 0}, headers=_auth(token),
               timeout=10).raise_for_status()  # fmt: skip
    return gid


def forged_row(base: str, token: str) -> Result:
    """A move INSERTed as the service role after the head: the next command must not build on
    it (409 game_tampered), and the audit names its seq."""
    import psycopg
    from django.utils import timezone

    from games.core.event_store import event_hash

    gid = _seated_game(base, token)
    for _ in range(100):  # the bot moves first, or not: wait for the player's turn
        view = httpx.get(f"{base}/api/games/{gid}/", headers=_auth(token), timeout=10).json()
        if view["legal"]:
            break
        time.sleep(0.2)
    with psycopg.connect(env.DATABASE_URL, autocommit=True) as conn:
        conn.execute(f"SET ROLE {SERVICE_ROLE}")
        seq, head = conn.execute("SELECT seq, hash FROM games_gameevent WHERE game_id = %s"
                                 " ORDER BY seq DESC LIMIT 1", [gid]).fetchone()  # fmt: skip
        at, data = timezone.now(), {"seat": 1, "delta": 3, "lives": 9}
        conn.execute("INSERT INTO games_gameevent (game_id, seq, type, v, data, at, prev_hash,"
                     " hash) VALUES (%s, %s, 'lives_changed', 1, %s, %s, %s, %s)",
                     [gid, seq + 1, json.dumps(data), at, head,
                      event_hash(head, seq + 1, "lives_changed", 1, data, at)])  # fmt: skip
    view = httpx.get(f"{base}/api/games/{gid}/", headers=_auth(token), timeout=10).json()
    move = view["legal"][0] if view["legal"] else {"type": "pass"}
    answer = httpx.post(f"{base}/api/games/{gid}/commands/", json={"expected_seq": view["seq"],
                        **move}, headers=_auth(token), timeout=10)  # fmt: skip
    code = answer.json().get("error", {}).get("code") if answer.status_code >= 400 else "ok"
    audit = httpx.get(
        f"{base}/api/games/{gid}/audit/", headers=_auth(_staff(base)), timeout=30
    ).json()  # a running game's audit: staff's
    seen = f"{answer.status_code} {code}; audit first_bad_seq {audit.get('first_bad_seq')}"
    ok = (
        answer.status_code == 409
        and code == "game_tampered"
        and audit.get("first_bad_seq") == seq + 1
    )
    return ("forged row as the service role", f"409 game_tampered; first_bad_seq {seq + 1}",
            seen, ok)  # fmt: skip


def owners_rollback(base: str, token: str) -> Result:
    """The owner deletes a finished game's tail after a batch head and its end's signature,
    rebuilds the projection: the witness must flag it."""
    import psycopg

    made = httpx.post(f"{base}/api/games/", json={"seats": 2, "options": {"bots": [0, 1]}},
                      headers=_auth(token), timeout=60)  # fmt: skip
    made.raise_for_status()
    gid = made.json()["id"]
    deadline = time.monotonic() + 60
    while httpx.get(f"{base}/api/games/{gid}/", timeout=10).json()["status"] != "ended":
        if time.monotonic() > deadline:
            return ("owner's rollback of a finished game", "witness_ok false", "never ended",
                    False)  # fmt: skip
        time.sleep(0.3)
    with psycopg.connect(env.DATABASE_URL, autocommit=True) as conn:
        heads = [r[0] for r in conn.execute(
            "SELECT seq FROM games_gameevent WHERE game_id = %s AND head_signature IS NOT NULL"
            " ORDER BY seq", [gid])]  # fmt: skip
        boundary = heads[-2]
        with conn.transaction():
            conn.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only")
            conn.execute("ALTER TABLE games_headsignature DISABLE TRIGGER "
                         "games_head_signature_append_only")  # fmt: skip
            conn.execute("DELETE FROM games_gameevent WHERE game_id = %s AND seq > %s",
                         [gid, boundary])  # fmt: skip
            conn.execute("DELETE FROM games_headsignature WHERE game_id = %s AND seq > %s",
                         [gid, boundary])  # fmt: skip
            conn.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_event_append_only")
            conn.execute("ALTER TABLE games_headsignature ENABLE TRIGGER "
                         "games_head_signature_append_only")  # fmt: skip
    from games.table.projections import rebuild_game

    rebuild_game(gid)  # the game runs again (the bots play on): its audit is staff's
    audit = httpx.get(f"{base}/api/games/{gid}/audit/", headers=_auth(_staff(base)),
                      timeout=30).json()  # fmt: skip
    seen = (f"signature_ok {audit.get('signature_ok')}, witness_ok {audit.get('witness_ok')},"
            f" witness_first_bad_seq {audit.get('witness_first_bad_seq')}")  # fmt: skip
    return (f"owner's rollback of a finished game (after seq {boundary})",
            "witness_ok false", seen, audit.get("witness_ok") is False)  # fmt: skip


def the_two_500s(base: str, token: str) -> list[Result]:
    chat = httpx.post(f"{base}/api/games/2147483648/chat/", json={"channel": "table",
                      "text": "hi"}, headers=_auth(token), timeout=10).status_code  # fmt: skip
    static = httpx.get(f"{base}/static/%2e%2e/x", timeout=10).status_code
    return [("POST /api/games/2147483648/chat/", "404", str(chat), chat == 404),
            ("GET /static/%2e%2e/x", "4xx", str(static), 400 <= static < 500)]  # fmt: skip


def dispute_cap(base: str, token: str) -> Result:
    gid = _seated_game(base, token)
    statuses = []
    for seq in range(1, 8):
        answer = httpx.post(f"{base}/api/games/{gid}/disputes/", json={"reason": f"probe {seq}",
                            "seq": seq}, headers=_auth(token), timeout=10)  # fmt: skip
        statuses.append(answer.status_code)
        if answer.status_code == 429:
            retry = answer.headers.get("Retry-After")
            return ("open disputes per player and game", "201 ×5, then 429 + Retry-After",
                    f"{' '.join(map(str, statuses))} Retry-After {retry}",
                    statuses[:5] == [201] * 5 and bool(retry))  # fmt: skip
    return ("open disputes per player and game", "201 ×5, then 429", " ".join(map(str, statuses)),
            False)  # fmt: skip


def socket_cap(base: str, token: str) -> Result:
    """2 web workers × SEJMI_SOCKETS_PER_USER (20): the 41st socket of one user is refused."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = base.replace("http", "ws") + f"/ws/me/?token={token}"
    opened, codes = [], []
    try:
        for _ in range(41):
            ws = connect(url, open_timeout=10)
            opened.append(ws)
        time.sleep(0.5)
        for ws in opened:
            try:
                ws.recv(timeout=0.05)
            except TimeoutError:
                pass
            except ConnectionClosed as closed:
                codes.append(closed.rcvd.code if closed.rcvd else 0)
    finally:
        for ws in opened:
            ws.close()
    refused = codes.count(4429)
    return ("sockets per user (41 on one token, 2 workers)", ">= 1 closed 4429",
            f"{refused} closed 4429, {41 - len(codes)} open", refused >= 1)  # fmt: skip


def bot_games_cap(base: str, token: str) -> Result:
    statuses = []
    for _ in range(12):
        answer = httpx.post(f"{base}/api/games/", json={"seats": 2, "options": {"bots": [0, 1]}},
                            headers=_auth(token), timeout=60)  # fmt: skip
        statuses.append(answer.status_code)
        if answer.status_code == 429:
            break
    return ("bots-only games per user per hour (10)", "201 ×10, then 429",
            f"{statuses.count(201)} × 201, then {statuses[-1]}",
            statuses[-1] == 429 and statuses.count(201) == 10)  # fmt: skip


def _play_on(base: str, token: str, gid: int, seconds: float) -> int:
    """The caller's first legal move whenever he may act, for `seconds`; the batches it made."""
    moves, began = 0, time.monotonic()
    while time.monotonic() - began < seconds:
        view = httpx.get(f"{base}/api/games/{gid}/", headers=_auth(token), timeout=10).json()
        if view["status"] == "ended":
            break
        if not view["legal"]:
            time.sleep(0.05)
            continue
        answer = httpx.post(f"{base}/api/games/{gid}/commands/",
                            json={"expected_seq": view["seq"], **view["legal"][0]},
                            headers={**_auth(token), "Idempotency-Key": f"p{gid}-{moves}"},
                            timeout=10)  # fmt: skip
        moves += answer.status_code == 200
    return moves


def stuck_sockets(base: str, token: str, web_pgid: int, web_log: Path,
                  count: int = 300) -> Result:  # fmt: skip
    """Spectators that never read a byte (a small receive buffer, the handshake's answer
    unread) while the game goes on: each is closed 1013 within the bound with one warning
    line (games.live.outbox: the backlog, a stuck write, or the ping after frames unanswered);
    the web's memory per stuck socket is read from /proc while they are held."""
    made = httpx.post(
        f"{base}/api/games/",
        json={"seats": 6, "options": {"bots": [1, 2, 3, 4, 5], "spectator_delay": 0}},
        headers=_auth(token),
        timeout=10,
    )
    gid = made.json()["id"]
    httpx.post(f"{base}/api/games/{gid}/join/", json={"seat": 0}, headers=_auth(token),
               timeout=10).raise_for_status()  # fmt: skip
    port = int(base.rsplit(":", 1)[1])
    lines_before = web_log.read_text().count("socket too slow")
    rss_before = env.group_rss_kb(web_pgid)
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall((f"GET /ws/games/{gid}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())  # fmt: skip
        held.append(sock)
    try:
        began = time.monotonic()
        _play_on(base, token, gid, 6)
        rss_held = env.group_rss_kb(web_pgid)
        closed = 0
        while time.monotonic() - began < 60:
            closed = web_log.read_text().count("socket too slow") - lines_before
            if closed >= count:
                break
            _play_on(base, token, gid, 1)
        took = time.monotonic() - began
        rss_after = env.group_rss_kb(web_pgid)
        ended = sum(_ends_with_close(sock, 1013) for sock in held)
    finally:
        for sock in held:
            sock.close()
    codes = {
        line.rsplit("closed", 1)[-1].strip()
        for line in web_log.read_text().splitlines()
        if "socket too slow" in line
    }
    per = (rss_held - rss_before) / count
    return (f"stuck sockets ({count} spectators that never read)",
            f"{count} closed 1013 within 30 s, a line each",
            f"{ended} sent close 1013, {closed} lines ({', '.join(sorted(codes))}) in"
            f" {took:.1f} s; web RSS +{per:.0f} KiB per socket held,"
            f" {rss_after - rss_before:+d} KiB after",
            ended == closed == count and codes == {"1013"} and took <= 30)  # fmt: skip


def _ends_with_close(sock: socket.socket, code: int) -> bool:
    """Whether what the server wrote to `sock` (all of it, read now) ends with its close frame
    of `code` and then the end of the stream."""
    sock.settimeout(2)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        return False  # no end of stream: still open
    return data.endswith(b"\x88\x02" + code.to_bytes(2, "big"))


def csp_and_debug(base: str) -> list[Result]:
    page = httpx.get(f"{base}/", timeout=10)
    csp = page.headers.get("Content-Security-Policy", "")
    missing = httpx.get(f"{base}/no-such-page/", timeout=10)
    debug = "Traceback" in missing.text or "DEBUG = True" in missing.text
    return [("CSP header on pages", "script-src 'self'", csp[:60] or "none",
             "script-src 'self'" in csp),
            ("DEBUG off (a 404 page)", "404, no debug page",
             f"{missing.status_code}, debug page {debug}",
             missing.status_code == 404 and not debug)]  # fmt: skip


# --- probes with a web node of their own --------------------------------------------------------


class BlackHole:
    """Accepts every connection, never answers."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.held.append(self.listener.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.listener.close()
        for conn in self.held:
            conn.close()


def _node(logs: Path, name: str, redis_url: str) -> tuple[object, str]:
    port = env.free_port()
    proc = env.start(env.uvicorn_argv(port, 1), logs / f"probe-{name}.log",
                     REDIS_URL=redis_url, CHANNEL_REDIS_URLS=redis_url, CACHE_URL="",
                     CELERY_BROKER_URL="memory://", SEJMI_FOLLOW="inline",
                     SEJMI_DB_ROLE=SERVICE_ROLE)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    env.wait_http(base, proc, timeout=60)
    return proc, base


def redis_down_handshake(logs: Path, token: str) -> Result:
    dead = env.free_port()  # nothing listens: connecting is refused
    proc, base = _node(logs, "redis-down", f"redis://127.0.0.1:{dead}/0")
    try:
        ws = base.replace("http", "ws")
        seen = [_ws_close_code(f"{ws}/ws/games/1/?token={token}"),
                _ws_close_code(f"{ws}/ws/me/?token={token}")]  # fmt: skip
    finally:
        env.stop(proc)
    return ("Redis down at handshake (game, me)", "close 1013, close 1013", ", ".join(seen),
            seen == ["close 1013", "close 1013"])  # fmt: skip


def black_holed_sigterm(logs: Path, token: str) -> Result:
    hole = BlackHole()
    proc, base = _node(logs, "black-hole", f"redis://127.0.0.1:{hole.port}/0")
    port = int(base.rsplit(":", 1)[1])
    held = []
    try:
        for path in (f"/ws/games/1/?token={token}", f"/ws/me/?token={token}"):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n").encode())  # fmt: skip
            held.append(sock)
        time.sleep(2)
        os.killpg(proc.pid, signal.SIGTERM)
        began = time.monotonic()
        while proc.poll() is None and time.monotonic() - began < 30:
            time.sleep(0.1)
        took = time.monotonic() - began
    finally:
        for sock in held:
            sock.close()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        hole.close()
    return ("black-holed Redis: SIGTERM to exit", "<= 10 s", f"{took:.1f} s", took <= 10)


# --- the run ------------------------------------------------------------------------------------


def _grant() -> None:
    import subprocess

    subprocess.run([sys.executable, "manage.py", "grant_service_role", "--role", SERVICE_ROLE],
                   cwd=env.ROOT, env=env.service_env(), check=True, timeout=120,
                   stdout=subprocess.DEVNULL)  # fmt: skip


def run(logs: Path) -> list[Result]:
    env.prepare()  # fresh bench database (migrated by its owner) and Redis db
    _grant()
    witness = Path(tempfile.mkdtemp(prefix="sejmi-probes-witness-"))
    os.environ.update(SEJMI_DB_ROLE=SERVICE_ROLE, SEJMI_WITNESS_DIR=str(witness))
    results: list[Result] = []

    def guarded(name: str, probe: Callable[[], Result | list[Result]]) -> None:
        try:
            found = probe()
        except Exception as err:  # a probe that breaks is a finding too
            found = (name, "-", f"probe failed: {err!r}"[:120], False)
        results.extend(found if isinstance(found, list) else [found])
        for line in found if isinstance(found, list) else [found]:
            print(" | ".join(map(str, line)), flush=True)

    # The web's warnings at production's level (compose sets no LOG_LEVEL: WARNING), for the
    # stuck sockets' lines; the harness otherwise keeps its servers to errors.
    with env.server(logs=logs, web_env={"LOG_LEVEL": "WARNING"}) as stack:
        base = stack.base
        tokens = [_register(base, f"probe{i}") for i in range(5)]
        guarded("fullwidth reserved names", lambda: reserved_names(base))
        guarded("forged row", lambda: forged_row(base, tokens[0]))
        guarded("owner's rollback", lambda: owners_rollback(base, tokens[1]))
        guarded("the two 500s", lambda: the_two_500s(base, tokens[0]))
        guarded("dispute cap", lambda: dispute_cap(base, tokens[2]))
        guarded("socket cap", lambda: socket_cap(base, tokens[3]))
        guarded("bots-only cap", lambda: bot_games_cap(base, tokens[4]))
        guarded("CSP and DEBUG", lambda: csp_and_debug(base))
        web_log = logs / f"sejmi-bench-web-{base.rsplit(':', 1)[1]}.log"
        guarded("stuck sockets", lambda: stuck_sockets(base, tokens[0], stack.web, web_log))
    guarded("Redis down at handshake", lambda: redis_down_handshake(logs, tokens[0]))
    guarded("black-holed SIGTERM", lambda: black_holed_sigterm(logs, tokens[0]))
    env.flush_redis()
    return results


def main() -> None:
    logs = Path(tempfile.mkdtemp(prefix="sejmi-probes-"))
    print("probe | expected | seen | ok", flush=True)
    results = run(logs)
    failed = [r[0] for r in results if not r[3]]
    print(f"{len(results) - len(failed)} of {len(results)} ok; logs in {logs}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
