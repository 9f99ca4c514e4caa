"""Who is away from a seat: leaving, the bot taking a seat after K timeouts (R21), returning,
vacations, and a game abandoned by its humans. These are the service's acts, not the rules':
they change who decides for a seat (the built-in bot, or nobody while the clock stands still),
never what may be decided. Each is an event; the audit re-executes them like any command.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import game_over, invalid
from .events import (
    GAME_ENDED,
    SEAT_LEFT,
    SEAT_RETURNED,
    SEAT_TAKEN_BY_BOT,
    VACATION_ENDED,
    VACATION_STARTED,
    Event,
    event,
)
from .setup import option
from .state import ACTIVE, BOT_AWAY, ENDED, VACATION, GameState

ABANDONED = "abandoned"  # game_ended's reason when no human acted for too long


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves a running game: the bot plays his seat to the end; he cannot win."""

    seat: int


@dataclass(frozen=True, slots=True)
class Return:
    """A player takes his seat back from the bot that took it after his timeouts."""

    seat: int


@dataclass(frozen=True, slots=True)
class VacationStart:
    seat: int
    until: str  # ISO time; the service's clock, told to the engine as data


@dataclass(frozen=True, slots=True)
class VacationEnd:
    seat: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """No human acted for too long (a setting of the service): the game ends, no one wins."""


AwayCommand = Leave | Return | VacationStart | VacationEnd | Abandon


def away_events(s: GameState, command: AwayCommand, seed: bytes) -> list[Event]:
    """The event `command` makes; IllegalCommand(game_over / invalid) when it does not apply."""
    if s.status == ENDED:
        raise game_over()
    if s.status != ACTIVE:
        raise invalid("the game has not started")
    if isinstance(command, Abandon):
        data = {"winners": [], "seed": seed.hex(), "reason": ABANDONED}  # R22: the seed too
        return [event(GAME_ENDED, data)]
    seat = command.seat
    if not _is_seat(s, seat) or s.bots[seat]:
        raise invalid("no player sits there")
    if s.left[seat]:
        raise invalid("you left this game")
    away = s.away[seat]
    if isinstance(command, Leave):
        return [event(SEAT_LEFT, {"seat": seat})]
    if isinstance(command, Return):
        if away != BOT_AWAY:
            raise invalid("the bot does not play your seat")
        return [event(SEAT_RETURNED, {"seat": seat})]
    if isinstance(command, VacationStart):
        if away == VACATION:
            raise invalid("already on vacation in this game")
        return [event(VACATION_STARTED, {"seat": seat, "until": command.until})]
    if away != VACATION:
        raise invalid("not on vacation in this game")
    return [event(VACATION_ENDED, {"seat": seat})]


def _is_seat(s: GameState, seat: object) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s.n


def takeovers(s: GameState) -> list[Event]:
    """Right after a timed_out record (folded into `s`): the timed-out seats whose run of
    consecutive timeouts reached the option timeouts_to_bot; the bot plays them from now on,
    until their player acts again (0: never)."""
    k = option(s, "timeouts_to_bot")
    if not k:
        return []
    return [
        event(SEAT_TAKEN_BY_BOT, {"seat": seat})
        for seat in s.owed
        if not s.bots[seat] and s.away[seat] is None and s.timeouts[seat] >= k
    ]


def coming_back(s: GameState, seat: int | None) -> AwayCommand | None:
    """What a player's own accepted command also does for his seat: it ends his vacation, or
    takes his seat back from the bot (not after he left: that is for good)."""
    if seat is None or s.left[seat]:
        return None
    if s.away[seat] == VACATION:
        return VacationEnd(seat)
    if s.away[seat] == BOT_AWAY:
        return Return(seat)
    return None
