"""bench-load's figures as Markdown, and their place in docs/RELIABILITY.md: one block per mode
(load, faults, nodes) between markers; the text around the blocks is written by hand."""

from __future__ import annotations

from bench.harness import replica
from bench.reports import doc
from bench.reports.doc import RELIABILITY, verdict

DOC = RELIABILITY
TARGET_P99_MS = 100


def mode(result: dict) -> str:
    args = result["args"]
    name = "nodes" if args["nodes"] > 1 else "faults" if args["faults"] else "load"
    if args["layer"] != "pubsub":
        name += f"-{args['layer']}"
    return name if args["sweeper"] == "runner" else f"{name}-beat-only"


def _markers(name: str) -> tuple[str, str]:
    return doc.markers(name, "python -m bench.load --write-doc")


def _ms(m: dict) -> str:
    if not m.get("n"):
        return "-"
    return f"{m['p50']} / {m['p90']} / **{m['p99']}** / {m['max']} ms ({m['n']:,})"


def counts(d: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in d.items()) or "none"


def _head(r: dict) -> list[str]:
    a = r["args"]
    return [
        f"Measured {r['started']} on commit {r['code']} with `{r['command']}` in {r['took_s']} s; "
        f"load average before {r['load_before']}, during the play {r['load_during']['mean']} on "
        f"average ({r['load_during']['max']} at most), at the stop {r['load_at_stop']}.",
        "",
        f"Processes: {a['nodes']} web node(s) of `{r['server']}`"
        + (" behind HAProxy (bench/harness/haproxy.cfg)" if a["nodes"] > 1 else "")
        + f"; {a['celery_workers']} × `{r['worker']}`; "
        + ("one `celery beat`; `manage.py run_deadlines` (the deadline runner)"
           if a["sweeper"] == "runner" else
           "one `celery beat` and no deadline runner (a comparison: deadlines on the broker)")
        + "; PostgreSQL "
        f"(database `{a['database'].rsplit('/', 1)[1]}`); redis-server on port "
        f"{a['redis_port']} (no persistence)"
        + "; the channel layer is channels_redis's "
        + ("pub/sub one (as shipped)" if a["layer"] == "pubsub" else
           "core one (bench/harness/settings_core.py, a comparison; shipped: pub/sub)")
        + f". {r['tables']} tables of 2-4 seats "
        f"({a['live_share']:.0%} at live pace, think 1-3 s; the rest correspondence scaled down: "
        f"5 s block windows, 10 s decisions, think 1-8 s, away one decision in ten), a built-in "
        f"bot seat at every {a['bot_every']}th table of 3-4 seats; one anonymous spectator per "
        f"game; {r['played_s']} s of play, table starts spread over the first {r['ramp_s']} s.",
    ]  # fmt: skip


