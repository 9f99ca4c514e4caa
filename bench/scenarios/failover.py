"""`make bench-failover`: games on the real processes while the PostgreSQL primary dies.

    python -m bench.failover [--games 40] [--duration 120] [--redis-port 6395]
                             [--cost-rounds 4] [--write-doc] [--json FILE]

A primary with a synchronous standby of its own (bench.harness.pg_pair: initdb into temporary
directories as the postgres OS user, ports 56432 and 56433, fsync on, synchronous_commit on,
synchronous_standby_names naming the standby) behind HAProxy in TCP mode; the service's
processes (bench.harness.stack: uvicorn, Celery worker and beat, `manage.py run_deadlines`, a
Redis of the run's own) connect through HAProxy with one DATABASE_URL.

1. The cost of synchronous replication per commit: the same bursts with the standby
   synchronous and asynchronous (synchronous_standby_names emptied and reloaded), alternating,
   in this process: bare INSERT+COMMIT, the event store's append per command, and the whole
   command path (`games.table.commands.game_command`).
2. The drill: bench.load's tables play (every acknowledged command recorded with its game, seq
   and key); a third of the way in the primary's postmaster gets `kill -9`. The drill then
   acts as a failover manager would: it sees the primary gone (two failed looks 0.25 s apart),
   promotes the standby (`pg_ctl promote`) and switches HAProxy's backend to it (runtime API).
   The players go on, retrying what failed as the README tells clients to.
3. The checks: every command acknowledged before the kill is in the new primary (its event at
   its seq, and its stored answer under its key, with that seq); the same for every command
   acknowledged at all; how long no command was acknowledged; the errors clients saw, by
   window; bench.load's checks (every socket's seqs, every game's audit, every deadline).

Why a proxy and not a restart with the standby's URL: the processes and every player's socket
stay up (a restart of the web drops every socket at once, and bench-faults' web kill showed
what such a reconnect herd costs), nothing in the service's configuration changes during an
outage, and the pools reconnect by themselves. It is how Patroni-style setups point clients
at the new primary. The price is one more hop per statement (measured below).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.clients.tables import Record
from bench.harness import env, pg_pair, stack
from bench.harness.env import percentile
from bench.reports import doc
from bench.scenarios.faults import Faults

DATABASE = "sejmi_bl_failover"  # in the pair's own clusters (bench.harness.stack wants sejmi_bl*)
DOC_MARKERS = doc.markers("failover", "python -m bench.failover --write-doc")
LOGS = Path("/tmp/sejmi-failover-logs")  # every process's log, the clusters' too, kept
LOOK_EVERY_S = 0.25  # the failover manager's look at the primary
LOOKS_TO_FAIL = 2


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40, help="tables playing at once")
    p.add_argument("--duration", type=float, default=120, help="seconds of play")
    p.add_argument("--live-share", type=float, default=0.5, help="tables at live pace")
    p.add_argument("--redis-port", type=int, default=6395)
    p.add_argument("--primary-port", type=int, default=56432)
    p.add_argument("--standby-port", type=int, default=56433)
    p.add_argument("--cost-rounds", type=int, default=4, help="sync/async rounds (0: none)")
    p.add_argument("--write-doc", action="store_true", help="update docs/RELIABILITY.md")
    p.add_argument("--json", help="also write the raw figures to this file")
    args = p.parse_args(argv)
    if args.games < 1 or not 30 <= args.duration <= 1800:
        p.error("--games >= 1 and --duration 30..1800")
    # what bench.scenarios.run_load reads, as bench.load would set it
    args.bot_every, args.faults, args.nodes, args.web_workers = 5, ["primary"], 1, 2
    args.celery_workers, args.concurrency, args.stall_s = 1, 2, 15.0
    args.layer, args.sweeper, args.worker_args = "pubsub", "runner", ""
    return args


# --- the kill ----------------------------------------------------------------------------


@dataclass
class FailoverFaults(Faults):
    """bench.scenarios.faults with one more kind: `primary`, the kill of the primary and the
    failover."""

    pair: pg_pair.Pair | None = None
    timeline: dict[str, float] = field(default_factory=dict)  # time.monotonic() of each step

    async def _primary(self) -> str:
        return await asyncio.to_thread(self._fail_over)

    def _fail_over(self) -> str:
        pair, t = self.pair, self.timeline
        before = pair.replication()
        t["kill"] = time.monotonic()
        pid = pair.primary.kill9()
        failed = 0
        while failed < LOOKS_TO_FAIL:  # what a failover manager does: look, twice
            time.sleep(LOOK_EVERY_S)
            failed = 0 if pair.primary.up() else failed + 1
        t["detected"] = time.monotonic()
        pair.standby.promote()
        t["promoted"] = time.monotonic()
        pair.proxy.switch()
        t["switched"] = time.monotonic()
        self.replication_at_kill = before
        return (f"kill -9 of the primary's postmaster (pid {pid}; standby {before['sync_state']}, "
                f"{before['flush_lag_bytes']} bytes behind); seen down "
                f"{t['detected'] - t['kill']:.2f} s, promoted {t['promoted'] - t['kill']:.2f} s, "
                f"HAProxy switched {t['switched'] - t['kill']:.2f} s after the kill")  # fmt: skip


# --- what was acknowledged, and what is there --------------------------------------------


def missing_acked(acked: list[tuple[float, int, int, str]],
                  stored: dict[str, int], events: set[tuple[int, int]]) -> list[dict]:  # fmt: skip
    """The acknowledged commands the database does not hold: no stored answer under the key,
    one with another seq, or no event at the game's acknowledged seq."""
    out = []
    for t, game, seq, key in acked:
        why = None
        if key not in stored:
            why = "no stored answer under its key"
        elif stored[key] != seq:
            why = f"stored answer has seq {stored[key]}"
        elif (game, seq) not in events:
            why = "no event at its seq"
        if why:
            out.append({"t": t, "game": game, "seq": seq, "key": key, "why": why})
    return out


