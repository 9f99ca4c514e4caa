"""(2) Moves over HTTP: 50 concurrent games, every seat a registered client, through uvicorn.

Each game's driver reads the awaited player's view (`GET /api/games/{id}/` with that player's
token) and sends one command from its `legal` list (`POST .../commands/` with an
Idempotency-Key), again and again; a game that ends is replaced by a new one with the same
players. Latency is timed per command at the client, from sending the POST to the whole answer.
Phases: one game at a time (the cost of a move without queueing), flat out (50 games, no pause
between moves: the server's capacity, latency mostly queueing) and paced (each bot thinks
`think_ms` between moves, so the offered load is below capacity).
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from bench.clients.players import Player, choose, client, make_players, new_game, timed
from bench.harness.env import Running, cpu_per, load, percentile

WARMUP_S = 3.0


@dataclass
class Phase:
    name: str
    think_ms: float
    games: int = 50  # how many of the tables play in this phase
    seconds: float = 20.0  # measured, after the warm-up
    commands: list[float] = field(default_factory=list)  # latencies (ms) after the warm-up
    reads: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    games_ended: int = 0
    measured_s: float = 0.0
    client_cpu: float = 0.0  # share of one core the bench client itself used
    load: str = ""
    measure_from: float = 0.0  # time.monotonic() bounds of the measured window
    stop_at: float = 0.0
    moves: int = 0  # every command sent, warm-up included (for the CPU figures)
    cpu_ms_per_move: dict = field(default_factory=dict)

    @property
    def measuring(self) -> bool:
        return self.measure_from <= time.monotonic() < self.stop_at

    def summary(self) -> dict:
        c, r = self.commands, self.reads
        return {
            "name": self.name, "think_ms": self.think_ms, "games": self.games,
            "commands": len(c),
            "commands_per_s": round(len(c) / self.measured_s, 1),
            "command_ms_p50": round(percentile(c, 50), 1),
            "command_ms_p90": round(percentile(c, 90), 1),
            "command_ms_p99": round(percentile(c, 99), 1),
            "command_ms_max": round(max(c), 1),
            "read_ms_p50": round(percentile(r, 50), 1), "read_ms_p99": round(percentile(r, 99), 1),
            "errors": dict(self.errors), "games_ended": self.games_ended,
            "measured_s": round(self.measured_s, 1), "client_cpu": round(self.client_cpu, 2),
            "load": self.load, "cpu_ms_per_move": self.cpu_ms_per_move,
        }  # fmt: skip


def _code(answer) -> str:
    try:
        return answer.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return f"http {answer.status_code}"


async def _awaited(http, game: int, seats: list[Player], view: dict,
                   phase: Phase) -> tuple[Player | None, dict]:  # fmt: skip
    """The first awaited player with something legal, and its view. R19: in a block window a
    player who passed still sees the others listed as awaited, so each one reads its own."""
    for seat in view["awaiting"]:
        url, headers = f"/api/games/{game}/", seats[seat].headers
        ms, answer = await timed(http, "GET", url, phase.errors, headers=headers)
        answer.raise_for_status()
        if phase.measuring:
            phase.reads.append(ms)
        view = answer.json()
        if view["legal"]:
            return seats[seat], view
    return None, view


async def _drive(http, seats: list[Player], phase: Phase, limit: int,
                 rnd: random.Random) -> None:  # fmt: skip
    game, view = await new_game(http, seats)
    while time.monotonic() < phase.stop_at and len(phase.commands) < limit:
        if view["status"] == "ended":
            phase.games_ended += 1
            game, view = await new_game(http, seats)
            continue
        actor, view = await _awaited(http, game, seats, view, phase)
        if actor is None:
            phase.errors["nobody to act"] += 1
            await asyncio.sleep(0.05)
            continue
        headers = {**actor.headers, "Idempotency-Key": uuid.uuid4().hex}
        ms, answer = await timed(http, "POST", f"/api/games/{game}/commands/", phase.errors,
                                 json=choose(view, rnd), headers=headers)  # fmt: skip
        if answer.status_code != 200:
            phase.errors[_code(answer)] += 1
            continue  # read the view again
        view = answer.json()["view"]
        phase.moves += 1
        if phase.measuring:
            phase.commands.append(ms)
        if phase.think_ms:
            await asyncio.sleep(phase.think_ms / 1000 * rnd.uniform(0.5, 1.5))


async def _phase(server: Running, tables: list[list[Player]], phase: Phase, limit: int) -> None:
    tables = tables[: phase.games]
    async with client(server.base, connections=len(tables) + 10) as http:
        cpu_before, started = server.cpu(), time.monotonic()
        phase.measure_from = started + WARMUP_S
        phase.stop_at = phase.measure_from + phase.seconds
        cpu = time.process_time()
        drivers = [_drive(http, seats, phase, limit, random.Random(i))
                   for i, seats in enumerate(tables)]  # fmt: skip
        await asyncio.wait_for(asyncio.gather(*drivers), timeout=WARMUP_S + phase.seconds + 60)
        phase.measured_s = min(time.monotonic(), phase.stop_at) - phase.measure_from
        phase.client_cpu = (time.process_time() - cpu) / (time.monotonic() - started)
        phase.load = load()
        phase.cpu_ms_per_move = cpu_per(cpu_before, server.cpu(), phase.moves)


def tables(games: int) -> list[list[Player]]:
    """Players for `games` tables of 2, 3 and 4 seats."""
    seats = [2 + i % 3 for i in range(games)]
    players = make_players(sum(seats), "bench-http")
    out, at = [], 0
    for n in seats:
        out.append(players[at : at + n])
        at += n
    return out


def run(server: Running, seated: list[list[Player]], phases: list[Phase],
        limit: int = 40_000) -> list[dict]:  # fmt: skip
    """Each phase in turn against `server` (fresh games each); returns their summaries."""
    for phase in phases:
        asyncio.run(_phase(server, seated, phase, limit))
    return [p.summary() for p in phases]
