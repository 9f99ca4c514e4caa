"""Each seat's chance to win from a moment (issue 30), by the built-in bot's playouts.

A playout starts from the true state (every hand as it was), with the cards no seat has seen
(the draw pile) reshuffled and fresh dice (a seed of its own), and lets the heuristic bot play
every seat to the end. A seat's estimate is the share of playouts it won (a shared win counts
for each winner, so the estimates of a pairs game sum to about 2). With n playouts the
standard error of an estimate p is sqrt(p(1-p)/n): at most 0.05 for n = 100 (p = 0.5).
"""

from __future__ import annotations

import random

from . import events as ev
from .bots import HeuristicBot
from .decide import execute_in_place
from .evolve import apply_all, fold
from .state import ACTIVE, GameState

PLAYOUTS = 100
MAX_COMMANDS = 20_000  # a guard: a bot game is a few hundred commands


def win_chances(s: GameState, playouts: int, rnd: random.Random) -> list[float]:
    """Each seat's share of `playouts` won from `s` (an active game)."""
    wins = [0] * s.n
    bot = HeuristicBot()
    for _ in range(playouts):
        work = s.copy()
        rnd.shuffle(work.draw)
        seed = rnd.randbytes(32)
        for _ in range(MAX_COMMANDS):
            if work.status != ACTIVE:
                break
            seat = work.awaiting[0]
            execute_in_place(work, bot.choose(work, seat), actor=seat, seed=seed)
        for seat in work.winners or ():
            wins[seat] += 1
    return [w / playouts for w in wins]


def turn_odds(events: list[ev.Event], playouts: int = PLAYOUTS,
              rnd: random.Random | None = None) -> list[dict]:  # fmt: skip
    """[{"seq", "win": [per seat]}] at the start of every turn of a game's log (`seq`: its
    turn_started event's, 1-based)."""
    rnd = rnd or random.Random()
    out: list[dict] = []
    state = fold(events[:1])
    for seq, e in enumerate(events[1:], start=2):
        apply_all(state, (e,))
        if e.type == ev.TURN_STARTED and state.status == ACTIVE:
            win = win_chances(state, playouts, rnd)
            out.append({"seq": seq, "win": [round(p, 4) for p in win]})
    return out
