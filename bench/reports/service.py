"""The figures as Markdown, and their place in docs/PERFORMANCE.md ("Service" section).

Only the text between the two markers is rewritten; what stands around them in the section
(the analysis of what limits the figures) is written by hand and kept.
"""

from __future__ import annotations

from bench.reports import doc
from bench.reports.doc import verdict

DOC = doc.DOC
BEGIN, END = doc.markers("service", "python -m bench.run --write-doc")


def _n(x: float) -> str:
    return f"{x:,.0f}"


def reference(result: dict) -> dict | None:
    """The run's floor (bench.scenarios.floor: the command path's statements in its round trips) and
    bare commit, p50 (ms) and the floor's CPU per move: what every figure is also given as a
    ratio to."""
    f = result.get("floor")
    if not f:
        return None
    way = f.get("as_the_path") or f["one_per_statement"]  # runs before the pipeline had one
    return {"floor_ms": way["p50_ms"], "bare_ms": min(b["p50_ms"] for b in f["bare_commit"]),
            "floor_cpu_ms": sum(way["cpu_ms_per_move"].values())}  # fmt: skip


def ratios(ms: float, ref: dict | None) -> str:
    """`ms` as multiples of the floor and of the bare commit ("" without the floor)."""
    if not ref:
        return ""
    return f"{ms / ref['floor_ms']:.1f}× floor, {ms / ref['bare_ms']:.0f}× bare commit"


def cpu_ratio(cpu: dict, ref: dict | None) -> str:
    """The servers' CPU per move (all but the bench client) as a multiple of the floor's."""
    if not ref:
        return ""
    total = sum(v for k, v in cpu.items() if k != "client")
    return f" (servers {total:.2f} ms = {total / ref['floor_cpu_ms']:.1f}× the floor's CPU)"


def floor_md(f: dict) -> list[str]:
    one, path, piped = f["one_per_statement"], f["as_the_path"], f["pipelined"]
    trips = f["round_trips"]
    bare = min(b["p50_ms"] for b in f["bare_commit"])

    def row(label: str, w: dict) -> str:
        cpu = w["cpu_ms_per_move"]
        return (f"| {label} | {w['moves']} | **{w['p50_ms']}** ms | {w['p50_ms'] / bare:.1f}× "
                f"| {w['p90_ms']} | {w['p99_ms']} | {w['max_ms']} | {cpu['client']} + "
                f"{cpu['postgres']} = {cpu['client'] + cpu['postgres']:.2f} ms |")  # fmt: skip

    bares = "; ".join(f"p50 {b['p50_ms']} ms, p99 {b['p99_ms']} ms (load {b['load']})"
                      for b in f["bare_commit"])  # fmt: skip
    common = trips["common_move"]
    steps = ", ".join(f"{name} {one['statement_ms_median'].get(name, '?')}" for name in common)
    spread = ", ".join(f"{n}: {c}" for n, c in trips["per_move"].items())
    return [
        f"{f['moves']} real moves ({f['games']} games of 2-4 human seats, a random legal command "
        "each, a fresh Idempotency-Key): each recorded from `game_command` in a rolled-back "
        "transaction, then sent by a bare psycopg 3 connection (no Django) and committed, "
        "in turn one statement per round trip (the command path before issue 19), in the "
        "command path's two round trips (BEGIN with the reads | the writes with COMMIT) and all "
        f"in one pipeline. {f['server']}, synchronous_commit {f['synchronous_commit']}, "
        f"fsync {f['fsync']}; load after {f['load']}.",
        "",
        "Bare commit (a single-row INSERT on an autocommit psycopg connection), before and "
        f"after: {bares}.",
        "",
        "| sent | moves | p50 | × bare commit | p90 | p99 | max | CPU per move: client + "
        "PostgreSQL backend |",
        "|---|---|---|---|---|---|---|---|",
        row("the command path's statements, one round trip each", one),
        row("**the floor**: the same in the command path's two round trips", path),
        row("the same statements in one pipeline (one round trip)", piped),
        "",
        f"Statements (BEGIN and COMMIT included) per command: median "
        f"{trips['median']:g}; moves by count: {spread}. The usual move "
        f"({trips['common_moves']} of {f['moves']}), with each statement's median ms: "
        f"{steps}.",
    ]


