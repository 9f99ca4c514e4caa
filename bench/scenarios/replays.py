"""`make bench-replays`: replays and verification of one long game (issue 4).

    python -m bench.replays [--events 2000] [--requests 500] [--verify-runs 7] [--write-doc]
                            [--profile] [--json FILE]

Drops, creates and migrates a database of its own (BENCH_REPLAYS_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/sejmi_bench_replays; loopback only), then:
1. builds one finished game of at least --events events: four bot seats whose play keeps
   everyone alive (blocks, gains) until the log is long enough, then the built-in heuristic
   bot plays it out. Each command's events are stored as the live path stores them, in a
   transaction of their own: `event_store.append` + `projections.project_batch` (snapshots
   every SNAPSHOT_EVERY events included);
2. starts the server as shipped, docker-compose.yml's uvicorn command on a free loopback port
   with 2 workers (bench.harness.env.uvicorn_argv; one keep-alive connection is served by one
   of them),
   on sejmi.settings (a psycopg pool per process) with DEBUG off and throttles raised, and
   sends --requests sequential `GET /api/games/{id}/replay/?at=<random seq>` over that
   connection, as a spectator, after a warm-up; p50/p99 of the client's wall time per request
   (target: p99 < 20 ms). The floor of the stack is timed the same way (`GET /api/games/0/`:
   one query, 404), and the same seqs in-process (`selectors.replay`), which tells the
   replay's own work from the stack's;
3. runs `python manage.py verify_game ID` --verify-runs times as a new process and takes the
   wall time of each (target < 1 s), and the time the command reports for the checks alone.
With --write-doc the figures replace the block of the "## Replays" section of
docs/PERFORMANCE.md (the section is appended if missing; nothing else in the file changes).
--profile prints where the time of a replay and of a verification goes (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import re
import shlex
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.harness import env
from bench.harness.env import uvicorn_argv
from bench.reports import doc
from bench.reports.doc import verdict

ROOT = env.ROOT
DATABASE_URL = os.environ.get(
    "BENCH_REPLAYS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sejmi_bench_replays"
)
BEGIN, END = "<!-- bench-replays:begin", "<!-- bench-replays:end -->"
TARGET_P99_MS, TARGET_VERIFY_S = 20.0, 1.0


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000, help="the game's least length")
    parser.add_argument("--requests", type=int, default=500, help="replay requests timed")
    parser.add_argument("--warmup", type=int, default=50, help="requests sent first, untimed")
    parser.add_argument("--verify-runs", type=int, default=7)
    parser.add_argument("--seed", default="bench-replays", help="the game's and the seqs' seed")
    parser.add_argument("--write-doc", action="store_true", help="update docs/PERFORMANCE.md")
    parser.add_argument("--profile", action="store_true", help="print cProfile summaries")
    parser.add_argument("--json", help="also write the figures to this file")
    return parser.parse_args(argv)


# The database and the environment


def service_env() -> dict[str, str]:
    """bench.harness.env's settings on this benchmark's database, without Redis (nothing is
    broadcast)."""
    return env.service_env(DATABASE_URL=DATABASE_URL, REDIS_URL="")


def prepare() -> None:
    """DROP, CREATE and migrate this benchmark's database; this process set up on it."""
    env.fresh_database(DATABASE_URL, REDIS_URL="")
    os.environ.update(service_env())
    import django

    django.setup()


# The game


