"""(3) Fan-out: 2,000 websocket spectators (several client processes) on one game in play.

The players (4 seats, each a registered HTTP client) play one game; for each command we time
from sending the POST to the moment the last spectator has received the resulting `view`
message (seq = the command's new seq). Each spectator's stream is checked afterwards: every
event seq from its first view's seq + 1 to the game's last seq exactly once and in order (the
channel layer drops group messages past a channel's capacity silently; sockets must heal gaps).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import queue
import random
import time
import uuid
from dataclasses import dataclass, field

from websockets.asyncio.client import connect

from bench.clients.frames import event_loop, parse
from bench.clients.players import choose, client, make_players, new_game
from bench.harness.env import Running, cpu_per, load, percentile

DELIVERY_TIMEOUT_S = 10.0


@dataclass
class Delivery:
    """Who has received the view of one seq, and when the last one did."""

    count: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)
    times: list[float] = field(default_factory=list)


@dataclass
class Spectators:
    size: int
    first_view: list[int | None] = field(default_factory=list)
    events: list[list[int]] = field(default_factory=list)
    views: list[list[int]] = field(default_factory=list)
    deliveries: dict[int, Delivery] = field(default_factory=dict)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.first_view = [None] * self.size
        self.events = [[] for _ in range(self.size)]
        self.views = [[] for _ in range(self.size)]

    def received(self, i: int, frame: str) -> None:
        kind, seq = parse(frame)
        if kind == "event":
            self.events[i].append(seq)
            return
        if kind != "view":
            self.errors.append(frame[:200])
            return
        self.views[i].append(seq)
        if self.first_view[i] is None:
            self.first_view[i] = seq
            if sum(v is not None for v in self.first_view) == self.size:
                self.connected.set()
            return
        d = self.deliveries.setdefault(seq, Delivery())
        d.count += 1
        d.times.append(time.perf_counter())
        if d.count == self.size:
            d.done.set()

    def check(self, last_seq: int) -> dict:
        """Seq continuity per spectator: no event missed, none twice, a view per batch."""
        gaps = dups = short = 0
        for first, seen in zip(self.first_view, self.events, strict=True):
            expected = list(range((first or 0) + 1, last_seq + 1))
            if seen != expected:
                dups += len(seen) != len(set(seen))
                gaps += bool(set(expected) - set(seen))
                short += seen[-1:] != expected[-1:]
        return {"spectators_with_gaps": gaps, "spectators_with_duplicates": dups,
                "spectators_not_at_end": short, "bad_frames": len(self.errors)}  # fmt: skip


async def _watch(url: str, origin: str, i: int, crowd: Spectators, sockets: list) -> None:
    try:
        async with connect(url, origin=origin, ping_interval=None, open_timeout=60,
                           max_size=2**22, close_timeout=2) as ws:  # fmt: skip
            sockets.append(ws)
            async for frame in ws:
                crowd.received(i, frame)
    except Exception as err:  # counted, and the check will show what it missed
        crowd.errors.append(f"spectator {i}: {err!r}")


async def _acting_view(http, game: int, seats, view: dict) -> tuple[object, dict]:
    for seat in view["awaiting"]:  # R19: a player who passed still sees the others listed
        answer = await http.get(f"/api/games/{game}/", headers=seats[seat].headers)
        answer.raise_for_status()
        if answer.json()["legal"]:
            return seats[seat], answer.json()
    raise RuntimeError(f"nobody may act in game {game} at seq {view['seq']}")


def _crowd(url: str, origin: str, size: int, ready, reports, orders) -> None:
    """One client process: `size` spectators. Reports ("ready",) once all have their first
    view, ("seq", seq, last receive time) each time all of them have the view of a seq (the
    clock is CLOCK_MONOTONIC, shared by the processes), and at ("stop", last seq) its check."""

    async def main() -> None:
        crowd, sockets = Spectators(size), []
        watchers = []
        for i in range(size):  # open in small waves, as a crowd arrives
            watchers.append(asyncio.create_task(_watch(url, origin, i, crowd, sockets)))
            if i % 25 == 24:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(crowd.connected.wait(), timeout=120)
        ready.put(("ready",))
        told: set[int] = set()
        loop = asyncio.get_running_loop()
        while True:
            for seq, d in list(crowd.deliveries.items()):
                if d.done.is_set() and seq not in told:
                    told.add(seq)
                    reports.put(("seq", seq, max(d.times)))
            try:
                order = await loop.run_in_executor(None, orders.get, True, 0.005)
            except queue.Empty:
                continue
            await asyncio.sleep(0.5)  # let stragglers land before the continuity check
            for ws in sockets:
                await ws.close()
            await asyncio.wait_for(asyncio.gather(*watchers), timeout=30)
            reports.put(("check", crowd.check(order[1]), time.process_time()))
            return

    with event_loop() as runner:
        runner.run(main())


async def _run(server: Running, seats, size: int, commands: int, processes: int) -> dict:
    rnd, base = random.Random(3), server.base
    ctx = multiprocessing.get_context("spawn")
    ready, reports = ctx.Queue(), ctx.Queue()
    orders = [ctx.Queue() for _ in range(processes)]
    shares = [size // processes + (i < size % processes) for i in range(processes)]
    loop = asyncio.get_running_loop()

    async def get(q, timeout: float):
        return await loop.run_in_executor(None, q.get, True, timeout)

    async with client(base, connections=8) as http:
        # Live spectators (spectator_delay 0): each gets every batch as it commits, the
        # dearer case (delayed frames are rendered once per batch for all of them).
        game, view = await new_game(http, seats, {"spectator_delay": 0})
        url = base.replace("http://", "ws://") + f"/ws/games/{game}/"
        started = time.perf_counter()
        procs = [ctx.Process(target=_crowd, args=(url, base, n, ready, reports, orders[i]))
                 for i, n in enumerate(shares)]  # fmt: skip
        for proc in procs:
            proc.start()
        for _ in procs:
            await get(ready, 180)
        connect_s = time.perf_counter() - started
        cpu, wall = server.cpu(), time.perf_counter()
        last, posts, lost, sealed = [], [], 0, 0
        while len(last) + lost < commands:
            if view["status"] != "active":
                break
            actor, view = await _acting_view(http, game, seats, view)
            headers = {**actor.headers, "Idempotency-Key": uuid.uuid4().hex}
            sent = time.perf_counter()
            answer = await http.post(f"/api/games/{game}/commands/", json=choose(view, rnd),
                                     headers=headers)  # fmt: skip
            posts.append((time.perf_counter() - sent) * 1000)
            answer.raise_for_status()
            before, (seq, view) = view["seq"], (answer.json()["seq"], answer.json()["view"])
            if seq == before:  # a sealed pass (R19): nothing is sent to spectators
                sealed += 1
                continue
            times: list[float] = []
            try:
                while len(times) < processes:
                    kind, got, at = await get(reports, DELIVERY_TIMEOUT_S)
                    if kind == "seq" and got == seq:
                        times.append(at)
            except queue.Empty:
                lost += 1
            if times:
                last.append((max(times) - sent) * 1000)
        used = cpu_per(cpu, server.cpu(), len(posts))
        spent = time.perf_counter() - wall
        for q in orders:
            q.put(("stop", view["seq"]))
        checks, client_cpu = [], 0.0
        while len(checks) < processes:
            message = await get(reports, 60)
            if message[0] == "check":
                checks.append(message[1])
                client_cpu += message[2]
        for proc in procs:
            proc.join(timeout=10)
    check = {k: sum(c[k] for c in checks) for k in checks[0]}
    return {
        "spectators": size, "client_processes": processes,
        "connected_in_s": round(connect_s, 1), "commands": len(last),
        "last_delivery_ms_p50": round(percentile(last, 50), 1),
        "last_delivery_ms_p99": round(percentile(last, 99), 1),
        "last_delivery_ms_max": round(max(last), 1),
        "post_ms_p50": round(percentile(posts, 50), 1),
        "commands_without_full_delivery": lost, "sealed_passes": sealed, **check,
        "client_cpu": round(client_cpu / (time.perf_counter() - started), 2),
        "load": load(), "cpu_ms_per_command": used, "measured_s": round(spent, 1),
    }  # fmt: skip


def run(server: Running, spectators: int = 2000, commands: int = 30,
        processes: int = 4) -> dict:  # fmt: skip
    """`spectators` spread over `processes` client processes (one Python process cannot read
    2,000 sockets' frames fast enough to time the server rather than itself)."""
    seats = make_players(4, "bench-fanout")
    with event_loop() as runner:
        return runner.run(_run(server, seats, spectators, commands, processes))