def appends_md(a: dict, ref: dict | None = None) -> list[str]:
    m, r = a["median"], a["rates"]

    def row(label: str, key: str, note: str = "") -> str:
        runs = ", ".join(_n(x) for x in r[key])
        return f"| {label} | **{_n(m[key])}** | {runs} | {note} |"

    def target(value: float, goal: float) -> str:
        return f"**{value}** ({verdict(value >= goal)})"

    return [
        f"{a['count']:,} events per contender per round, {a['rounds']} rounds alternating the "
        "contenders; rates are medians over the rounds, ratios medians of the ratios within "
        "each round (the contenders of one round ran seconds apart). Workload: the events of "
        "24 bot games (2-4 players) with their real payloads: "
        f"{a['payload_mean_bytes']} B of JSON data on average, "
        f"{a['payload_max_bytes']:,} B at most; {a['events_per_command']} events per command.",
        "",
        "| contender | events/s | rounds | |",
        "|---|---|---|---|",
        row("plain psycopg single-row `INSERT` into games_gameevent, autocommit", "plain",
            "1 round trip, commit included"),
        row("ours, one event per transaction: `atomic()` + `event_store.append`", "ours",
            "hash chain, ORM; BEGIN, INSERT, COMMIT"),
        row("ours, one transaction per command (as `games.table.commands` appends)", "ours_cmd",
            f"{_n(a['ours_cmd_commands_per_s'])} commands/s"),
        row("eventsourcing `Application.save()`, single-event saves", "es_app",
            "PERSISTENCE_MODULE=eventsourcing.postgres"),
        row("eventsourcing `Application.save()`, one save per command", "es_app_cmd", ""),
        row("eventsourcing `PostgresApplicationRecorder.insert_events`, one event", "es_recorder",
            "the recorder alone"),
        row("`table.commands.game_command`, the whole write path, in-process", "game_command",
            f"{_n(a['game_command_commands_per_s'])} commands/s; p50 "
            f"{a['game_command_ms_p50']} ms" + (f" ({ratios(a['game_command_ms_p50'], ref)})"
                                                if ref else "")
            + f", p99 {a['game_command_ms_p99']} ms"),
        "",
        "| reading of the targets | ours ÷ plain (≥ 0.5) | ours ÷ eventsourcing (≥ 2) |",
        "|---|---|---|",
        "| the issue's: ours a transaction per command, vs plain single-row INSERTs and "
        "eventsourcing single-event saves | "
        f"{target(a['ratio_ours_cmd_plain'], 0.5)} | {target(a['ratio_ours_cmd_es_app'], 2)} |",
        "| strict: every contender one event per transaction | "
        f"{target(a['ratio_ours_plain'], 0.5)} | {target(a['ratio_ours_es_app'], 2)} "
        f"(÷ its recorder alone: {a['ratio_ours_es_recorder']}) |",
        "| both stores one transaction per command | - | "
        f"{target(a['ratio_ours_cmd_es_app_cmd'], 2)} |",
    ]  # fmt: skip


def http_md(h: dict, ref: dict | None = None) -> list[str]:
    lines = [
        f"Up to {h['games']} concurrent games (2, 3 and 4 seats), {h['players']} players, each a "
        "token-authenticated HTTP client (httpx). A move = `GET /api/games/{id}/` as the "
        "awaited player, then `POST .../commands/` with a command from its `legal` and an "
        f"Idempotency-Key. {h['warmup_s']:.0f} s warm-up not counted; latency timed at the "
        "client, per POST.",
        "",
        "| phase | games | commands | commands/s | POST p50 | p90 | p99 | max | GET p50 | GET p99 "
        "| errors | client CPU | load after |" + (" POST p50 ÷ |" if ref else ""),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if ref else ""),
    ]  # fmt: skip
    for p in h["phases"]:
        name = p["name"] if not p["think_ms"] else f"{p['name']} (think ~{p['think_ms']:.0f} ms)"
        errors = ", ".join(f"{k}: {v}" for k, v in p["errors"].items()) or "none"
        lines.append(
            f"| {name} | {p['games']} | {p['commands']:,} | {p['commands_per_s']} "
            f"| {p['command_ms_p50']} ms "
            f"| {p['command_ms_p90']} | **{p['command_ms_p99']}** | {p['command_ms_max']} "
            f"| {p['read_ms_p50']} | {p['read_ms_p99']} | {errors} | {p['client_cpu']:.0%} "
            f"| {p['load']} |" + (f" {ratios(p['command_ms_p50'], ref)} |" if ref else "")
        )
    verdicts = [f"{p['name']} {p['think_ms']:.0f} ms {verdict(p['command_ms_p99'] < 50)}"
                if p["think_ms"] else f"{p['name']} {verdict(p['command_ms_p99'] < 50)}"
                for p in h["phases"] if p["games"] == h["games"]]  # fmt: skip
    lines += ["", f"Target p99 < 50 ms with {h['games']} games: " + "; ".join(verdicts) + "."]
    lines += ["", "CPU per move (its GETs and POST), from /proc: " + "; ".join(
        f"{p['name']}: " + ", ".join(f"{k} {v} ms" for k, v in p["cpu_ms_per_move"].items())
        + cpu_ratio(p["cpu_ms_per_move"], ref) for p in h["phases"]) + "."]  # fmt: skip
    return lines


