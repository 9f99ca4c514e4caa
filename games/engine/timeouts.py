"""R21: what the service does for a player whose deadline passed, and which deadline applies."""

from __future__ import annotations

from .commands import Bet, ChooseNeighbor, Command, Handoff, Pass
from .state import ACTIVE, BET, BLOCK, CHOOSE_NEIGHBOR, HANDOFF, PLAY, GameState

BLOCK_DEADLINE, TURN_DEADLINE = "block", "turn"


def deadline_kind(s: GameState) -> str | None:
    """Which option times the pending decision: block_window_s or turn_deadline_s."""
    if s.status != ACTIVE or not s.awaiting:
        return None
    return BLOCK_DEADLINE if s.phase == BLOCK else TURN_DEADLINE


def timeout_acts(s: GameState) -> list[tuple[int, Command | None]]:
    """The act R21 fixes for each awaited seat: pass; left neighbor; parity/even (heads on a
    coin, R34); decline. The Kostič's play is None: R21 asks only for a legal play, so the
    bot's choice is the service's, and the audit accepts any legal play in its place."""
    if s.status != ACTIVE:
        return []
    phase = s.phase
    if phase == BLOCK:
        return [(seat, Pass()) for seat in s.awaiting]
    if not s.awaiting:
        return []
    seat = s.awaiting[0]
    if phase == CHOOSE_NEIGHBOR:
        return [(seat, ChooseNeighbor(s.pending.neighbor_options[0]))]  # type: ignore[union-attr]
    if phase == BET:
        return [
            (seat, Bet("coin", "heads") if s.options.get("duel_coin") else Bet("parity", "even"))
        ]
    if phase == HANDOFF:
        return [(seat, Handoff(None, None))]
    if phase == PLAY:
        return [(seat, None)]
    return []


def timeout_commands(s: GameState) -> list[tuple[int, Command]]:
    """What the service plays at a timeout: `timeout_acts`, the Kostič's play chosen by the
    built-in bot."""
    from .bots import HeuristicBot  # the bot reads the rules modules, not this one

    return [
        (seat, act if act is not None else HeuristicBot().choose(s, seat))
        for seat, act in timeout_acts(s)
    ]
