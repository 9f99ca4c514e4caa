"""What bench-load watches from outside while it runs, once a second:

- deadlines: every active game's projection `deadline_at` against PostgreSQL's now(); a game
  more than a second past its deadline is overdue (R21: the service acts at the deadline);
- silent sockets: a stream whose game has moved on (the projection's seq) while nothing new
  arrived on its socket for `stall_s` seconds gets a resync, as a user who reloads the page;
  counted, since docs/LIVE_STREAM.md promises that sockets do not need it;
- PostgreSQL connections to the run's database, and the load average.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field

import psycopg

from bench.clients.tables import Record
from bench.harness import env

OVERDUE_S = 1.0
SQL_GAMES = """
SELECT game_id, seq, status,
       EXTRACT(EPOCH FROM (now() - deadline_at)) AS late_s, deadline_kind
FROM games_gameprojection"""
SQL_CONNECTIONS = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"


@dataclass
class Overdue:
    t: float  # time.monotonic() of the sample
    game: int
    late_s: float
    kind: str


@dataclass
class Observer:
    record: Record
    stall_s: float
    overdue: list[Overdue] = field(default_factory=list)  # every overdue sighting
    worst_by_game: dict[int, float] = field(default_factory=dict)
    stalls: list[tuple[float, int, float]] = field(default_factory=list)  # (t, game, silent s)
    connections_max: int = 0
    loads: list[tuple[float, float]] = field(default_factory=list)  # (t, 1-min load)
    samples: int = 0
    missed: int = 0  # samples the database did not answer

    async def run(self, stop: asyncio.Event) -> None:
        conn = None
        try:
            while not stop.is_set():
                try:  # a lost database (the failover drill kills it) is missed samples, no crash
                    if conn is None or conn.closed:
                        conn = await psycopg.AsyncConnection.connect(
                            env.DATABASE_URL, autocommit=True, connect_timeout=2
                        )
                    await self._sample(conn)
                except psycopg.OperationalError:
                    self.missed += 1
                    if conn is not None:
                        await conn.close()
                    conn = None
                try:
                    await asyncio.wait_for(stop.wait(), timeout=1.0)
                except TimeoutError:
                    pass
        finally:
            if conn is not None:
                await conn.close()

    async def _sample(self, conn: psycopg.AsyncConnection) -> None:
        now = time.monotonic()
        self.samples += 1
        self.loads.append((now, os.getloadavg()[0]))
        rows = await (await conn.execute(SQL_GAMES)).fetchall()
        seqs = {}
        for game, seq, status, late_s, kind in rows:
            seqs[game] = seq
            if status == "active" and late_s is not None and late_s > OVERDUE_S:
                self.overdue.append(Overdue(now, game, float(late_s), kind))
                self.worst_by_game[game] = max(self.worst_by_game.get(game, 0), float(late_s))
        count = await (await conn.execute(SQL_CONNECTIONS)).fetchone()
        self.connections_max = max(self.connections_max, count[0])
        await self._stalls(seqs, now)

    async def _stalls(self, seqs: dict[int, int], now: float) -> None:
        for stream in self.record.streams:
            if stream.closing or stream.ws is None or stream.first is None:
                continue
            if stream.last >= seqs.get(stream.game, 0):
                stream.behind_since = None
                continue
            if stream.behind_since is None:
                stream.behind_since = now
            silent = now - max(stream.last_frame, stream.behind_since)
            if silent >= self.stall_s and await stream.resync():
                self.stalls.append((now, stream.game, round(silent, 1)))
                stream.behind_since = None