def socket_md(w: dict, ref: dict | None = None) -> list[str]:
    bare = w["bare_commit"]
    floor = min(b["p50_ms"] for b in bare)
    lines = [
        "Every seat of every game holds its own websocket and sends its commands on it "
        "(`{\"type\": \"command\", \"id\", \"command\"}`); the view it decides on is the one "
        "pushed after each commit (no GET). Latency timed at the client, from sending the "
        f"frame to its `ack`. {w['warmup_s']:.0f} s warm-up not counted. {w['players']} players.",
        "",
        "Bare commit in the same run (a single-row INSERT on an autocommit psycopg connection): "
        + "; ".join(f"p50 {b['p50_ms']} ms, p99 {b['p99_ms']} ms (load {b['load']})" for b in bare)
        + ".",
        "",
        "| phase | games | acks | moves/s | ack p50 | ÷ bare commit |"
        + (" ÷ floor |" if ref else "") + " p90 | p99 | max | errors | client CPU | load after |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if ref else ""),
    ]  # fmt: skip
    for p in w["phases"]:
        name = p["name"] if not p["think_ms"] else f"{p['name']} (think ~{p['think_ms']:.0f} ms)"
        errors = ", ".join(f"{k}: {v}" for k, v in p["errors"].items()) or "none"
        lines.append(
            f"| {name} | {p['games']} | {p['commands']:,} | {p['commands_per_s']} "
            f"| {p['ack_ms_p50']} ms | {p['ack_ms_p50'] / floor:.1f}× "
            + (f"| {p['ack_ms_p50'] / ref['floor_ms']:.1f}× " if ref else "")
            + f"| {p['ack_ms_p90']} "
            f"| **{p['ack_ms_p99']}** | {p['ack_ms_max']} | {errors} | {p['client_cpu']:.0%} "
            f"| {p['load']} |"
        )  # fmt: skip
    one, flat, paced, many, one_paced = (w["phases"] + [None] * 5)[:5]
    checks = []
    if one:
        checks.append(f"one game at a time, ack p50 ≤ 3 ms: {one['ack_ms_p50']} ms "
                      f"{verdict(one['ack_ms_p50'] <= 3)} (≤ 10× the bare commit: "
                      f"{verdict(one['ack_ms_p50'] <= 10 * floor)})")  # fmt: skip
    if flat:
        checks.append(f"flat out ≥ 300 moves/s: {flat['commands_per_s']} "
                      f"{verdict(flat['commands_per_s'] >= 300)}")  # fmt: skip
    if paced:
        checks.append(f"{paced['games']} games paced, ack p99 < 50 ms: {paced['ack_ms_p99']} ms "
                      f"{verdict(paced['ack_ms_p99'] < 50)}")  # fmt: skip
    if many:
        ok = many["ack_ms_p99"] < 100 and not many["errors"]
        checks.append(f"{many['games']} games paced, p99 < 100 ms and 0 errors: "
                      f"{many['ack_ms_p99']} ms, {sum(many['errors'].values())} errors "
                      f"{verdict(ok)}")  # fmt: skip
    if many and one and many.get("window_cpu_ms_per_move"):
        web = many["window_cpu_ms_per_move"]["web"]
        checks.append(f"{many['games']} games paced, web CPU per move ≤ 1.2× one game's: "
                      f"{web} ms = {web / one['window_cpu_ms_per_move']['web']:.2f}× "
                      f"{verdict(web <= 1.2 * one['window_cpu_ms_per_move']['web'])}"
                      + (f" ({web / one_paced['window_cpu_ms_per_move']['web']:.2f}× one game "
                         "at the same rate)" if one_paced else ""))  # fmt: skip
    lines += ["", "Targets: " + "; ".join(checks) + "."]
    lines += ["", "CPU per move, from /proc, over the whole phase (its games made, joined "
              "and their sockets opened, for a few moves each when paced): " + "; ".join(
        f"{p['name']} ({p['games']}): " + ", ".join(
            f"{k} {v} ms" for k, v in p["cpu_ms_per_move"].items())
        + cpu_ratio(p["cpu_ms_per_move"], ref)
        for p in w["phases"]) + " (target: web ≤ 4 ms)."]  # fmt: skip
    if all(p.get("window_cpu_ms_per_move") for p in w["phases"]):
        lines += ["", "The same over the measured window only (the moves, not the tables): "
                  + "; ".join(f"{p['name']} ({p['games']}): " + ", ".join(
                      f"{k} {v} ms" for k, v in p["window_cpu_ms_per_move"].items())
                      for p in w["phases"]) + "."]  # fmt: skip
    return lines


