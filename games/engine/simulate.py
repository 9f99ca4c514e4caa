"""Bot-vs-bot games for balance checks and benchmarks (no Django; `manage.py simulate` wraps it)."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from .bots import BOTS
from .decide import execute_in_place, start_game
from .state import ACTIVE


@dataclass
class GameResult:
    turns: int
    events: int
    winners: list[int]
    bots: list[str]


def game_seed(seed: int | str, index: int) -> bytes:
    """Game `index` of a run started with `seed`: reproducible, and different per game."""
    return hashlib.sha256(f"sejmi-sim:{seed}:{index}".encode()).digest()


def play_game(
    *, players: int, variant: str, bots: Sequence[str], seed: bytes, max_commands: int = 100_000
) -> GameResult:
    """Play one game to its end with bots in every seat (events folded as they are made)."""
    rnd = random.Random(seed)
    seats = [
        BOTS[bots[seat % len(bots)]](rnd)
        if bots[seat % len(bots)] == "random"
        else BOTS[bots[seat % len(bots)]]()
        for seat in range(players)
    ]
    events, state = start_game(
        seats=players, seed=seed, variant=variant, options={"bots": list(range(players))}
    )
    count = len(events)
    for _ in range(max_commands):
        if state.status != ACTIVE:
            break
        seat = state.awaiting[0]
        # This loop owns `state` (nobody else sees it), so it is changed in place, not copied.
        count += len(
            execute_in_place(state, seats[seat].choose(state, seat), actor=seat, seed=seed)
        )
    else:
        raise RuntimeError(f"game did not end within {max_commands} commands")
    names = [bots[seat % len(bots)] for seat in range(players)]
    return GameResult(state.turn, count, list(state.winners or []), names)


@dataclass
class Summary:
    games: int = 0
    turns: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    wins_by_seat: Counter = field(default_factory=Counter)
    wins_by_bot: Counter = field(default_factory=Counter)
    seats_by_bot: Counter = field(default_factory=Counter)

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.turns.append(result.turns)
        self.events.append(result.events)
        self.seats_by_bot.update(result.bots)
        for seat in result.winners:  # a shared win counts for every winner
            self.wins_by_seat[seat] += 1
            self.wins_by_bot[result.bots[seat]] += 1

    def as_dict(self, seconds: float) -> dict:
        def stats(xs: list[int]) -> dict:
            return (
                {"mean": round(sum(xs) / len(xs), 2), "min": min(xs), "max": max(xs)} if xs else {}
            )

        return {
            "games": self.games,
            "turns_per_game": stats(self.turns),
            "events_per_game": stats(self.events),
            "wins_by_seat": {str(k): v for k, v in sorted(self.wins_by_seat.items())},
            "wins_by_bot": dict(self.wins_by_bot),
            # wins per seat a bot held: comparable when bots hold unequal numbers of seats
            "win_rate_by_bot": {
                b: round(self.wins_by_bot[b] / n, 4) for b, n in self.seats_by_bot.items()
            },
            "seconds": round(seconds, 3),
            "games_per_second": round(self.games / seconds, 1) if seconds else None,
        }


def run(
    *,
    games: int,
    players: int,
    variant: str,
    bots: Sequence[str],
    seed: int | str,
    progress: Callable[[Iterator[int]], Iterator[int]] = iter,
) -> Iterator[GameResult]:
    for index in progress(iter(range(games))):
        yield play_game(players=players, variant=variant, bots=bots, seed=game_seed(seed, index))
