"""Pair a Swiss round of 1,000 players with five rounds of history (issue 27: under 2 s).

    .venv/bin/python -m bench.tournament_pairing   (make bench-tournaments)

The history is five earlier rounds paired by the same function from a seeded random order,
with points drawn from each table's places; the timed call pairs round six by the standings.
Pure: no database (games.tournaments.pairing)."""

from __future__ import annotations

import random
import time

from games.tournaments.pairing import met_counts, pair, repeats

PLAYERS, ROUNDS, LO, HI = 1000, 5, 3, 4


def main() -> None:
    rnd = random.Random(27)
    players = [f"player{i}" for i in range(PLAYERS)]
    points = dict.fromkeys(players, 0.0)
    history: list[list[str]] = []
    for _ in range(ROUNDS):
        order = sorted(players, key=lambda p: (-points[p], rnd.random()))
        for table in pair(order, points, history, LO, HI).tables:
            history.append(table)
            for place, name in enumerate(rnd.sample(table, len(table))):
                points[name] += place / (len(table) - 1)
    order = sorted(players, key=lambda p: -points[p])
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        result = pair(order, points, history, LO, HI)
        timings.append(time.perf_counter() - started)
    again = repeats(result.tables, met_counts(history))
    print(f"{PLAYERS} players, {ROUNDS} rounds of history, tables {LO}-{HI}: "
          f"{len(result.tables)} tables, {len(result.byes)} byes, {again} repeated pairs; "
          f"pairing {min(timings):.3f} s best, {max(timings):.3f} s worst of 3")  # fmt: skip


if __name__ == "__main__":
    main()