def long_game(min_events: int, label: str) -> tuple[bytes, list[list]]:
    """A finished 4-bot game of at least `min_events` events, as its commands' batches."""
    from games.engine import HeuristicBot, execute, fold, legal_commands, new_game
    from games.engine.bots import preview
    from games.engine.commands import Block
    from games.engine.simulate import game_seed
    from games.engine.state import PLAY

    seed, rnd, finisher = game_seed(label, 0), random.Random(label), HeuristicBot()

    def staller(s, seat):
        """Plays what keeps the weakest best alive, blocks what it can: a long game."""
        options = legal_commands(s, seat)
        if s.phase == PLAY:
            return max(options, key=lambda c: (min(preview(s, seat, c)),
                                               sum(preview(s, seat, c)), rnd.random()))  # fmt: skip
        blocks = [c for c in options if isinstance(c, Block)]
        return blocks[0] if blocks else rnd.choice(options)

    first = new_game(seats=4, seed=seed, options={"bots": [0, 1, 2, 3]})
    batches, state, count = [first], fold(first), len(first)
    while state.status == "active":
        seat = state.awaiting[0]
        bot = staller if count < min_events else finisher.choose
        events, state = execute(state, bot(state, seat), actor=seat, seed=seed)
        batches.append(events)
        count += len(events)
        if count > 20 * min_events + 10_000:
            raise RuntimeError("the bench game does not end")
    return seed, batches


def store_game(seed: bytes, batches: list[list]) -> int:
    """Each batch in a transaction of its own, as games.table.commit.append stores a command."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games.core import event_store
    from games.core.models import Game
    from games.engine import fold
    from games.table.projections import project_batch

    owner = get_user_model().objects.create_user("bench-host", is_active=False)
    game = Game.objects.create(seed=seed, created_by=owner)
    proj, state, head_seq, head_hash = None, None, 0, event_store.GENESIS
    for events in batches:
        after, at = fold(events, state), timezone.now()
        with transaction.atomic():
            rows = event_store.append(game_id=game.pk, head_seq=head_seq, head_hash=head_hash,
                                      events=events, at=at)  # fmt: skip
            head_seq, head_hash = rows[-1].seq, rows[-1].hash
            proj = project_batch(game_id=game.pk, proj=proj, before=state, events=events,
                                 after=after, head_seq=head_seq, head_hash=head_hash,
                                 at=at)  # fmt: skip
        state = after
    return game.pk


# Measuring


def summary(ms: list[float]) -> dict[str, float]:
    return {"n": len(ms), "p50": round(env.percentile(ms, 50), 2),
            "p90": round(env.percentile(ms, 90), 2), "p99": round(env.percentile(ms, 99), 2),
            "max": round(max(ms), 2), "mean": round(statistics.fmean(ms), 2)}  # fmt: skip


def over_http(base: str, gid: int, seqs: list[int], warmup: list[int]) -> dict[str, list]:
    """Milliseconds per request (client wall time), each answer checked: replays at `seqs`,
    then as many requests for an unknown game (the stack's floor: one query, 404)."""
    import httpx

    out: dict[str, list[float]] = {"replay": [], "floor": []}
    with httpx.Client(base_url=base, timeout=10) as client:
        for at in warmup:
            client.get(f"/api/games/{gid}/replay/", params={"at": at}).raise_for_status()
        for at in seqs:
            started = time.perf_counter()
            answer = client.get(f"/api/games/{gid}/replay/", params={"at": at})
            out["replay"].append((time.perf_counter() - started) * 1000)
            if answer.status_code != 200 or answer.json()["seq"] != at:
                raise RuntimeError(f"replay at {at}: {answer.status_code} {answer.text[:200]}")
        for _ in seqs:
            started = time.perf_counter()
            answer = client.get("/api/games/0/")
            out["floor"].append((time.perf_counter() - started) * 1000)
            if answer.status_code != 404:
                raise RuntimeError(f"unknown game: {answer.status_code} {answer.text[:200]}")
    return out


def replay_in_process(gid: int, seqs: list[int]) -> dict[str, list[float]]:
    """Milliseconds per call of `selectors.replay` and of its `state_at` alone."""
    from django.contrib.auth.models import AnonymousUser

    from replays import selectors

    whole, state = [], []
    for at in seqs:
        started = time.perf_counter()
        selectors.state_at(gid, at)
        state.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        selectors.replay(gid, AnonymousUser(), at=at)
        whole.append((time.perf_counter() - started) * 1000)
    return {"replay": whole, "state_at": state}


def verify_runs(gid: int, runs: int) -> dict[str, list[float]]:
    """Seconds: each `manage.py verify_game ID` process's wall time, and the checks' own
    time as the command prints it ("verified in X s")."""
    wall, checks = [], []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "manage.py", "verify_game", str(gid)], cwd=ROOT,
                              env=service_env(), capture_output=True, text=True,
                              timeout=120)  # fmt: skip
        wall.append(time.perf_counter() - started)
        found = re.search(r"verified in ([0-9.]+) s", done.stdout)
        if done.returncode != 0 or found is None:
            raise RuntimeError(f"verify_game {gid} failed: {done.stdout}{done.stderr}")
        checks.append(float(found.group(1)))
    return {"wall": wall, "checks": checks}


