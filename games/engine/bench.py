"""`make bench-engine`: whole games per second with random bots, and folding a long history.

Targets: >= 1,000 complete 4-player games/s on one core (issue 11; issue 2 asked 500); fold
1,000 events < 10 ms. The games are played by `simulate.play_game`, which owns its state and
folds each command in place; the service's `execute` also copies the state once per command.
Run: python -m games.engine.bench [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from .decide import execute, new_game
from .evolve import fold
from .simulate import game_seed, play_game


def games_per_second(games: int, rounds: int) -> tuple[list[float], list[float]]:
    """Per round: games per wall-clock second, and per second of this process's CPU time
    (steadier on a shared machine: time spent waiting for a core is not counted)."""
    rates, cpu_rates = [], []
    for r in range(rounds):
        started, cpu_started = time.perf_counter(), time.process_time()
        for i in range(games):
            play_game(
                players=4, variant="standard", bots=["random"], seed=game_seed(f"bench{r}", i)
            )
        rates.append(games / (time.perf_counter() - started))
        cpu_rates.append(games / (time.process_time() - cpu_started))
    return rates, cpu_rates


def long_history(size: int) -> list:
    """The first `size` events of a bot game at least that long (6 players make long games)."""
    from .bots import RandomBot

    for i in range(1000):
        seed = game_seed("fold", i)
        events = new_game(seats=6, seed=seed, options={"bots": list(range(6))})
        state, bot = fold(events), RandomBot()
        while state.status == "active" and len(events) < size:
            seat = state.awaiting[0]
            new, state = execute(state, bot.choose(state, seat), actor=seat, seed=seed)
            events += new
        if len(events) >= size:
            return events[:size]
    raise RuntimeError("no game was long enough")


def fold_times_ms(events: list, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fold(events)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rates, cpu_rates = games_per_second(args.games, args.rounds)
    times = sorted(fold_times_ms(long_history(1000), 200))
    report = {
        "games_per_second_median": round(statistics.median(rates), 1),
        "games_per_second_runs": [round(r, 1) for r in rates],
        "games_per_cpu_second_median": round(statistics.median(cpu_rates), 1),
        "fold_1000_events_ms_median": round(statistics.median(times), 3),
        "fold_1000_events_ms_p99": round(times[int(len(times) * 0.99) - 1], 3),
        "events_per_second_fold": round(1000 / statistics.median(times) * 1000),
    }
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"4-player random-bot games/s: {report['games_per_second_median']} "
        f"(runs {report['games_per_second_runs']}; target >= 1,000); "
        f"per CPU second {report['games_per_cpu_second_median']}"
    )
    print(
        f"fold 1,000 events: median {report['fold_1000_events_ms_median']} ms, "
        f"p99 {report['fold_1000_events_ms_p99']} ms (target < 10 ms); "
        f"{report['events_per_second_fold']} events/s"
    )


if __name__ == "__main__":
    main()
