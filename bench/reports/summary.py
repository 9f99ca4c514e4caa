"""The figures of one bench-load run, from what the clients, the observer, the faults and the
audits recorded: a JSON-able dict (bench.reports.load turns it into Markdown)."""

from __future__ import annotations

from collections import Counter

from bench.clients.tables import Record
from bench.harness.env import percentile


def _ms(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": round(percentile(values, 50), 1),
            "p90": round(percentile(values, 90), 1), "p99": round(percentile(values, 99), 1),
            "max": round(max(values), 1)}  # fmt: skip


def _per(cpu_s: dict, units: int) -> dict:
    return {k: round(v * 1000 / max(units, 1), 1) for k, v in cpu_s.items()}


def _in(items, start: float, end: float) -> list:
    return [x for x in items if start <= x[0] < end]


def _streams(record: Record, finals: dict) -> dict:
    total: Counter = Counter()
    bad, examples, lost = 0, [], []
    for s in record.streams:
        final = finals.get(s.game, (s.last, ""))[0]
        found = s.check(final)
        if found.get("missing", 0) > found.get("missing_tail", 0) and len(lost) < 10:
            got = s.held  # a seq the stream went past without it: which, and around
            holes = [q for q in range((s.first or 0) + 1, max(got, default=0)) if q not in got]
            lost.append({"game": s.game, "player": s.player, "first": s.first, "final": final,
                         "last": s.last, "highest": s.highest, "connects": s.connects,
                         "resyncs": s.resyncs,
                         "stall_resyncs": s.stall_resyncs, "holes": holes[:20],
                         "received_tail": s.received[-40:]})  # fmt: skip
        total.update(found)
        bad += any(found.values())
        if any(found.values()) and len(examples) < 5:
            examples.append({"game": s.game, "player": s.player, "first": s.first,
                             "final": final, "connects": s.connects, **found,
                             "received": s.received[:60]})  # fmt: skip
        total["reconnects"] += max(0, s.connects - 1)
        total["resyncs"] += s.resyncs
        total["resent"] += s.resent
        total["stall_resyncs"] += s.stall_resyncs
        total["gave_up"] += s.gave_up is not None
        resynced = bool(s.resyncs or s.stall_resyncs)
        total["resynced_streams"] += resynced
        total["resynced_with_a_problem"] += resynced and any(found.values())
    return {"streams": len(record.streams), "with_a_problem": bad, **total, "examples": examples,
            "lost_examples": lost}  # fmt: skip


def _cross_node(record: Record) -> dict:
    """Commands sent through each REST endpoint, and how many of them the game's spectator
    (on node a in bench-nodes) received as an event."""
    spectators = {s.game: set(s.received) for s in record.streams if not s.player}
    sent, seen = Counter(), Counter()
    for game, seq, via in record.posted:
        sent[via] += 1
        seen[via] += seq in spectators.get(game, ())
    return {via: {"sent": sent[via], "seen_by_spectator": seen[via]} for via in sent}


def _window(record: Record, observer, start: float, end: float) -> dict:
    return {
        "commands": _ms([ms for _, ms, _ in _in(record.commands, start, end)]),
        "errors": dict(Counter(what for _, what in _in(record.error_times, start, end))),
        "overdue_games": len({o.game for o in observer.overdue if start <= o.t < end}),
        "overdue_max_s": round(max((o.late_s for o in observer.overdue
                                    if start <= o.t < end), default=0), 1),  # fmt: skip
        "stalls": len(_in(observer.stalls, start, end)),
    }  # fmt: skip


def summarize(record: Record, played: dict, finals: dict, checks: dict, load_at_stop: str) -> dict:
    t0, ramp, stopped = played["t0"], played["ramp_s"], played["stopped_at"]
    observer, faults = played["observer"], played["faults"]
    seconds = stopped - t0
    steady = [ms for t, ms, _ in record.commands if t >= t0 + ramp]
    paces = sorted({p for _, _, p in record.commands})
    windows = []
    bounds = [f.at for f in faults] + [stopped]
    for f, end in zip(faults, bounds[1:], strict=True):
        windows.append({"kind": f.kind, "detail": f.detail, "took_s": f.took_s,
                        "at_s": round(f.at - t0),
                        **_window(record, observer, f.at, end)})  # fmt: skip
    loads = [x for _, x in observer.loads]
    statuses = Counter(status for _, status in finals.values())
    return {
        "tables": len({g["table"] for g in record.games.values()}),
        "games": len(finals), "games_by_status": dict(statuses),
        "games_ended": statuses.get("ended", 0),
        "played_s": round(seconds), "ramp_s": round(ramp),
        "commands": len(record.commands),
        "commands_per_s": round(len(record.commands) / seconds, 1),
        "commands_per_s_steady": round(len(steady) / max(1, stopped - t0 - ramp), 1),
        "command_ms": _ms(steady), "command_ms_all": _ms([ms for _, ms, _ in record.commands]),
        "command_ms_by_pace": {p: _ms([ms for t, ms, q in record.commands
                                       if q == p and t >= t0 + ramp]) for p in paces},
        "delivery_ms": _ms([ms for t, ms, _ in record.deliveries if t >= t0 + ramp]),
        "spectator_ms_by_via": {via: _ms([ms for t, ms, v in record.spectated
                                          if v == via and t >= t0 + ramp])
                                for via in sorted({v for _, _, v in record.spectated})},
        "errors": dict(record.errors), "refusals": record.refusals[:200],
        "setup_failures": record.setup_failures[:20],
        "conflicts": dict(record.conflicts),
        "retried": dict(record.retried), "crashed": played["crashed"],
        "unfinished_tasks": played["unfinished_tasks"],
        "sockets": _streams(record, finals), "settle_s": played.get("settle_s"),
        "cross_node": _cross_node(record),
        "overdue_games": len(observer.worst_by_game),
        "overdue_max_s": round(max(observer.worst_by_game.values(), default=0), 1),
        "overdue_sightings": len(observer.overdue),
        "overdue_worst": [(o.game, o.kind, round(o.late_s, 1), round(o.t - t0))
                          for o in sorted(observer.overdue, key=lambda o: -o.late_s)[:5]],
        "stalls": len(observer.stalls), "stall_max_s": max((s for *_, s in observer.stalls),
                                                            default=0),  # fmt: skip
        "pg_connections_max": observer.connections_max,
        "load_during": {"mean": round(sum(loads) / len(loads), 2) if loads else None,
                        "max": round(max(loads), 2) if loads else None},
        "load_at_stop": load_at_stop, "cpu_s": played["cpu_s"],
        "cpu_ms_per_command": _per(played["cpu_s"], len(record.commands)),
        "cpu_ms_per_batch": _per(played["cpu_s"], checks["deadlines"]["batches"]),
        "faults": windows,
        "before_faults": _window(record, observer, t0 + ramp, bounds[0]) if faults else None,
        **checks,
    }  # fmt: skip
