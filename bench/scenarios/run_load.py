"""One bench-load run against a running Stack: tables, the observer and the faults together,
then the stop, the settle and the checks (summed up by bench.reports.summary)."""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from bench.clients.frames import event_loop
from bench.clients.observer import Observer
from bench.clients.players import Player, make_players
from bench.clients.tables import CORRESPONDENCE, LIVE, Endpoints, Record, Table
from bench.harness import env, replica
from bench.harness.stack import Stack
from bench.reports import summary
from bench.scenarios import audits
from bench.scenarios.faults import Faults

SETTLE_S = 45.0  # ends early once every socket is at its game's last seq
VARIANTS_4 = ("standard", "pairs", "pairs_extreme")


def _layout(args: argparse.Namespace) -> list[dict]:
    """Each table's seats, bots, variant and pace: 2, 3 and 4 seats in turn; the last seat of
    every `bot_every`-th table of 3 or 4 seats is the built-in bot's."""
    rnd, out = random.Random(7), []
    for i in range(args.games):
        seats = 2 + i % 3
        bot = bool(args.bot_every) and i % args.bot_every == args.bot_every - 1 and seats > 2
        pace = LIVE if rnd.random() < args.live_share else CORRESPONDENCE
        out.append({"humans": seats - bot, "bots": [seats - 1] if bot else [], "pace": pace,
                    "variant": VARIANTS_4[i // 3 % 3] if seats == 4 else "standard"})  # fmt: skip
    return out


def _endpoints(running: Stack, i: int) -> Endpoints:
    """One node: everything through it. Two nodes: players' sockets through HAProxy, the
    spectator straight to node a (tables 0, 1 mod 4) or node b (2, 3 mod 4), and REST through
    HAProxy (even tables) or straight to the other node (odd tables), so every command of an
    odd table crosses from one node to the spectator's on the other."""
    if len(running.nodes) == 1:
        base = running.nodes[0].base
        ws = base.replace("http://", "ws://")
        return Endpoints(base, "node a", ws, ws)
    balancer = running.base.replace("http://", "ws://")
    watch, other = (0, 1) if i % 4 < 2 else (1, 0)
    names = "ab"
    spectator = running.nodes[watch].base.replace("http://", "ws://")
    if i % 2 == 0:
        return Endpoints(running.base, f"haproxy → {names[watch]}", balancer, spectator)
    return Endpoints(running.nodes[other].base, f"node {names[other]} → {names[watch]}",
                     balancer, spectator)  # fmt: skip


async def _play(running: Stack, args: argparse.Namespace, seated: list[list[Player]],
                layout: list[dict], record: Record, faults_class=Faults) -> dict:  # fmt: skip
    stop, t0 = asyncio.Event(), time.monotonic()
    ramp = min(30.0, args.duration / 6)
    until = t0 + args.duration
    observer = Observer(record, args.stall_s)
    faults = faults_class(running, record, args.faults, args.concurrency)
    tables = [Table(i, seated[i], lay["pace"], lay["variant"], lay["bots"],
                    _endpoints(running, i), record, stop, random.Random(i))
              for i, lay in enumerate(layout)]  # fmt: skip

    async def start(table: Table, delay: float) -> None:
        await asyncio.sleep(delay)
        await table.run(until)

    watchers = [asyncio.create_task(observer.run(stop))]
    if args.faults:
        every = (args.duration - ramp) / (len(args.faults) + 0.5)
        watchers.append(asyncio.create_task(faults.run(t0 + ramp + every / 2, every, stop)))
    if len(running.nodes) > 1:  # bench-nodes: spectators reading the lists (the replica's)
        watchers.append(asyncio.create_task(replica.list_readers(running.base, stop)))
    cpu_before = running.cpu()
    players = [asyncio.create_task(start(t, ramp * i / len(tables))) for i, t in enumerate(tables)]
    await asyncio.wait(players, timeout=max(0.0, until - time.monotonic()))
    stop.set()  # the players return at their next wait; faults and observer stop
    done2, still = await asyncio.wait([*players, *watchers], timeout=60)
    crashed = [repr(t.exception()) for t in done2 if t.exception()]
    cpu = env.cpu_per(cpu_before, running.cpu(), 1000)  # CPU seconds
    return {"t0": t0, "ramp_s": ramp, "stopped_at": time.monotonic(), "cpu_s": cpu,
            "faults": faults.done, "observer": observer, "crashed": crashed[:5],
            "unfinished_tasks": len(still)}  # fmt: skip


def _fresh_connection() -> None:
    """This process's connection back to its pool, and the pool's idle ones checked: after
    bench.scenarios.failover's switch they lead to a primary that is gone."""
    from django.db import connection

    connection.close()
    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.check()


def _finals() -> dict[int, tuple[int, str]]:
    from games.core.models import GameProjection

    rows = GameProjection.objects.values_list("game_id", "seq", "status")
    return {game: (seq, status) for game, seq, status in rows}


async def _settle(record: Record, finals: dict[int, tuple[int, str]]) -> float:
    """Celery and the runner are stopped: no seq moves any more. Give every open socket
    SETTLE_S seconds to reach its game's last seq, then close them all; returns the seconds
    it took."""
    started = time.monotonic()
    open_ = [s for s in record.streams if not s.closing]
    while time.monotonic() - started < SETTLE_S and any(
            s.last < finals.get(s.game, (0, ""))[0] for s in open_):  # fmt: skip
        await asyncio.sleep(0.25)
    took = time.monotonic() - started
    for s in open_:
        await s.close()
    readers = [r for g in record.games.values() for r in g.pop("readers", [])]
    if readers:
        await asyncio.wait(readers, timeout=15)
    return round(took, 1)


def run(running: Stack, args: argparse.Namespace, faults_class=Faults,
        record: Record | None = None) -> dict:  # fmt: skip
    """faults_class: Faults or one with more kinds (bench.scenarios.failover's kill of the primary);
    record: the clients' Record to fill, for a caller that checks more in it afterwards."""
    layout = _layout(args)
    players = make_players(sum(lay["humans"] for lay in layout), "bl")
    seated, at = [], 0
    for lay in layout:
        seated.append(players[at : at + lay["humans"]])
        at += lay["humans"]
    record = record if record is not None else Record()
    print(f"  {len(players)} players at {len(layout)} tables; playing ...", flush=True)
    with event_loop() as loop:
        played = loop.run(_play(running, args, seated, layout, record, faults_class))
        load_at_stop = env.load()
        for worker in [*running.workers, running.beat, *filter(None, [running.runner])]:
            worker.stop()  # deadlines freeze: the games' last seqs stay put for the checks
        _fresh_connection()
        finals = _finals()
        played["settle_s"] = loop.run(_settle(record, finals))
    print(f"  stopped; {len(finals)} games; auditing ...", flush=True)
    games = sorted(finals)
    checks = {
        "audit": audits.verify_all(games),
        "audit_cli": audits.verify_cli(games[:3]),
        "audit_staff": audits.audit_as_staff(running.base, games[:5]),
        "deadlines": audits.deadlines_kept(games),
    }
    return summary.summarize(record, played, finals, checks, load_at_stop)
