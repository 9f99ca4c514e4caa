"""(3) Fan-out: 500 websocket spectators on one game while its players send commands.

The players (4 seats, each a registered HTTP client) play one game; for each command we time
from sending the POST to the moment the last spectator has received the resulting `view`
message (seq = the command's new seq). Each spectator's stream is checked afterwards: every
event seq from its first view's seq + 1 to the game's last seq exactly once and in order (the
channel layer drops group messages past a channel's capacity silently; sockets must heal gaps).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from dataclasses import dataclass, field

from websockets.asyncio.client import connect

from bench.clients import choose, client, make_players, new_game
from bench.env import Running, cpu_per, load, percentile

# Frames are json.dumps({"type": "event", "event": {"seq": ...}}) and
# json.dumps({"type": "view", "view": {"id": ..., "seq": ...}}): read the seq off the front.
FRONT = re.compile(r'\{"type": "(event|view)", "(?:event|view)": \{(?:"id": \d+, )?"seq": (\d+)')
DELIVERY_TIMEOUT_S = 10.0


def parse(frame: str) -> tuple[str, int]:
    found = FRONT.match(frame)
    if found:
        return found.group(1), int(found.group(2))
    message = json.loads(frame)  # an unexpected layout: read it the slow way
    body = message.get(message.get("type"), {})
    return message.get("type", "?"), body.get("seq", -1)


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


async def _run(server: Running, seats, size: int, commands: int) -> dict:
    crowd, sockets, rnd, base = Spectators(size), [], random.Random(3), server.base
    async with client(base, connections=8) as http:
        game, view = await new_game(http, seats)
        url = base.replace("http://", "ws://") + f"/ws/games/{game}/"
        started = time.perf_counter()
        watchers = []
        for i in range(size):  # open in small waves, as a crowd arrives
            watchers.append(asyncio.create_task(_watch(url, base, i, crowd, sockets)))
            if i % 25 == 24:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(crowd.connected.wait(), timeout=90)
        connect_s = time.perf_counter() - started
        cpu, wall = server.cpu(), time.perf_counter()
        last, posts, lost = [], [], 0
        for _ in range(commands):
            if view["status"] != "active":
                break
            actor, view = await _acting_view(http, game, seats, view)
            headers = {**actor.headers, "Idempotency-Key": uuid.uuid4().hex}
            sent = time.perf_counter()
            answer = await http.post(f"/api/games/{game}/commands/", json=choose(view, rnd),
                                     headers=headers)  # fmt: skip
            posts.append((time.perf_counter() - sent) * 1000)
            answer.raise_for_status()
            seq, view = answer.json()["seq"], answer.json()["view"]
            d = crowd.deliveries.setdefault(seq, Delivery())
            try:
                await asyncio.wait_for(d.done.wait(), timeout=DELIVERY_TIMEOUT_S)
            except TimeoutError:
                lost += 1
            if d.times:
                last.append((max(d.times) - sent) * 1000)
        used = cpu_per(cpu, server.cpu(), len(posts))
        client_cpu = used["client"] * len(posts) / 1000 / (time.perf_counter() - wall)
        await asyncio.sleep(0.5)  # let stragglers land before the continuity check
        for ws in sockets:
            await ws.close()
        await asyncio.wait_for(asyncio.gather(*watchers), timeout=30)
    return {
        "spectators": size, "connected_in_s": round(connect_s, 1), "commands": len(last),
        "last_delivery_ms_p50": round(percentile(last, 50), 1),
        "last_delivery_ms_p99": round(percentile(last, 99), 1),
        "last_delivery_ms_max": round(max(last), 1),
        "post_ms_p50": round(percentile(posts, 50), 1),
        "commands_without_full_delivery": lost, **crowd.check(view["seq"]),
        "client_cpu": round(client_cpu, 2), "load": load(), "cpu_ms_per_command": used,
    }  # fmt: skip


def run(server: Running, spectators: int = 500, commands: int = 30) -> dict:
    seats = make_players(4, "bench-fanout")
    runner = _runner()
    with runner:
        return runner.run(_run(server, seats, spectators, commands))


def _runner() -> asyncio.Runner:
    try:
        import uvloop

        return asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        return asyncio.Runner()
