"""Issue 30's odds: the CPU a finished game's odds cost (games/engine/odds.py, PLAYOUTS
playouts at the start of every turn), for bot games of 3 and 4 seats.
Run: .venv/bin/python -m bench.odds [--games N] (N games per seat count; ~8 s each)."""

from __future__ import annotations

import argparse
import json
import random
import time

from games.engine import HeuristicBot, RandomBot, new_game
from games.engine.decide import execute_in_place, start_game
from games.engine.odds import PLAYOUTS, turn_odds
from games.engine.simulate import game_seed


def game_events(seats: int, index: int) -> list:
    """A finished game of heuristic and random bots (every other seat), its whole log."""
    seed = game_seed("odds-bench", f"{seats}:{index}")
    rnd = random.Random(seed)
    bots = [HeuristicBot() if s % 2 else RandomBot(rnd) for s in range(seats)]
    events, state = start_game(seats=seats, seed=seed, options={"bots": list(range(seats))})
    while state.status == "active":
        seat = state.awaiting[0]
        events += execute_in_place(state, bots[seat].choose(state, seat), actor=seat, seed=seed)
    return events


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    assert new_game  # the engine's public door is what the service uses too
    rows = []
    for seats in (3, 4):
        for index in range(args.games):
            events = game_events(seats, index)
            started = time.process_time()
            points = turn_odds(events, PLAYOUTS, random.Random(index))
            cpu = time.process_time() - started
            rows.append(
                {
                    "seats": seats,
                    "events": len(events),
                    "points": len(points),
                    "cpu_s": round(cpu, 2),
                    "ms_per_playout": round(1000 * cpu / (len(points) * PLAYOUTS), 2),
                }
            )
    for row in rows:
        print(json.dumps(row))
    cpu = [r["cpu_s"] for r in rows]
    print(
        json.dumps(
            {
                "playouts": PLAYOUTS,
                "games": len(rows),
                "cpu_s_mean": round(sum(cpu) / len(cpu), 2),
                "cpu_s_max": max(cpu),
            }
        )
    )


if __name__ == "__main__":
    main()