def _durability(record: Record, kill_at: float) -> dict:
    from django.db import connection

    keys = [key for *_, key in record.acked]
    games = sorted({game for _, game, _, _ in record.acked})
    with connection.cursor() as cur:
        cur.execute("SELECT key, (answer->>'seq')::int FROM games_idempotentanswer"
                    " WHERE key = ANY(%s)", [keys])  # fmt: skip
        stored = dict(cur.fetchall())
        cur.execute("SELECT game_id, seq FROM games_gameevent WHERE game_id = ANY(%s)", [games])
        events = set(cur.fetchall())
    before = [a for a in record.acked if a[0] < kill_at]
    missing = missing_acked(record.acked, stored, events)
    return {"acked": len(record.acked), "acked_before_kill": len(before),
            "missing_before_kill": sum(m["t"] < kill_at for m in missing),
            "missing": len(missing), "missing_examples": missing[:10]}  # fmt: skip


def outage(acked_times: list[tuple[float, int]], kill_at: float) -> dict:
    """From (time, table) of every ack: the longest silence (no command acknowledged by
    anyone) that began within 2 s before to 10 s after the kill, as seconds relative to the
    kill; the longest silence in the 30 s before the kill (what is normal at this load); and
    for the tables that acked in the 20 s before the kill, how long each took to have its
    next ack after it."""
    times = sorted(t for t, _ in acked_times)
    pairs = list(zip(times, times[1:], strict=False))
    around = [(a, b) for a, b in pairs if kill_at - 2 <= a <= kill_at + 10]
    start, end = max(around, key=lambda p: p[1] - p[0]) if around else (kill_at, kill_at)
    before = [b - a for a, b in pairs if kill_at - 30 <= a and b < kill_at]
    active = {table for t, table in acked_times if kill_at - 20 <= t < kill_at}
    back = []
    for table in active:
        nxt = [t for t, tb in acked_times if tb == table and t >= kill_at]
        back.append(min(nxt) - kill_at if nxt else None)
    done = sorted(b for b in back if b is not None)
    return {
        "silence_s": round(end - start, 2), "silence_from_s": round(start - kill_at, 2),
        "silence_to_s": round(end - kill_at, 2),
        "longest_gap_before_s": round(max(before), 2) if before else None,
        "tables_active": len(active), "tables_back": len(done),
        "table_back_p50_s": round(percentile(done, 50), 2) if done else None,
        "table_back_max_s": round(max(done), 2) if done else None,
    }  # fmt: skip


# --- the price of the synchronous standby ------------------------------------------------


def _bare_commits_ms(url: str, n: int = 200) -> list[float]:
    import psycopg

    with psycopg.connect(url) as conn:
        # A real table: a transaction that wrote only a temporary table writes no WAL commit
        # record, so its COMMIT waits for neither the disk nor the standby.
        conn.execute("CREATE TABLE IF NOT EXISTS bench_commit (x int)")
        conn.commit()
        ms = []
        for i in range(n):
            started = time.perf_counter()
            conn.execute("INSERT INTO bench_commit VALUES (%s)", (i,))
            conn.commit()
            ms.append((time.perf_counter() - started) * 1000)
    return ms


