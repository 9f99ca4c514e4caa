"""`make bench-web`: the web page's budgets (issue 8), in headless Chromium on loopback.

    python -m bench.web [--loads 7] [--events 40] [--steps 30] [--write-doc] [--json FILE]

Drops, creates and migrates a database of its own (BENCH_WEB_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/sejmi_bench_web) and uses Redis BENCH_WEB_REDIS_URL (default
redis://127.0.0.1:6379/13); starts the server as shipped (docker-compose.yml's uvicorn command,
2 workers, DEBUG off, rigged games allowed) and Debian's Chromium, then measures, in the page
(bench/clients/web_probe.py):
1. first table render: navigation start to the table showing the view (its seq on #table, a
   die on every seat, the hand), a player's page with a cold cache, --loads times;
2. a websocket event reflected in the page: from a frame's arrival to the DOM showing it
   (`view` → #table[data-seq], `event` → its #log entry), for --events commands sent over the
   API by the players of a rigged two-player game;
3. a replay step from cache: ArrowRight / ArrowLeft to #replay[data-seq] updated, --steps
   steps each way after a first pass over the same seqs;
4. the JavaScript and CSS bytes (uncompressed) each page loads.
Budgets: render < 1 s, event < 100 ms, replay step < 50 ms, JS + CSS < 150 KB a page.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.clients.web_probe import SCRIPTS, event_latencies, static_bytes, step_latency
from bench.harness import env
from bench.reports.web import doc_block, table, write_doc
from tests.browser.api import Player, play_out, register, settled
from tests.browser.ui import login, open_table

DATABASE_URL = os.environ.get(
    "BENCH_WEB_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sejmi_bench_web"
)
REDIS_URL = os.environ.get("BENCH_WEB_REDIS_URL", "redis://127.0.0.1:6379/13")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
RIG = {"lives": [6, 6], "first": 0}


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=7, help="cold table loads timed")
    parser.add_argument("--events", type=int, default=40, help="commands whose frames are timed")
    parser.add_argument("--steps", type=int, default=30, help="replay steps timed each way")
    parser.add_argument("--write-doc", action="store_true", help="update docs/PERFORMANCE.md")
    parser.add_argument("--json", help="also write the figures to this file")
    return parser.parse_args(argv)


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 1),
        "max": round(max(values), 1),
    }


def new_page(browser, base: str, state: dict | None = None, expect: dict | None = None):
    context = browser.new_context(base_url=base, storage_state=state)
    context.set_default_timeout(15_000)
    if expect is not None:
        context.add_init_script(f"window.__expect = {json.dumps(expect)};")
    context.add_init_script(SCRIPTS)
    return context.new_page()


def move(players: list[Player], gid: int, rnd: random.Random) -> dict | None:
    """One random legal command by whoever may act; the new view (None once it ended)."""
    for player in players:
        view = player.view(gid)
        if view["status"] == "ended":
            return None
        if view["legal"]:
            return player.command(gid, rnd.choice(view["legal"]), view["seq"])["view"]
    raise AssertionError(f"nobody may act in game {gid}")


def renders(browser, base, state, eva: Player, gid: int, loads: int) -> dict[str, list]:
    """Cold loads of Eva's table: when the view was drawn, and on the way there when the HTML
    had arrived and when DOMContentLoaded was done (the module scripts have run)."""
    view = eva.view(gid)
    expect = {"seq": view["seq"], "seats": len(view["players"]), "hand": len(view["hand"])}
    times: dict[str, list] = {"render": [], "html": [], "dom": []}
    for _ in range(loads):
        page = new_page(browser, base, state, expect)
        page.goto(f"/games/{gid}/")
        page.wait_for_function("() => window.__bench.rendered !== undefined")
        marks = page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return [window.__bench.rendered, n.responseEnd, n.domContentLoadedEventEnd]; }"
        )
        for key, value in zip(times, marks, strict=True):
            times[key].append(value)
        page.context.close()
    return times


def new_game(eva: Player, jan: Player) -> int:
    gid = eva.create_game(2, rig=RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    return gid


def events(browser, base, state, players, gid, count, rnd) -> dict[str, list[float]]:
    """Commands over the API one at a time while Eva's page follows (a new game when one
    ends); latencies per frame."""
    out: dict[str, list[float]] = {"view": [], "event": []}
    sent = 0
    while sent < count:
        page = new_page(browser, base, state)
        open_table(page, gid)
        while sent < count and (view := move(players, gid, rnd)) is not None:
            sent += 1
            page.wait_for_function(
                "(s) => Number(document.querySelector('#table').dataset.seq) >= s",
                arg=view["seq"],
            )
            time.sleep(0.05)  # the frames of one command apart from the next one's
        for kind, values in event_latencies(page).items():
            out[kind] += values
        page.context.close()
        gid = new_game(*players)
    return out


def replay_steps(browser, base: str, gid: int, steps: int) -> dict[str, list[float]]:
    page = new_page(browser, base)
    page.goto(f"/games/{gid}/replay/?at=1")
    page.wait_for_selector('#replay[data-seq="1"]')  # the template's own data-seq is 0
    out: dict[str, list[float]] = {"first": [], "cached": []}
    for kind, keys in (("first", ["ArrowRight"]), ("cached", ["ArrowLeft", "ArrowRight"])):
        for key in keys:
            for _ in range(steps):
                seq = int(page.get_attribute("#replay", "data-seq"))
                page.keyboard.press(key)
                out[kind].append(step_latency(page, seq + (1 if key == "ArrowRight" else -1)))
    page.context.close()
    return out


def page_bytes(browser, base: str, state: dict, gid: int, ended: int) -> dict[str, dict]:
    urls = {
        "lobby": "/",
        "log in": "/login/",
        "sign up": "/signup/",
        "my games": "/me/",
        "table": f"/games/{gid}/",
        "replay viewer": f"/games/{ended}/replay/?at=1",
    }
    out = {}
    for name, url in urls.items():
        page = new_page(browser, base, state)
        out[name] = static_bytes(page, url)
        page.context.close()
    return out


def measure(base: str, args: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    rnd = random.Random(8)
    eva, jan = register(base, "eva"), register(base, "jan")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = new_page(browser, base)
        login(page, eva)
        state = page.context.storage_state()
        page.context.close()
        gid = new_game(eva, jan)
        for _ in range(12):  # a table with a history: log, discard, lives
            move([eva, jan], gid, rnd)
        render = renders(browser, base, state, eva, gid, args.loads)
        frames = events(browser, base, state, [eva, jan], gid, args.events, rnd)
        play_out(gid, [eva, jan], rnd, timeout=120)
        live = new_game(eva, jan)
        settled(eva, live, lambda v: v["status"] == "active")
        steps = replay_steps(browser, base, gid, args.steps)
        sizes = page_bytes(browser, base, state, live, gid)
        browser.close()
    return {
        "render": summary(render["render"]),
        "html": summary(render["html"]),
        "dom": summary(render["dom"]),
        "view": summary(frames["view"]),
        "event": summary(frames["event"]),
        "step_first": summary(steps["first"]),
        "step_cached": summary(steps["cached"]),
        "bytes": sizes,
    }


def main(argv: list[str] | None = None) -> dict:
    args = _args(argv)
    env.fresh_database(DATABASE_URL)
    env.flush_redis(REDIS_URL)
    load_before = env.load()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / "bench-web-uvicorn.log"
    with env.web_only(
        log, DATABASE_URL=DATABASE_URL, REDIS_URL=REDIS_URL, SEJMI_ALLOW_RIGGED="1"
    ) as base:
        figures = measure(base, args)
    env.flush_redis(REDIS_URL)
    figures.update(
        when=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        commit=env.code_version(),
        command=shlex.join(["python", "-m", "bench.web", *(argv or sys.argv[1:])]),
        load=f"{load_before} before, {env.load()} after",
    )
    print(table(figures))
    if args.write_doc:
        write_doc(doc_block(figures))
        print("docs/PERFORMANCE.md updated")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    main()
