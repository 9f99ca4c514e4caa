"""R19 in the engine's terms: which passes of a batch the service keeps sealed, and the bots'
answers to a block window.

A pass that leaves its window open tells the others something (that one of the asked has
answered, and by elimination who), so the service does not publish it until the window closes:
`split_sealed` names those passes. Folding them onto the public state gives the state every
decision is judged on (R26: who passed may not answer again); the event order the log ends up
with is the engine's own (the passes, then whatever closed the window), so replays and audits
see nothing new.
"""

from __future__ import annotations

from .bots import HeuristicBot
from .decide import execute
from .events import KINDS, Event
from .state import ACTIVE, BLOCK, GameState


def window_open(s: GameState) -> bool:
    """A block window is open: the asked may still pass or block (R19)."""
    return s.status == ACTIVE and s.phase == BLOCK


def split_sealed(events: list[Event], after: GameState) -> tuple[list[Event], list[Event]]:
    """(told, sealed): the passes of the window still open in `after` are sealed, every other
    event is told, in order. Nothing is sealed when no window is open after the batch."""
    if not window_open(after):
        return list(events), []
    told: list[Event] = []
    sealed: list[Event] = []
    for e in events:
        in_window = KINDS[e.type].sealable and e.data["turn"] == after.turn
        (sealed if in_window else told).append(e)
    return told, sealed


def bots_act(s: GameState, seed: bytes) -> tuple[list[Event], GameState]:
    """Every seat the bot plays (a bot's, or a player's while away: away.py) awaited in `s`
    acts once, in the order awaited (the built-in bot's choice); a seat no longer awaited when
    its turn comes (a bot blocked first) is skipped."""
    out: list[Event] = []
    bot = HeuristicBot()
    for seat in list(s.awaiting):
        if s.plays_bot(seat) and seat in s.awaiting:
            new, s = execute(s, bot.choose(s, seat), actor=seat, seed=seed)
            out += new
    return out, s