def commit_cost(pair: pg_pair.Pair, rounds: int) -> dict:
    """Alternating rounds, synchronous then asynchronous (the order swapped every round):
    bare INSERT+COMMIT through HAProxy (and straight to the primary, to price the hop), the
    event store's append in one transaction per command, the whole command path."""
    from bench.scenarios import appends

    work = appends.workload(12)
    out: dict[str, dict[str, list[float]]] = {"sync": {}, "async": {}}

    def note(mode: str, name: str, value: float) -> None:
        out[mode].setdefault(name, []).append(value)

    for r in range(rounds):
        for sync in (True, False) if r % 2 == 0 else (False, True):
            mode = "sync" if sync else "async"
            pair.set_synchronous(sync)
            bare = _bare_commits_ms(pair.url("postgres"))
            note(mode, "bare_p50_ms", percentile(bare, 50))
            note(mode, "bare_p99_ms", percentile(bare, 99))
            direct = _bare_commits_ms(pair.primary.url)
            note(mode, "direct_p50_ms", percentile(direct, 50))
            _, commands_per_s = appends.ours_per_command(work, 600)
            note(mode, "append_commands_per_s", commands_per_s)
            _, path_per_s, path_ms = appends.game_command_path(150)
            note(mode, "path_commands_per_s", path_per_s)
            note(mode, "path_p50_ms", percentile(path_ms, 50))
    pair.set_synchronous(True)
    medians = {mode: {k: round(statistics.median(v), 3) for k, v in d.items()}
               for mode, d in out.items()}  # fmt: skip
    return {"rounds": rounds, "raw": out, "median": medians, "load_after": env.load()}


# --- the run -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> dict:
    args = _args(argv)
    words = sys.argv[1:] if argv is None else argv
    result: dict = {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m bench.failover " + shlex.join(words),
        "code": env.code_version(), "load_before": env.load(),
    }  # fmt: skip
    print(f"bench-failover: {args.games} tables, {args.duration:.0f} s, load {env.load()}",
          flush=True)  # fmt: skip
    started = time.monotonic()
    pair = pg_pair.start_pair(args.primary_port, args.standby_port)
    try:
        args.database = pair.url(DATABASE)
        result["pair"] = {"primary": args.primary_port, "standby": args.standby_port,
                          "proxy": pair.proxy.port, **pair.replication()}  # fmt: skip
        shape = stack.use(args.database, args.redis_port)
        LOGS.mkdir(exist_ok=True)
        shape.logs = LOGS  # not /tmp/sejmi-bl-*: another session's bench-load may run
        with stack.running(shape, redis_port=args.redis_port, nodes=1, web_workers=args.web_workers,
                           celery_workers=1, concurrency=args.concurrency) as running:  # fmt: skip
            import os

            os.environ.update(env.service_env())
            import django

            django.setup()
            from bench.scenarios import run_load

            result["server"] = shlex.join(
                ["uvicorn", *env.uvicorn_argv("<port>", args.web_workers)[1:]]
            )
            if args.cost_rounds:
                print("  the price of the synchronous standby ...", flush=True)
                result["commit_cost"] = commit_cost(pair, args.cost_rounds)
                print(f"  {result['commit_cost']['median']}", flush=True)
            record = Record()

            def faults(*a):
                made = FailoverFaults(*a, pair=pair)
                result["_faults"] = made
                return made

            result.update(run_load.run(running, args, faults_class=faults, record=record))
            drill: FailoverFaults = result.pop("_faults")
            kill_at = drill.timeline["kill"]
            result["timeline_s"] = {k: round(v - kill_at, 2) for k, v in drill.timeline.items()}
            result["replication_at_kill"] = getattr(drill, "replication_at_kill", None)
            result["durability"] = _durability(record, kill_at)
            tables = {g: facts["table"] for g, facts in record.games.items()}
            result["outage"] = outage([(t, tables.get(g, -1)) for t, g, _, _ in record.acked],
                                      kill_at)  # fmt: skip
            result["errors_after_kill"] = _errors_after(record, kill_at)
    finally:
        pair.stop(keep_logs=LOGS)
    result["load_after"] = env.load()
    result["took_s"] = round(time.monotonic() - started)
    _finish(result, args)
    return result


