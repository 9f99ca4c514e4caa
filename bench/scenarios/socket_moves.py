"""(2b) Moves over the socket (issue 11): every seat of every game holds its own websocket
(`/ws/games/{id}/?token=`) and sends its commands on it (API.md, "Commands over the socket").

No GET: the view each seat needs arrives on its socket after every commit. A game's driver
waits until some seat's latest view offers a legal command (and that seat has had its view
after its own last ack: a sealed pass moves no seq, R19), sends one from `legal` as
`{"type": "command", "id", "command"}` and times from the send to that socket's `ack`. Phases
as for HTTP (bench.scenarios.http_moves): one game at a time, flat out, paced with a think
time, and many games paced. Beside them, the bare-commit figure of the same run: a single-row
INSERT on an autocommit psycopg connection to the same database (bare_commit_ms), so ratios
survive a noisy machine.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from websockets.asyncio.client import connect

from bench.clients.players import Player, client, make_players, new_game
from bench.harness.env import DATABASE_URL, Running, cpu_per, load, percentile

WARMUP_S = 3.0
ACK_TIMEOUT_S = 30.0


@dataclass
class Phase:
    name: str
    think_ms: float
    games: int = 50
    seconds: float = 20.0
    acks: list[float] = field(default_factory=list)  # ms, send → ack, after the warm-up
    errors: Counter = field(default_factory=Counter)
    games_ended: int = 0
    moves: int = 0
    measured_s: float = 0.0
    measure_from: float = 0.0
    stop_at: float = 0.0
    client_cpu: float = 0.0
    load: str = ""
    cpu_ms_per_move: dict = field(default_factory=dict)  # the whole phase, games made included
    window_cpu_ms_per_move: dict = field(default_factory=dict)  # the measured window's moves only

    @property
    def measuring(self) -> bool:
        return self.measure_from <= time.monotonic() < self.stop_at

    def summary(self) -> dict:
        a = self.acks or [float("nan")]
        return {
            "name": self.name, "think_ms": self.think_ms, "games": self.games,
            "commands": len(self.acks),
            "commands_per_s": round(len(self.acks) / max(self.measured_s, 1e-9), 1),
            "ack_ms_p50": round(percentile(a, 50), 2), "ack_ms_p90": round(percentile(a, 90), 2),
            "ack_ms_p99": round(percentile(a, 99), 2), "ack_ms_max": round(max(a), 1),
            "errors": dict(self.errors), "games_ended": self.games_ended,
            "measured_s": round(self.measured_s, 1), "client_cpu": round(self.client_cpu, 2),
            "load": self.load, "cpu_ms_per_move": self.cpu_ms_per_move,
            "window_cpu_ms_per_move": self.window_cpu_ms_per_move,
        }  # fmt: skip


class Seat:
    """One player's socket in one game: its latest view, and the acks it waits for."""

    def __init__(self, ws, changed: asyncio.Event) -> None:
        self.ws, self.changed = ws, changed
        self.view: dict | None = None
        self.fresh = True  # a view came after this seat's last ack
        self.waiting: dict[str, asyncio.Future] = {}

    async def read(self) -> None:
        async for frame in self.ws:
            if frame.startswith('{"type": "event"'):
                continue  # the log is not what this driver decides on
            message = json.loads(frame)
            kind = message["type"]
            if kind == "view":
                self.view, self.fresh = message["view"], True
                self.changed.set()
            elif kind in ("ack", "error") and message.get("id") in self.waiting:
                self.waiting.pop(message["id"]).set_result(message)

    async def send(self, command: dict) -> dict:
        id_ = uuid.uuid4().hex
        answer = asyncio.get_running_loop().create_future()
        self.waiting[id_] = answer
        self.fresh = False
        await self.ws.send(json.dumps({"type": "command", "id": id_, "command": command}))
        return await asyncio.wait_for(answer, ACK_TIMEOUT_S)


async def _open(base: str, game: int,
                players: list[Player]) -> tuple[list[Seat], list, asyncio.Event]:  # fmt: skip
    changed = asyncio.Event()
    url = base.replace("http://", "ws://") + f"/ws/games/{game}/"
    seats, readers = [], []
    for player in players:
        ws = await connect(f"{url}?token={player.token}", ping_interval=None, open_timeout=60,
                           max_size=2**22, close_timeout=2)  # fmt: skip
        seat = Seat(ws, changed)
        seats.append(seat)
        readers.append(asyncio.create_task(seat.read()))
    return seats, readers, changed


async def _close(seats: list[Seat], readers: list) -> None:
    for seat in seats:
        await seat.ws.close()
    await asyncio.gather(*readers, return_exceptions=True)


def _actor(seats: list[Seat], head: int) -> Seat | None:
    """A seat whose view is at the head and offers something; R19: one that passed gets a new
    view (legal: []) after its ack, so it waits for that view before it counts again."""
    for seat in seats:
        v = seat.view
        if v and seat.fresh and v["seq"] >= head and v["status"] == "active" and v["legal"]:
            return seat
    return None


