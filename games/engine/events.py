"""Events: the only truth. `{"type", "v", "data"}`; data holds plain JSON values only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Setup
GAME_CREATED = "game_created"
FORKED = "forked"  # a fork's first event (fork.py): the game starts where another stood
SEAT_TAKEN = "seat_taken"
GAME_STARTED = "game_started"
# A turn
TURN_STARTED = "turn_started"
TURN_SKIPPED = "turn_skipped"
CARD_PLAYED = "card_played"
BLOCK_PASSED = "block_passed"
PLAY_BLOCKED = "play_blocked"
BLOCK_WINDOW_CLOSED = "block_window_closed"
NEIGHBOR_REQUESTED = "neighbor_requested"
NEIGHBOR_CHOSEN = "neighbor_chosen"
DUEL_STARTED = "duel_started"
BET_PLACED = "bet_placed"
DIE_ROLLED = "die_rolled"
COIN_TOSSED = "coin_tossed"
LIVES_CHANGED = "lives_changed"
PLAYER_ELIMINATED = "player_eliminated"
COUNTDOWN_STARTED = "countdown_started"
EFFECT_RESOLVED = "effect_resolved"
CARD_HANDED_OFF = "card_handed_off"
DECK_RESHUFFLED = "deck_reshuffled"
CARD_DRAWN = "card_drawn"
TURN_ENDED = "turn_ended"
TIMED_OUT = "timed_out"
GAME_ENDED = "game_ended"
# Who is away from a seat (the service's acts, not the rules')
SEAT_LEFT = "seat_left"
SEAT_TAKEN_BY_BOT = "seat_taken_by_bot"
SEAT_RETURNED = "seat_returned"
VACATION_STARTED = "vacation_started"
VACATION_ENDED = "vacation_ended"

EVENT_TYPES = (
    GAME_CREATED,
    FORKED,
    SEAT_TAKEN,
    GAME_STARTED,
    TURN_STARTED,
    TURN_SKIPPED,
    CARD_PLAYED,
    BLOCK_PASSED,
    PLAY_BLOCKED,
    BLOCK_WINDOW_CLOSED,
    NEIGHBOR_REQUESTED,
    NEIGHBOR_CHOSEN,
    DUEL_STARTED,
    BET_PLACED,
    DIE_ROLLED,
    COIN_TOSSED,
    LIVES_CHANGED,
    PLAYER_ELIMINATED,
    COUNTDOWN_STARTED,
    EFFECT_RESOLVED,
    CARD_HANDED_OFF,
    DECK_RESHUFFLED,
    CARD_DRAWN,
    TURN_ENDED,
    TIMED_OUT,
    GAME_ENDED,
    SEAT_LEFT,
    SEAT_TAKEN_BY_BOT,
    SEAT_RETURNED,
    VACATION_STARTED,
    VACATION_ENDED,
)
FIRST_EVENTS = (GAME_CREATED, FORKED)  # the event that makes a game's state
AWAY_EVENTS = (SEAT_LEFT, SEAT_TAKEN_BY_BOT, SEAT_RETURNED, VACATION_STARTED, VACATION_ENDED)


# --- what each kind of event means to the service, classified once --------------------------
# Who is told of an event (games.notifications): nobody, the seat in its data, or every seat.
NOBODY, THE_SEAT, EVERY_SEAT = "nobody", "the_seat", "every_seat"


@dataclass(frozen=True, slots=True)
class Kind:
    """How the service treats one event type. Every reader that switched on types by hand
    (projections, notifications, the commit's publish step, ratings, views) reads this."""

    new_decision: bool = True  # it moves the game on: the pending decision's clock restarts
    sealable: bool = False  # R19: held back (sealed, no seq) while its block window is open
    secret: bool = False  # its data hides something from some viewers until the end (views)
    notice: str | None = None  # the notification it makes (API.md), told to `audience`
    audience: str = NOBODY
    ends_game: bool = False
    away: bool = False  # who sits where: the service's act, not the rules'
    rated: bool = False  # the ratings read it (games.ratings)


_AWAY = Kind(new_decision=False, away=True)
KINDS: dict[str, Kind] = {
    GAME_CREATED: Kind(secret=True, rated=True),  # a rig's hands and deck
    # The hands and the draw pile; read by the ratings, which do not rate a fork.
    FORKED: Kind(secret=True, rated=True),
    SEAT_TAKEN: Kind(rated=True),
    GAME_STARTED: Kind(secret=True),  # the hands and the draw pile
    TURN_STARTED: Kind(rated=True),
    TURN_SKIPPED: Kind(),
    CARD_PLAYED: Kind(),
    # A pass does not restart the window's clock (R19), and is hidden while it is open.
    BLOCK_PASSED: Kind(new_decision=False, sealable=True, secret=True),
    PLAY_BLOCKED: Kind(),
    BLOCK_WINDOW_CLOSED: Kind(),
    NEIGHBOR_REQUESTED: Kind(),
    NEIGHBOR_CHOSEN: Kind(),
    DUEL_STARTED: Kind(),
    BET_PLACED: Kind(),
    DIE_ROLLED: Kind(),
    COIN_TOSSED: Kind(),
    LIVES_CHANGED: Kind(),
    PLAYER_ELIMINATED: Kind(notice="eliminated", audience=THE_SEAT, rated=True),
    COUNTDOWN_STARTED: Kind(),
    EFFECT_RESOLVED: Kind(),
    CARD_HANDED_OFF: Kind(secret=True),  # R14's secret handoff
    DECK_RESHUFFLED: Kind(secret=True),  # the new draw pile
    CARD_DRAWN: Kind(secret=True),
    TURN_ENDED: Kind(),
    TIMED_OUT: Kind(),
    GAME_ENDED: Kind(notice="game_over", audience=EVERY_SEAT, ends_game=True, rated=True),
    # Nobody's coming or going restarts a decision's clock.
    SEAT_LEFT: _AWAY,
    SEAT_TAKEN_BY_BOT: _AWAY,
    SEAT_RETURNED: _AWAY,
    VACATION_STARTED: _AWAY,
    VACATION_ENDED: _AWAY,
}


def kind_of(event_type: str) -> Kind:
    """The classification of `event_type` (KeyError for a type this engine does not know)."""
    return KINDS[event_type]


# Not frozen: freezing guarded only the three attribute names (never the data dict, the content)
# and made an event about three times dearer to build; a game makes hundreds (bench-engine).
@dataclass(slots=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    v: int = 1

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "v": self.v, "data": self.data}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        return cls(raw["type"], raw.get("data") or {}, raw.get("v", 1))


_new_event = object.__new__


def event(type: str, data: dict[str, Any]) -> Event:
    """`Event(type, data)`, as the engine builds its events (a game makes ~330): in Python 3.11
    calling a class runs its `__init__` in an interpreter of its own, which costs more than
    this function's filling the slots itself (~1 % of a bot game, bench-engine). A new field
    of Event must be set here too: tests/engine/test_event_kinds.py compares the two."""
    e = _new_event(Event)
    e.type, e.data, e.v = type, data, 1
    return e
