"""Events: the only truth. `{"type", "v", "data"}`; data holds plain JSON values only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Setup
GAME_CREATED = "game_created"
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
AWAY_EVENTS = (SEAT_LEFT, SEAT_TAKEN_BY_BOT, SEAT_RETURNED, VACATION_STARTED, VACATION_ENDED)


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