async def _drive(http, base: str, players: list[Player], phase: Phase,
                 rnd: random.Random) -> None:  # fmt: skip
    while time.monotonic() < phase.stop_at:
        game, _ = await new_game(http, players)
        seats, readers, changed = await _open(base, game, players)
        head = 0
        try:
            while time.monotonic() < phase.stop_at:
                if any(s.view and s.view["status"] == "ended" for s in seats):
                    phase.games_ended += 1
                    break
                actor = _actor(seats, head)
                if actor is None:
                    changed.clear()
                    try:
                        await asyncio.wait_for(changed.wait(), timeout=5)
                    except TimeoutError:
                        phase.errors["nobody to act for 5 s"] += 1
                    continue
                view = actor.view
                command = {"expected_seq": view["seq"], **rnd.choice(view["legal"])}
                sent = time.perf_counter()
                answer = await actor.send(command)
                ms = (time.perf_counter() - sent) * 1000
                if answer["type"] != "ack":
                    phase.errors[answer["error"]["code"]] += 1
                    continue
                head = max(head, answer["seq"])
                phase.moves += 1
                if phase.measuring:
                    phase.acks.append(ms)
                if phase.think_ms:
                    await asyncio.sleep(phase.think_ms / 1000 * rnd.uniform(0.5, 1.5))
        except TimeoutError:
            phase.errors["no ack within 30 s"] += 1
        finally:
            await _close(seats, readers)


async def _phase(server: Running, tables: list[list[Player]], phase: Phase) -> None:
    tables = tables[: phase.games]
    async with client(server.base, connections=min(len(tables), 50) + 10) as http:
        cpu_before, started = server.cpu(), time.monotonic()
        phase.measure_from = started + WARMUP_S
        phase.stop_at = phase.measure_from + phase.seconds
        cpu = time.process_time()
        drivers = [_drive(http, server.base, seats, phase, random.Random(i))
                   for i, seats in enumerate(tables)]  # fmt: skip
        window = asyncio.create_task(_window_cpu(server, phase))
        await asyncio.wait_for(asyncio.gather(*drivers), timeout=WARMUP_S + phase.seconds + 120)
        await window
        phase.measured_s = min(time.monotonic(), phase.stop_at) - phase.measure_from
        phase.client_cpu = (time.process_time() - cpu) / (time.monotonic() - started)
        phase.load = load()
        phase.cpu_ms_per_move = cpu_per(cpu_before, server.cpu(), phase.moves)


async def _window_cpu(server: Running, phase: Phase) -> None:
    """The servers' CPU per acknowledged move between the warm-up's end and the phase's stop,
    beside the whole phase's: a paced phase makes its 50 games (HTTP create and joins, every
    seat's socket opened) and closes them for a few moves each, where one game at a time
    spreads that over a whole game's moves (issue 31 item 4)."""
    await asyncio.sleep(max(0.0, phase.measure_from - time.monotonic()))
    before, moves = server.cpu(), len(phase.acks)
    await asyncio.sleep(max(0.0, phase.stop_at - time.monotonic()))
    phase.window_cpu_ms_per_move = cpu_per(before, server.cpu(), len(phase.acks) - moves)


def tables(games: int) -> list[list[Player]]:
    """Players for `games` tables of 2, 3 and 4 seats."""
    seats = [2 + i % 3 for i in range(games)]
    players = make_players(sum(seats), "bench-ws")
    out, at = [], 0
    for n in seats:
        out.append(players[at : at + n])
        at += n
    return out


def bare_commit_ms(count: int = 400) -> dict:
    """A single-row INSERT with its COMMIT (autocommit) on a fresh psycopg connection to the
    bench database, `count` times: the floor any command's latency stands on."""
    import psycopg

    times = []
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        # A logged table: a TEMP one skips the WAL flush that every real commit waits for.
        conn.execute("CREATE TABLE IF NOT EXISTS bench_bare (id serial PRIMARY KEY, data jsonb)")
        for i in range(count):
            started = time.perf_counter()
            conn.execute("INSERT INTO bench_bare (data) VALUES (%s)", (json.dumps({"n": i}),))
            times.append((time.perf_counter() - started) * 1000)
        conn.execute("DROP TABLE bench_bare")
    return {"count": count, "p50_ms": round(percentile(times, 50), 3),
            "p99_ms": round(percentile(times, 99), 3), "load": load()}  # fmt: skip


def run(server: Running, seated: list[list[Player]], phases: list[Phase]) -> list[dict]:
    out = []
    for phase in phases:
        with asyncio.Runner() as runner:
            runner.run(_phase(server, seated, phase))
        out.append(phase.summary())
        done = out[-1]
        print(f"  {phase.name}: {done['commands']} acks, p50 {done['ack_ms_p50']} ms, "
              f"p99 {done['ack_ms_p99']} ms, errors {done['errors']}", flush=True)  # fmt: skip
    return out
