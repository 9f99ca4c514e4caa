"""Folding the service's away events into state: who decides for a seat (its player, the bot,
or nobody on vacation). The rules' own events fold in `evolve`; these change no rule's outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import events as ev
from .state import BOT_AWAY, VACATION, GameState

Data = dict[str, Any]


def _seat_left(s: GameState, d: Data) -> None:
    seat = d["seat"]
    s.away[seat], s.left[seat], s.vacation_until[seat] = BOT_AWAY, True, None


def _seat_taken_by_bot(s: GameState, d: Data) -> None:
    s.away[d["seat"]] = BOT_AWAY


def _seat_returned(s: GameState, d: Data) -> None:
    seat = d["seat"]
    s.away[seat], s.timeouts[seat] = None, 0
    s.human_acts += 1


def _vacation_started(s: GameState, d: Data) -> None:
    seat = d["seat"]
    s.away[seat], s.vacation_until[seat] = VACATION, d["until"]
    s.human_acts += 1


def _vacation_ended(s: GameState, d: Data) -> None:
    seat = d["seat"]
    s.away[seat], s.vacation_until[seat], s.timeouts[seat] = None, None, 0


AWAY_FOLDS: dict[str, Callable[[GameState, Data], None]] = {
    ev.SEAT_LEFT: _seat_left,
    ev.SEAT_TAKEN_BY_BOT: _seat_taken_by_bot,
    ev.SEAT_RETURNED: _seat_returned,
    ev.VACATION_STARTED: _vacation_started,
    ev.VACATION_ENDED: _vacation_ended,
}
