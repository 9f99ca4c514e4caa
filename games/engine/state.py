"""The game state: a plain record made only by folding events (see evolve.py).

The state is mutable for speed, but callers never see that: `evolve` copies before it changes
anything, and `fold` mutates only the fresh state it builds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, Deck, Effect

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
MAX_LIVES = 6


@dataclass(slots=True)
class Duel:
    """A duel between the affected player and the Kostič (section 3.1); `p` bets first."""

    p: int
    k: int
    bettor: int
    bet: tuple[str, str] | None = None
    loser: int | None = None

    def other(self, seat: int) -> int:
        return self.k if seat == self.p else self.p


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
        duel = self.duel
        return Pending(
            self.seat,
            self.card,
            self.effect_index,
            self.scope,
            self.target,
            self.snapshot,
            self.asked,
            list(self.window),
            list(self.queue),
            self.neighbor_options,
            self.neighbor,
            Duel(duel.p, duel.k, duel.bettor, duel.bet, duel.loser) if duel else None,
            list(self.eliminated),
            list(self.handoffs),
        )


@dataclass(slots=True)
class GameState:
    variant: str
    n: int
    deck: Deck
    options: dict
    seed_commitment: str
    rigged: bool = False
    rig: dict | None = None  # tests and demos only; its hands and deck are hidden
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
    # The Kostič's legal plays, computed once per state; `apply` clears it (see legal.py).
    memo_plays: tuple[int, list] | None = field(default=None, repr=False, compare=False)

    def copy(self) -> GameState:
        s = GameState(
            self.variant,
            self.n,
            self.deck,
            self.options,
            self.seed_commitment,
            self.rigged,
            self.rig,
            self.status,
            list(self.names),
            list(self.bots),
            list(self.lives),
            [list(h) for h in self.hands],
            list(self.draw),
            list(self.discard),
            self.phase,
            self.kostic,
            self.turn,
            list(self.awaiting),
            self.pending.copy() if self.pending else None,
            dict(self.first_rolls),
            list(self.contenders),
            self.countdown,
            self.countdown_turn,
            list(self.winners) if self.winners is not None else None,
            self.rolls,
            self.shuffles,
            self.seed,
            self.memo_plays,
        )
        return s

    # Small questions every module asks.
    def in_game(self, seat: int) -> bool:
        return self.lives[seat] > 0

    def alive(self) -> list[int]:
        return [s for s in range(self.n) if self.lives[s] > 0]

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