def _errors_after(record: Record, kill_at: float) -> dict:
    from collections import Counter

    return dict(Counter(what for t, what in record.error_times if t >= kill_at))


def markdown(r: dict) -> str:
    from bench.reports import load as load_report

    d, o, tl = r["durability"], r["outage"], r["timeline_s"]
    lines = [
        DOC_MARKERS[0],
        f"Measured {r['started']} on commit {r['code']} with `{r['command']}` in {r['took_s']} s; "
        f"load average before {r['load_before']}, during the play {r['load_during']['mean']} on "
        f"average ({r['load_during']['max']} at most), at the stop {r['load_at_stop']} "
        "(2 cores, shared with other sessions' work).",
        "",
        f"A primary (port {r['pair']['primary']}) with a synchronous standby "
        f"({r['pair']['standby']}) "
        f"behind HAProxy (port {r['pair']['proxy']}); `{r['server']}`, one Celery worker and beat, "
        f"`manage.py run_deadlines`, a Redis of the run's own; {r['tables']} tables of 2-4 seats "
        f"(bench.load's players) for {r['played_s']} s.",
        "",
        "| figure | measured |",
        "|---|---|",
        f"| **commands acknowledged before the kill / missing after** | {d['acked_before_kill']:,} "
        f"/ **{d['missing_before_kill']}** |",
        f"| commands acknowledged in the whole run / missing | {d['acked']:,} / {d['missing']} |",
        f"| primary seen down / standby promoted / HAProxy switched (s after the kill) | "
        f"{tl['detected']} / {tl['promoted']} / {tl['switched']} |",
        f"| **seconds without service** (the longest time no command was acknowledged, around "
        f"the kill) | **{o['silence_s']}** (from {o['silence_from_s']} to {o['silence_to_s']} s "
        f"after the kill; longest such silence in the 30 s before it: "
        f"{o['longest_gap_before_s']} s) |",
        f"| tables playing in the 20 s before the kill / with a command acknowledged after it | "
        f"{o['tables_active']} / {o['tables_back']} (each's first ack after the kill: p50 "
        f"{o['table_back_p50_s']} s, max {o['table_back_max_s']} s) |",
        f"| errors after the kill (after the clients' retries) | "
        f"{load_report.counts(r['errors_after_kill'])} |",
        f"| retried by clients (same key) | {load_report.counts(r['retried'])} |",
        f"| audits green (`verify_game`, every game, on the new primary) | "
        f"{r['audit']['green']} / {r['audit']['games']} |",
    ]  # fmt: skip
    body = load_report.table(r) + load_report.faults(r)
    lines += ["", "bench.load's figures for the same run:", "", *body]
    cost = r.get("commit_cost")
    if cost:
        s, a = cost["median"]["sync"], cost["median"]["async"]
        rows = [
            ("bare INSERT+COMMIT through HAProxy, p50 ms", "bare_p50_ms"),
            ("bare INSERT+COMMIT through HAProxy, p99 ms", "bare_p99_ms"),
            ("bare INSERT+COMMIT straight to the primary, p50 ms", "direct_p50_ms"),
            ("event store, one transaction per command, commands/s (one client)",
             "append_commands_per_s"),
            ("`game_command`, the whole command path, commands/s (one client)",
             "path_commands_per_s"),
            ("`game_command` p50 ms", "path_p50_ms"),
        ]  # fmt: skip
        lines += ["", f"The price of the synchronous standby: medians of {cost['rounds']} "
                  "alternating rounds in this run, before the play (load after: "
                  f"{cost['load_after']}).", "",
                  "| burst | synchronous | asynchronous |", "|---|---|---|"]  # fmt: skip
        lines += [f"| {name} | {s[k]} | {a[k]} |" for name, k in rows]
    if d["missing_examples"]:
        lines += ["", f"Missing: {json.dumps(d['missing_examples'])}"]
    if r["audit"]["failed"]:
        lines += ["", f"Audits failed: {r['audit']['failed']}"]
    lines.append(DOC_MARKERS[1])
    return "\n".join(lines)


def _finish(result: dict, args: argparse.Namespace) -> None:
    block = markdown(result)
    print(block)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1, default=str)
    if args.write_doc:
        doc.write_block(block, *DOC_MARKERS, doc=doc.RELIABILITY)
        print(f"written to {doc.RELIABILITY}")


if __name__ == "__main__":
    main()
