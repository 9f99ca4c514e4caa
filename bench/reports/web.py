"""bench/scenarios/web.py's figures as a Markdown table, and their place in docs/PERFORMANCE.md: the
block between the markers of the "## Web page" section (the section is appended if missing;
nothing else in the file changes)."""

from __future__ import annotations

from bench.reports import doc
from bench.reports.doc import verdict

SECTION = """## Web page

Command: `make bench-web` (= `.venv/bin/python -m bench.web --write-doc`). It drops and migrates
a database of its own (`sejmi_bench_web`), uses Redis database 13, starts the server as shipped
(docker-compose.yml's uvicorn command, 2 workers, DEBUG off) on a free loopback port and drives
Debian's headless Chromium. Times are taken inside the page with `performance.now()` by a
script added before the page's own (bench/clients/web_probe.py): a MutationObserver notes when
the DOM changed (before the next paint), the first listener of the page's WebSocket when a frame
arrived, a capture-phase keydown listener when a key reached the page. Bytes are the
uncompressed bodies of every script and stylesheet a fresh page loads.

"""
BEGIN, END = doc.markers("web", "python -m bench.web --write-doc")
BUDGET_MS = {"render": 1000, "view": 100, "event": 100, "step_cached": 50}
BUDGET_BYTES = 150 * 1024
ROWS = [
    ("render", "first table render: navigation start → the view drawn (cold cache)"),
    ("html", "… of which: navigation start → the table's HTML received"),
    ("dom", "… of which: navigation start → DOMContentLoaded done (modules run)"),
    ("view", "websocket `view` frame → `#table[data-seq]` shows its seq"),
    ("event", "websocket `event` frame → its `#log` entry"),
    ("step_first", "replay step, first pass (key → `#replay[data-seq]`)"),
    ("step_cached", "replay step from cache (key → `#replay[data-seq]`)"),
]


def table(f: dict) -> str:
    lines = ["| what | n | p50 | max | budget |", "|---|---|---|---|---|"]
    for key, label in ROWS:
        s, budget = f[key], BUDGET_MS.get(key)
        judged = f"< {budget} ms: {verdict(s['max'] < budget)}" if budget else "—"
        lines.append(f"| {label} | {s['n']} | {s['p50']} ms | {s['max']} ms | {judged} |")
    lines += ["", "| page | JavaScript | CSS | total | budget |", "|---|---|---|---|---|"]
    for page, sizes in f["bytes"].items():
        total = sizes["script"] + sizes["stylesheet"]
        lines.append(
            f"| {page} | {sizes['script'] / 1024:.1f} KB | {sizes['stylesheet'] / 1024:.1f} KB "
            f"| {total / 1024:.1f} KB | < 150 KB: {verdict(total < BUDGET_BYTES)} |"
        )
    return "\n".join(lines)


def doc_block(f: dict) -> str:
    return "\n".join(
        [
            BEGIN,
            "",
            f"Command: `{f['command']}`, measured {f['when']} on commit {f['commit']} "
            f"(load average {f['load']}).",
            "",
            table(f),
            "",
            END,
        ]
    )


def write_doc(block: str) -> None:
    doc.write_block(block, BEGIN, END, section=SECTION)
