"""`make bench-run`: what `make run`'s one process costs (issue 19): its CPU while idle, and its
CPU per acknowledged command while one player plays 2-seat games against the built-in bot over
HTTP, the idle rate subtracted. The process is started as `make run` starts it (uvicorn,
SEJMI_INPROCESS_RUNNER=1, SQLite in a temporary directory, no Redis); CPU is read from
/proc/<pid>/stat, so time spent waiting for a core is not counted.
Run: python -m bench.make_run [--games N] [--idle S] [--json] [--code CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

from bench.harness.env import ROOT, cpu_s, free_port, wait_http


def start(port: int, workdir: str, code: Path = ROOT) -> subprocess.Popen:
    """`make run`'s process, of the checkout at `code` (another one's: an A/B sitting)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{workdir}/db.sqlite3", SEJMI_INPROCESS_RUNNER="1",
               DEBUG="0", ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="ERROR")  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=code,
                   env=env, check=True)  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "sejmi.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--ws-per-message-deflate", "false"],
        cwd=code, env=env,
    )  # fmt: skip


def player(base: str) -> httpx.Client:
    """A registered player's client (registering hashes a password: about a second of CPU on
    a slow machine, so it is done before the CPU of the commands is read)."""
    client = httpx.Client(base_url=base, timeout=30)
    name = f"p{uuid.uuid4().hex[:8]}"
    body = {"username": name, "password": "pw-" + name * 2}
    token = client.post("/api/auth/register/", json=body)
    client.headers["Authorization"] = f"Token {token.json()['token']}"
    return client


def play_games(client: httpx.Client, games: int) -> tuple[int, int]:
    """`games` 2-seat games, seat 1 the bot; the human plays its first legal command each
    time it is asked. Returns how many of the human's commands were acknowledged, and how
    many events the games made (the human's, the bot's and the service's: a game's length
    varies with its deal, and so does the work per command)."""
    acked = events = 0
    for _ in range(games):
        gid = client.post("/api/games/", json={"seats": 2, "options": {"bots": [1]}}).json()["id"]
        client.post(f"/api/games/{gid}/join/", json={})
        while True:
            view = client.get(f"/api/games/{gid}/").json()
            if view["status"] == "ended":
                events += view["seq"]
                break
            if not view.get("legal"):
                time.sleep(0.01)  # the bot's move, by the in-process runner
                continue
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            answer = client.post(f"/api/games/{gid}/commands/", json=body,
                                 headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
            acked += answer.status_code == 200
    return acked, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle measured")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="the checkout whose server is measured (default: this one)",
    )
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as workdir:
        server = start(port, workdir, args.code)
        try:
            wait_http(base, server)
            client = player(base)
            time.sleep(3)  # start-up settles
            c0, t0 = cpu_s(server.pid), time.monotonic()
            time.sleep(args.idle)
            idle_rate = (cpu_s(server.pid) - c0) / (time.monotonic() - t0)
            c1, t1 = cpu_s(server.pid), time.monotonic()
            acked, events = play_games(client, args.games)
            busy_s = time.monotonic() - t1
            used = cpu_s(server.pid) - c1 - idle_rate * busy_s
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=20)
    result = {
        "idle_cpu_percent": round(100 * idle_rate, 2), "games": args.games,
        "commands_acknowledged": acked, "play_seconds": round(busy_s, 1),
        "cpu_ms_per_command": round(1000 * used / max(acked, 1), 2),
        "events": events, "cpu_ms_per_event": round(1000 * used / max(events, 1), 3),
    }  # fmt: skip
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