def profiled(label: str, call, top: int = 18) -> str:
    profile = cProfile.Profile()
    profile.enable()
    call()
    profile.disable()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(top)
    return f"--- {label} ---\n{text.getvalue()}"


# The report


def doc_block(r: dict) -> str:
    proc, state = r["in_process_ms"]["replay"], r["in_process_ms"]["state_at"]
    wall, checks = r["verify_s"]["wall"], r["verify_s"]["checks"]
    http = r["http_ms"]
    measured = [
        ("`GET /replay/?at=` over HTTP", http["replay"]),
        ("floor: `GET /api/games/0/` (404) over HTTP", http["floor"]),
        ("`selectors.replay` in-process", proc),
        ("`selectors.state_at` alone", state),
    ]
    rows = [
        "| ms | p50 | p90 | p99 | max | mean |",
        "|---|---|---|---|---|---|",
        *(
            f"| {name} | {s['p50']} | {s['p90']} | {s['p99']} | {s['max']} | {s['mean']} |"
            for name, s in measured
        ),
    ]
    p99 = http["replay"]["p99"]
    return "\n".join([
        f"{BEGIN} (written by `python -m bench.replays --write-doc`) -->",
        f"Measured {r['when']} on commit {r['commit']} with `{r['command']}` in {r['took_s']} s;"
        f" load average before {r['load_before']}, after {r['load_after']}.",
        "",
        f"Game: {r['events']:,} events in {r['commands']} commands ({r['turns']} turns, 4 bot"
        f" seats, ended), {r['snapshots']} snapshots (every {r['snapshot_every']} events);"
        f" stored in {r['store_s']} s.",
        "",
        f"Replay: {len(r['seqs'])} sequential requests at random seqs 1..{r['events']} (after"
        f" {r['warmup']} untimed), one keep-alive connection, anonymous spectator; then as many"
        " requests for an unknown game (the floor). Server: "
        f"`{r['server']}` (docker-compose.yml's web command on loopback; the one connection is"
        " served by one worker), sejmi.settings as shipped, DEBUG off, throttles raised.",
        "",
        *rows,
        "",
        f"`python manage.py verify_game {r['game']}` (all checks: chain, seed, rederive, rules,"
        f" replay), {len(wall)} runs as a new process: wall time median"
        f" {statistics.median(wall):.2f} s, max {max(wall):.2f} s (Python and Django start-up"
        f" included); the checks alone median {statistics.median(checks):.3f} s.",
        "",
        "| target | figure | |",
        "|---|---|---|",
        f"| replay p99 over HTTP < {TARGET_P99_MS:g} ms | {p99} ms |"
        f" {verdict(p99 < TARGET_P99_MS)} |",
        f"| `verify_game` wall time < {TARGET_VERIFY_S:g} s | median"
        f" {statistics.median(wall):.2f} s (slowest {max(wall):.2f} s) |"
        f" {verdict(statistics.median(wall) < TARGET_VERIFY_S)} |",
        END,
    ])  # fmt: skip


