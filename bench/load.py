"""`make bench-load`, `make bench-faults`, `make bench-nodes`: the service under many games.

    python -m bench.load [--games 200] [--duration 180] [--faults worker,redis,web,sockets]
                         [--nodes 2] [--write-doc] [--json FILE]

The real processes on loopback (bench.harness.stack): a Redis of the run's own (port 6390), a fresh
PostgreSQL database `sejmi_bl_load`, docker-compose.yml's uvicorn command (2 workers) per web
node, its Celery worker (concurrency 2) and one Celery beat; with `--nodes 2`, two nodes behind
HAProxy and two Celery workers, PostgreSQL behind PgBouncer and the channel layer on two Redis
servers of its own (bench.harness.scale_out: docker-compose's shape). `--games` tables play whole
games back to back over websockets and REST (bench.clients.tables: live and correspondence paces,
built-in bots at some tables) for
`--duration` seconds, table starts spread over the first sixth of it. Then the clients stop,
Celery and the deadline runner stop (deadlines freeze), the sockets get 45 s to reach the
games' last seq, and the checks run (bench.reports.summary): latency, errors, every socket's seqs,
every game's audit, every deadline kept. Bounded: every wait has a timeout and the run stops
by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
import time
from datetime import UTC, datetime

from bench.harness import env, replica, scale_out, stack

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/sejmi_bl_load"


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="tables playing at once")
    p.add_argument("--duration", type=float, default=180, help="seconds of play")
    p.add_argument("--live-share", type=float, default=0.25, help="tables at live pace")
    p.add_argument("--bot-every", type=int, default=5, help="every Nth table has a bot seat")
    p.add_argument("--faults", default="", help="any of worker,redis,web,sockets (or all)")
    p.add_argument("--nodes", type=int, choices=(1, 2), default=1)
    p.add_argument("--web-workers", type=int, default=2, help="uvicorn --workers per node")
    p.add_argument("--celery-workers", type=int, help="default: one per node")
    p.add_argument("--concurrency", type=int, default=2, help="each Celery worker's pool")
    p.add_argument("--worker-args", default="", help="more flags for compose's worker command")
    p.add_argument(
        "--layer",
        choices=("pubsub", "core"),
        default="pubsub",
        help="channels_redis layer: pubsub as shipped, or core (the old one, to compare)",
    )
    p.add_argument(
        "--sweeper",
        choices=("runner", "beat"),
        default="runner",
        help="runner as shipped (beat + manage.py run_deadlines), or beat alone (to compare)",
    )
    p.add_argument("--stall-s", type=float, default=15, help="silence before a resync")
    p.add_argument("--redis-port", type=int, default=6390)
    p.add_argument("--database", default=os.environ.get("BENCH_LOAD_DATABASE_URL", DEFAULT_DB))
    p.add_argument("--write-doc", action="store_true", help="update docs/RELIABILITY.md")
    p.add_argument("--json", help="also write the raw figures to this file")
    args = p.parse_args(argv)
    from bench.scenarios.faults import KINDS

    args.faults = list(KINDS) if args.faults == "all" else [f for f in args.faults.split(",") if f]
    if set(args.faults) - set(KINDS):
        p.error(f"--faults takes {','.join(KINDS)} or all")
    if args.games < 1 or not 10 <= args.duration <= 3600:
        p.error("--games >= 1 and --duration 10..3600")
    args.celery_workers = args.celery_workers or args.nodes
    return args


def main(argv: list[str] | None = None) -> dict:
    args = _args(argv)
    words = sys.argv[1:] if argv is None else argv
    result: dict = {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m bench.load " + shlex.join(words),
        "code": env.code_version(), "load_before": env.load(),
        "args": {k: v for k, v in vars(args).items() if k not in ("write_doc", "json")},
    }  # fmt: skip
    print(f"bench-load: {args.games} tables, {args.duration:.0f} s, load {env.load()}", flush=True)
    started = time.monotonic()
    shape = stack.use(args.database, args.redis_port, args.layer)
    shape.worker_args[:] = shlex.split(args.worker_args)
    # bench-nodes reads what may lag from a replica (bench.harness.replica): started before
    # the nodes.
    standby = replica.streaming(args.database) if args.nodes > 1 else contextlib.nullcontext()
    with standby as streaming, stack.running(shape, redis_port=args.redis_port, nodes=args.nodes,
                       web_workers=args.web_workers, celery_workers=args.celery_workers,
                       concurrency=args.concurrency, sweep=args.sweeper) as running:  # fmt: skip
        os.environ.update(env.service_env())
        import django

        django.setup()
        from bench.scenarios import run_load

        result["server"] = shlex.join(
            ["uvicorn", *env.uvicorn_argv("<port>", args.web_workers)[1:]]
        )
        result["worker"] = shlex.join(
            ["celery", *stack.compose_worker("<name>", args.concurrency, shape.worker_args)[1:]]
        )
        result.update(run_load.run(running, args))
        if streaming is not None:
            result["replica"] = replica.served(streaming, args.database)
        if running.scaled is not None:
            result["scale_out"] = scale_out.figures(running.scaled)
    result["load_after"] = env.load()
    result["took_s"] = round(time.monotonic() - started)
    _finish(result, args)
    return result


def _finish(result: dict, args: argparse.Namespace) -> None:
    from bench.reports import load as load_report

    block = load_report.markdown(result)
    print(block)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1, default=str)
    if args.write_doc:
        load_report.write_doc(result, block)
        print(f"written to {load_report.DOC}")


if __name__ == "__main__":
    main()
