"""The game state: a plain record made only by folding events (see evolve.py).

The state is mutable for speed, but callers never see that: `evolve` copies before it changes
anything, and `fold` mutates only the fresh state it builds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, Deck, Effect
from .copying import make_copier
from .effects import MAX_LIVES as MAX_LIVES  # R1, beside the effects that change lives

STANDARD, PAIRS, PAIRS_EXTREME = "standard", "pairs", "pairs_extreme"
VARIANTS = (STANDARD, PAIRS, PAIRS_EXTREME)
LOBBY, ACTIVE, ENDED = "lobby", "active", "ended"

# Phases where a seat decides (public) and the engine's own steps in between (shown as null).
PLAY, BLOCK, CHOOSE_NEIGHBOR, BET, HANDOFF = "play", "block", "choose_neighbor", "bet", "handoff"
PUBLIC_PHASES = (PLAY, BLOCK, CHOOSE_NEIGHBOR, BET, HANDOFF)
FIRST_ROLL, RESOLVE, DRAW, TURN_END, BETWEEN, ENDING = (
    "first_roll",
    "resolve",
    "draw",
    "turn_end",
    "between_turns",
    "ending",
)
MAX_SEATS = 6
VACATION, BOT_AWAY = "vacation", "bot"  # a seat's `away` (API.md, Correspondence)


@dataclass(slots=True)
class Duel:
    """A duel between the affected player and the Kostič (section 3.1); `affected` bets first."""

    affected: int
    kostic: int
    bettor: int
    bet: tuple[str, str] | None = None
    loser: int | None = None

    def other(self, seat: int) -> int:
        return self.kostic if seat == self.affected else self.affected

    def copy(self) -> Duel:
        return _copy_duel(self)


@dataclass(slots=True)
class Pending:
    """The play being blocked and resolved, and what its resolution has reached."""

    seat: int  # the Kostič who played
    card: Card
    effect_index: int
    scope: str
    target: int | None
    snapshot: tuple[int, ...]  # lives before the effect (R6)
    asked: tuple[int, ...]  # everyone asked in the block window (R19)
    window: list[int]  # who has not answered yet
    queue: list[int] = field(default_factory=list)  # affected seats still to resolve (R11)
    neighbor_options: tuple[int, ...] = ()
    neighbor: int | None = None
    duel: Duel | None = None
    eliminated: list[tuple[int, int | None]] = field(default_factory=list)  # (seat, eliminator)
    handoffs: list[int] = field(default_factory=list)  # eliminated seats still to hand off

    @property
    def effect(self) -> Effect:
        return self.card.effects[self.effect_index]

    def copy(self) -> Pending:
        return _copy_pending(self)


@dataclass(slots=True)
class GameState:
    """Adding a field here is the whole change: copies and the codec walk the fields."""

    variant: str
    n: int
    deck: Deck
    options: Mapping[str, Any]  # read-only, like rig: both are fixed when the game is created
    seed_commitment: str
    rigged: bool = False
    rig: Mapping[str, Any] | None = None  # tests and demos only; its hands and deck are hidden
    status: str = LOBBY
    names: list[str | None] = field(default_factory=list)
    bots: list[bool] = field(default_factory=list)
    lives: list[int] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    draw: list[str] = field(default_factory=list)  # top first
    discard: list[str] = field(default_factory=list)  # oldest first
    phase: str | None = None
    kostic: int | None = None
    turn: int = 0
    awaiting: list[int] = field(default_factory=list)
    pending: Pending | None = None
    first_rolls: dict[int, int] = field(default_factory=dict)  # R2/R32, this round's rolls
    contenders: list[int] = field(default_factory=list)
    countdown: int | None = None
    countdown_turn: int | None = None
    winners: list[int] | None = None
    rolls: int = 0  # rolls and tosses made so far; the rig's dice are used up first
    shuffles: int = 0
    seed: str | None = None  # revealed at the end (R22)
    # Who is away from a seat (events.AWAY_EVENTS): it changes who decides for a seat, never
    # the rules. Old states and games fold these from their defaults.
    away: list[str | None] = field(default_factory=list)  # per seat: None | VACATION | BOT_AWAY
    left: list[bool] = field(default_factory=list)  # left for good: the bot plays to the end
    vacation_until: list[str | None] = field(default_factory=list)  # ISO times, as declared
    timeouts: list[int] = field(default_factory=list)  # consecutive timeouts per seat (R21)
    owed: list[int] = field(default_factory=list)  # seats whose next act is a timeout's
    human_acts: int = 0  # seats taken and acts of humans at their own seats, so far

    def copy(self) -> GameState:
        """A copy sharing nothing mutable (see copying.py)."""
        return _copy_state(self)

    # Small questions every module asks.
    def in_game(self, seat: int) -> bool:
        return self.lives[seat] > 0

    def plays_bot(self, seat: int) -> bool:
        """The built-in bot decides for this seat: a bot seat, or a player's while away."""
        return self.bots[seat] or self.away[seat] == BOT_AWAY

    def alive(self) -> list[int]:
        return [s for s in range(self.n) if self.lives[s] > 0]

    def alive_count(self) -> int:
        return self.n - self.lives.count(0)  # lives are never below 0 (R1)

    def team(self, seat: int) -> int | None:
        """Pairs sit opposite (0+2, 1+3); pairs extreme side by side (0+1, 2+3) (section 6)."""
        if self.variant == PAIRS:
            return seat % 2
        if self.variant == PAIRS_EXTREME:
            return seat // 2
        return None

    def partner(self, seat: int) -> int | None:
        if self.variant == PAIRS:
            return (seat + 2) % 4
        if self.variant == PAIRS_EXTREME:
            return seat ^ 1
        return None

    def sees_hand_of(self, viewer: int | None, seat: int) -> bool:
        """R23: one's own hand, and the partner's in pairs extreme; everything after the end."""
        if self.status == ENDED:
            return True
        if viewer is None:
            return False
        return viewer == seat or (self.variant == PAIRS_EXTREME and viewer == seat ^ 1)


_copy_duel = make_copier(Duel)
_copy_pending = make_copier(Pending, records=("Duel",))
_copy_state = make_copier(GameState, records=("Pending",))
