"""`make bench-service`: the service benchmarks of issue 3, one after another.

    python -m bench.run [--only floor,appends,http,fanout] [--write-doc] [--json FILE]

Prepares a fresh `sejmi_bench` database and a private Redis database (bench.harness.env), runs each
benchmark (each bounded to about two minutes), prints a summary and, with --write-doc, puts the
figures into the Service section of docs/PERFORMANCE.md.

The servers are the product as shipped: docker-compose.yml's uvicorn command on loopback with
2 workers (bench.harness.env.uvicorn_argv) plus one Celery worker and the deadline runner
(`manage.py run_deadlines`, with compose's SEJMI_DEADLINE_RUNNER=1), on sejmi.settings (DEBUG
off and throttles raised through the environment). The fan-out runs once more with uvicorn's
per-message deflate on, the one server option left to compare.

First, before any server runs, the floor (issue 19, bench.scenarios.floor): the bare commit, and the
statements of real moves' command path sent by a bare psycopg script; the report gives every
latency and CPU figure also as a ratio to that floor and to the bare commit.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from datetime import UTC, datetime

from bench.harness import env

PARTS = ("floor", "appends", "http", "socket", "fanout")


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(PARTS), help="any of " + ",".join(PARTS))
    parser.add_argument("--write-doc", action="store_true", help="update docs/PERFORMANCE.md")
    parser.add_argument("--json", help="also write the raw figures to this file")
    parser.add_argument("--http-seconds", type=float, default=25)
    parser.add_argument("--socket-seconds", type=float, default=25)
    parser.add_argument("--many-games", type=int, default=200, help="the last socket phase")
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--fanout-shipped", action="store_true",
                        help="the fan-out as shipped only (an A/B sitting)")  # fmt: skip
    parser.add_argument("--floor-moves", type=int, default=600, help="moves the floor sends")
    args = parser.parse_args(argv)
    args.only = [p for p in args.only.split(",") if p]
    if set(args.only) - set(PARTS):
        parser.error(f"--only takes {', '.join(PARTS)}")
    return args


def main(argv: list[str] | None = None) -> dict:
    args = _args(argv)
    started = time.monotonic()
    result: dict = {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m bench.run " + shlex.join(sys.argv[1:] if argv is None else argv),
        "load_before": env.load(),
        "code": env.code_version(),
        "server": shlex.join(["uvicorn", *env.uvicorn_argv("<free port>")[1:]]),
    }
    env.prepare()
    try:
        if "floor" in args.only:
            result["floor"] = _floor(args)
        if "appends" in args.only:
            from bench.scenarios import appends

            print("appends ...", flush=True)
            result["appends"] = appends.run()
        if "http" in args.only:
            result["http"] = _http(args)
        if "socket" in args.only:
            result["socket"] = _socket(args)
        if "fanout" in args.only:
            result["fanout"] = _fanout(args)
    finally:
        env.flush_redis()
    result["load_after"] = env.load()
    result["took_s"] = time.monotonic() - started
    _finish(result, args)
    return result


def _floor(args: argparse.Namespace) -> dict:
    from bench.scenarios import floor, socket_moves

    print("the floor: bare commit, then the command path's statements from psycopg ...",
          flush=True)  # fmt: skip
    bare = socket_moves.bare_commit_ms()
    result = floor.run(env.DATABASE_URL, moves=args.floor_moves)
    return {"bare_commit": [bare, socket_moves.bare_commit_ms()], **result}


def _http(args: argparse.Namespace) -> dict:
    from bench.scenarios.http_moves import WARMUP_S, Phase, run, tables

    seated, s = tables(50), args.http_seconds
    print("moves over HTTP ...", flush=True)
    with env.server() as server:
        phases = run(server, seated, [
            Phase("one game at a time", 0, games=1, seconds=s / 2),
            Phase("flat out", 0, seconds=s), Phase("paced", 1000, seconds=s),
            Phase("paced", 2000, seconds=s)])  # fmt: skip
    return {"games": len(seated), "players": sum(map(len, seated)), "warmup_s": WARMUP_S,
            "phases": phases}  # fmt: skip


def _socket(args: argparse.Namespace) -> dict:
    from bench.scenarios import socket_moves
    from bench.scenarios.socket_moves import Phase

    s = args.socket_seconds
    seated = socket_moves.tables(max(50, args.many_games))
    print("moves over the socket ...", flush=True)
    bare = [socket_moves.bare_commit_ms()]
    with env.server() as server:
        phases = socket_moves.run(server, seated, [
            Phase("one game at a time", 0, games=1, seconds=s / 2),
            Phase("flat out", 0, games=50, seconds=s),
            Phase("paced", 2000, games=50, seconds=s),
            Phase("paced", 2000, games=args.many_games, seconds=s),
            # The many games' move rate from one game (issue 31 item 4): what a move costs when
            # moves come spaced out, without the other games.
            Phase("one game at the paced rate", 2000 / args.many_games, games=1, seconds=s),
        ])  # fmt: skip
    bare.append(socket_moves.bare_commit_ms())
    return {"players": sum(map(len, seated)), "warmup_s": socket_moves.WARMUP_S,
            "bare_commit": bare, "phases": phases}  # fmt: skip


FANOUT_VARIANTS = [  # (label, uvicorn's --ws-per-message-deflate, --ws; None: as shipped)
    ("as shipped", None, None),
    ("`--ws-per-message-deflate true`", True, None),
    # uvicorn's websocket implementations (issue 19): shipped is `websockets` (compose's `auto`)
    ("`--ws websockets-sansio`", None, "websockets-sansio"),
    ("`--ws wsproto`", None, "wsproto"),
]


def _fanout(args: argparse.Namespace) -> list[dict]:
    from bench.scenarios import fanout

    runs = []
    for label, deflate, ws in FANOUT_VARIANTS[: 1 if args.fanout_shipped else None]:
        print(f"fan-out ({label}) ...", flush=True)
        with env.server(ws_deflate=deflate, ws=ws) as server:
            run = fanout.run(server, spectators=args.spectators)
        runs.append({"variant": label, **run})
    return runs


def _finish(result: dict, args: argparse.Namespace) -> None:
    from bench.reports import service as report

    block = report.markdown(result)
    print(block.split("\n", 1)[1].rsplit("\n", 1)[0])  # without the markers
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
    if args.write_doc:
        report.write_doc(block)
        print(f"written to {report.DOC}")


if __name__ == "__main__":
    main()