def table(r: dict) -> list[str]:
    s = r["sockets"]
    d = r["deadlines"]
    by_pace = "; ".join(f"{p} {_ms(m)}" for p, m in r["command_ms_by_pace"].items())
    spect = "; ".join(f"through {v}: {_ms(m)}" for v, m in r["spectator_ms_by_via"].items())
    audit = r["audit"]
    rows = [
        ("games (ended / all)",
         f"{r['games_ended']} / {r['games']} ({counts(r['games_by_status'])})"),
        ("commands, per s (after the ramp)", f"{r['commands']:,}, {r['commands_per_s_steady']}/s"),
        ("command latency p50 / p90 / p99 / max (after the ramp)", _ms(r["command_ms"])),
        ("… by pace", by_pace),
        ("command's view on the sender's socket", _ms(r["delivery_ms"])),
        ("command's view on the spectator's socket", spect or "-"),
        ("errors", counts(r["errors"])),
        ("stale_seq answers (another command first; retried)", counts(r["conflicts"])),
        ("transport errors retried with the same Idempotency-Key", counts(r["retried"])),
        ("sockets: streams / with a gap or duplicate",
         f"{s['streams']:,} / {s['with_a_problem']} (missing {s.get('missing', 0)}, of them "
         f"not yet arrived at the check {s.get('missing_tail', 0)}, "
         f"duplicated {s.get('duplicated', 0)}, per-socket gaps {s.get('socket_gaps', 0)}, "
         f"per-socket duplicates {s.get('socket_dups', 0)})"),
        ("reconnects / resyncs sent / stall resyncs (observer)",
         f"{s.get('reconnects', 0)} / {s.get('resyncs', 0)} / {s.get('stall_resyncs', 0)}"
         + (f" (longest silence {r['stall_max_s']} s)" if r["stalls"] else "")),
        ("resynced streams / of them with a gap or duplicate",
         f"{s.get('resynced_streams', 0)} / {s.get('resynced_with_a_problem', 0)}"),
        ("audits green (`verify_game`, every game)", f"{audit['green']} / {audit['games']}"),
        ("`manage.py verify_game` / staff `GET …/audit/` (a few games)",
         f"{sum(r['audit_cli'].values())}/{len(r['audit_cli'])} ok, "
         f"{sum(r['audit_staff'].values())}/{len(r['audit_staff'])} ok"),
        ("timeouts (R21): applied / early / twice / later than 1 s",
         f"{d['timeouts']} / {len(d['early'])} / {len(d['twice'])} / {d['late_over_1s']}"),
        ("timeout after its deadline p50 / p99 / max",
         f"{d['late_ms_p50']} / {d['late_ms_p99']} / {d['late_ms_max']} ms"),
        ("bot decisions: wait for the bots' batch p50 / p99 / max",
         f"{d['bot_wait_ms_p50']} / {d['bot_wait_ms_p99']} / {d['bot_wait_ms_max']} ms "
         f"({d['bot_decisions']:,})"),
        ("games seen > 1 s past their deadline (projection, sampled each second)",
         f"{r['overdue_games']} (worst {r['overdue_max_s']} s)"),
        ("PostgreSQL connections to the run's database, peak", str(r["pg_connections_max"])),
    ]  # fmt: skip
    if not r["faults"]:  # a killed process takes its CPU time with it
        rows += [
            ("CPU seconds during the play", counts(r["cpu_s"]) + f" in {r['played_s']} s"),
            ("CPU per client command / per appended batch (all writes: commands, joins, "
             "timeouts, bot moves)",
             counts(r["cpu_ms_per_command"]) + " / " + counts(r["cpu_ms_per_batch"]) + " ms"),
        ]  # fmt: skip
    out = ["| figure | measured |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    p99 = r["command_ms"].get("p99", 1e9)
    clean = not r["errors"] and not s["with_a_problem"] and audit["green"] == audit["games"]
    out += ["", f"Target ({r['tables']} concurrent games, p99 < {TARGET_P99_MS} ms, 0 errors, "
            "0 lost or duplicated events, every audit green): p99 "
            f"{verdict(p99 < TARGET_P99_MS)}; errors, events and audits "
            f"{verdict(clean)}."]  # fmt: skip
    return out


def faults(r: dict) -> list[str]:
    if not r["faults"]:
        return []
    out = [
        "",
        "| window | at | what happened | commands p50 / p90 / p99 / max | errors "
        "| games > 1 s past deadline (worst) | stall resyncs |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [("before the faults", "", "", r["before_faults"])]
    rows += [
        (f["kind"], f"{f['at_s']} s", f"{f['detail']} ({f['took_s']} s)", f) for f in r["faults"]
    ]
    for name, at, what, w in rows:
        out.append(
            f"| {name} | {at} | {what} | {_ms(w['commands'])} | {counts(w['errors'])} "
            f"| {w['overdue_games']} ({w['overdue_max_s']} s) | {w['stalls']} |"
        )
    return out


def _nodes(r: dict) -> list[str]:
    if r["args"]["nodes"] < 2:
        return []
    cross = "; ".join(f"through {v}: {c['seen_by_spectator']:,} of {c['sent']:,} seen"
                      for v, c in r["cross_node"].items())  # fmt: skip
    lines = [
        "",
        "Spectators on node a or b (half the tables each), commands of half the tables sent "
        f"straight to the other node (the rest through HAProxy; `x → y`: REST through x, the "
        f"spectator on y): {cross}.",
    ]
    if scale := r.get("scale_out"):
        shards = "; ".join(f"{port}: {c['publish']:,} publishes, {c['subscribe']:,} subscribes"
                           for port, c in scale["channel_redis"].items())  # fmt: skip
        pool = scale.get("pgbouncer", {}).get("settings", {})
        bouncer = ", ".join(f"{k} {v}" for k, v in pool.items())
        lines += [
            "",
            f"PgBouncer in front of PostgreSQL ({bouncer}); the channel layer on "
            f"two Redis servers ({shards}); Celery's broker on the run's own Redis.",
        ]
    return lines


def markdown(r: dict) -> str:
    begin, end = _markers(mode(r))
    body = _head(r) + [""] + table(r) + faults(r) + _nodes(r) + replica.report_line(r)
    if r["crashed"] or r["unfinished_tasks"]:
        body += ["", f"Client tasks crashed: {r['crashed']}; unfinished: {r['unfinished_tasks']}."]
    if r["audit"]["failed"]:
        body += ["", f"Audits failed: {r['audit']['failed']}"]
    return "\n".join([begin, *body, end])


def write_doc(r: dict, block: str) -> None:
    begin, end = _markers(mode(r))
    doc.write_block(block, begin, end, doc=DOC)