SECTION = """## Replays

Command: `make bench-replays` (= `.venv/bin/python -m bench.replays --write-doc`). It drops and
migrates a database of its own (`sejmi_bench_replays`), builds one long finished game through
the event store and the projections as the live path stores it, serves it with uvicorn on
loopback as docker-compose.yml starts it, and times `GET /api/games/{id}/replay/?at=` and
`manage.py verify_game ID` (code: `bench/scenarios/replays.py`; `--profile` prints where the time
goes). It rewrites only the block below.

How to read the figures: the replay's own work (in-process rows) is a small part of a request;
the rest is the HTTP stack (uvicorn, Django, DRF, the client), which the floor row measures on
a request that does almost nothing. `verify_game`'s wall time is mostly Python and Django
start-up (`python -X importtime manage.py verify_game ID` shows where).

"""


def write_doc(block: str) -> None:
    """Replace our block in the "## Replays" section, or append the section: only ours."""
    doc.write_block(block, BEGIN, END, section=SECTION)


def main(argv: list[str] | None = None) -> dict:
    args = _args(argv)
    started, load_before = time.monotonic(), os.getloadavg()
    prepare()
    from games.core.models import GameSnapshot
    from games.table.projections import SNAPSHOT_EVERY

    seed, batches = long_game(args.events, args.seed)
    t0 = time.perf_counter()
    gid = store_game(seed, batches)
    store_s = time.perf_counter() - t0
    events = sum(len(b) for b in batches)
    rnd = random.Random(args.seed)
    seqs = [rnd.randint(1, events) for _ in range(args.requests)]
    warmup = [rnd.randint(1, events) for _ in range(args.warmup)]
    print(f"game {gid}: {events} events in {len(batches)} commands, stored in {store_s:.1f} s")

    log = Path(os.environ.get("TMPDIR", "/tmp")) / "bench-replays-uvicorn.log"  # the last run's
    with env.web_only(log, DATABASE_URL=DATABASE_URL, REDIS_URL="") as base:
        http = {k: summary(v) for k, v in over_http(base, gid, seqs, warmup).items()}
    in_process = replay_in_process(gid, seqs)
    verify = verify_runs(gid, args.verify_runs)
    from replays.selectors import state_at

    result = {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": env.code_version(),
        "command": shlex.join(["python", "-m", "bench.replays", *(argv or sys.argv[1:])]),
        "game": gid, "events": events, "commands": len(batches),
        "turns": state_at(gid, events).turn, "warmup": args.warmup,
        "snapshots": GameSnapshot.objects.filter(game_id=gid).count(),
        "snapshot_every": SNAPSHOT_EVERY, "store_s": round(store_s, 1),
        "server": shlex.join(["uvicorn", *uvicorn_argv("<free port>", workers=2)[1:]]),
        "http_ms": http, "seqs": seqs,
        "in_process_ms": {k: summary(v) for k, v in in_process.items()},
        "verify_s": {k: [round(x, 3) for x in v] for k, v in verify.items()},
        "load_before": " / ".join(f"{x:.2f}" for x in load_before[:2]),
    }  # fmt: skip
    result["load_after"] = " / ".join(f"{x:.2f}" for x in os.getloadavg()[:2])
    result["took_s"] = round(time.monotonic() - started)
    block = doc_block(result)
    print(block)
    if args.profile:
        from django.contrib.auth.models import AnonymousUser

        from replays import selectors
        from replays.verification import verify_game

        print(profiled(f"{len(seqs)} x selectors.replay", lambda: [
            selectors.replay(gid, AnonymousUser(), at=at) for at in seqs]))  # fmt: skip
        print(profiled("verify_game", lambda: verify_game(gid)))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    if args.write_doc:
        write_doc(block)
        print(f"wrote the Replays section of {doc.DOC.relative_to(ROOT)}")
    return result


if __name__ == "__main__":
    main()