def fanout_md(runs: list[dict], ref: dict | None = None) -> list[str]:
    lines = [
        "One game of 4 players (HTTP clients); anonymous spectators on `/ws/games/{id}/`, "
        "spread over several client processes (the count is beside the spectators); "
        "time from sending a command's POST to the last spectator receiving the `view` of its "
        "seq; commands one after another (with fewer than 100 commands, p99 is the slowest).",
        "",
        "| server | spectators | commands | last delivery p50 | p99 | max | POST p50 "
        "| not fully delivered | gaps / duplicates / behind | client CPU | load after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for f in runs:
        lines.append(
            f"| {f['variant']} | {f['spectators']} ({f.get('client_processes', 1)}) "
            f"| {f['commands']} "
            f"| {f['last_delivery_ms_p50']} ms | **{f['last_delivery_ms_p99']}** "
            f"| {f['last_delivery_ms_max']} | {f['post_ms_p50']} "
            f"| {f['commands_without_full_delivery']} | {f['spectators_with_gaps']} / "
            f"{f['spectators_with_duplicates']} / {f['spectators_not_at_end']} "
            f"| {f['client_cpu']:.0%} | {f['load']} |"
        )
    lines += ["", "Target p99 < 400 ms: " + "; ".join(
        f"{f['variant']} {verdict(f['last_delivery_ms_p99'] < 400)}" for f in runs
    ) + ". Every spectator must see every event exactly once: " + verdict(all(
        f["spectators_with_gaps"] == f["spectators_with_duplicates"] == 0
        and f["commands_without_full_delivery"] == 0 for f in runs)) + "."]  # fmt: skip
    if ref:
        lines += ["", "As ratios: " + "; ".join(
            f"{f['variant']}: last delivery p50 {ratios(f['last_delivery_ms_p50'], ref)}, "
            f"POST p50 {ratios(f['post_ms_p50'], ref)}" for f in runs) + "."]  # fmt: skip
    lines += ["", "CPU per command, from /proc: " + "; ".join(
        f"{f['variant']}: " + ", ".join(f"{k} {v} ms" for k, v in f["cpu_ms_per_command"].items())
        + cpu_ratio(f["cpu_ms_per_command"], ref) for f in runs) + "."]  # fmt: skip
    return lines


def markdown(result: dict) -> str:
    lines = [
        BEGIN,
        f"Measured {result['started']} on commit {result['code']} with `{result['command']}` "
        f"in {result['took_s']:.0f} s; load average before {result['load_before']}, after "
        f"{result['load_after']}.",
        f"Server: `{result['server']}` (docker-compose.yml's web command on loopback, 2 workers "
        "for the 2 cores) plus one Celery worker (`--pool solo`) and the deadline runner "
        "(`manage.py run_deadlines`, SEJMI_DEADLINE_RUNNER=1 as in compose), on sejmi.settings "
        "as shipped (psycopg pool per process), DEBUG off, throttles raised.",
        "",
    ]
    ref = reference(result)
    if ref:
        lines += ["#### The floor (issue 19)", "", *floor_md(result["floor"]), "",
                  f"Below, every latency is also given as a multiple of the floor's p50 "
                  f"({ref['floor_ms']} ms) and of the bare commit's ({ref['bare_ms']} ms), "
                  f"and the servers' CPU per move of the floor's ({ref['floor_cpu_ms']:.2f} "
                  "ms, client + backend).", ""]  # fmt: skip
    if "appends" in result:
        lines += ["#### Appends", "", *appends_md(result["appends"], ref), ""]
    if "http" in result:
        lines += ["#### Moves over HTTP", "", *http_md(result["http"], ref), ""]
    if "socket" in result:
        lines += ["#### Moves over the socket", "", *socket_md(result["socket"], ref), ""]
    if "fanout" in result:
        lines += ["#### Fan-out", "", *fanout_md(result["fanout"], ref), ""]
    lines.append(END)
    return "\n".join(lines)


def write_doc(block: str) -> None:
    """Put `block` between the markers of the Service section, creating what is missing."""
    doc.write_block(block, BEGIN, END, section="## Service\n\n")
