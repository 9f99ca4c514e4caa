"""The card effects, one row each (RULES.md section 3): whom an effect reaches, under which
condition, what it does to whose lives, and what it needs (a target other than the Kostič,
another player, a choice). The deck names effects by these ids (`cards.py` accepts no other);
the rules (`rules.py`, `legal.py`), `resolution.py`, the bots and standing orders read this
table, and the page gets it as JSON (`as_json`, beside the card words) to ask before a player
hits himself. The effects' words, both languages, are in `effect_words.py`.

A new effect is a row here and its words there (tests/engine/test_effect_table.py fails while
either is missing). A new way of reaching players (a new `reach`) is also a branch of
`resolution.next_step` and `bots.preview`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

MAX_LIVES = 6  # R1
LIVES = range(MAX_LIVES + 1)  # 0 is out of the game

LOSE_1 = "LOSE_1"
GAIN_1 = "GAIN_1"
GIVE_NEIGHBOR = "GIVE_NEIGHBOR"
STEAL_NEIGHBOR = "STEAL_NEIGHBOR"
SWAP_NEIGHBOR = "SWAP_NEIGHBOR"
BLAST = "BLAST"
DUEL = "DUEL"
HALVE_EVEN = "HALVE_EVEN"
DOUBLE_LOW = "DOUBLE_LOW"
LOW_UP_TOP_DOWN = "LOW_UP_TOP_DOWN"
LOW_2_TOP_5 = "LOW_2_TOP_5"
ODD_UP = "ODD_UP"
EVEN_DOWN = "EVEN_DOWN"

# Whom an effect reaches, and so how it resolves (section 3; P is an affected player).
ALONE = "alone"  # P only (R11: such effects cannot touch each other, so a batch resolves)
NEIGHBOURS = "neighbours"  # P and each of his neighbours (BLAST, R27)
NEIGHBOUR = "neighbour"  # P and one neighbour P picks (R8), each by his own change
SWAP = "swap"  # P and one neighbour P picks (R8) swap their lives
AGAINST_KOSTIC = "duel"  # P against the Kostič (section 3.1), never the Kostič himself (R3, R33)
TABLE = "table"  # R10: the whole table once, whatever the colour's scope
REACHES = (ALONE, NEIGHBOURS, NEIGHBOUR, SWAP, AGAINST_KOSTIC, TABLE)


def capped(lives: int) -> int:
    """R1: a gain above 6 is lost; below 1 is 0 (eliminated)."""
    return MAX_LIVES if lives > MAX_LIVES else (lives if lives > 0 else 0)


def is_low(lives: int) -> bool:
    return 1 <= lives <= 3


def is_high(lives: int) -> bool:
    return lives >= 4


# The conditions an affected player must meet (R9, R33), read on the lives before the effect
# (R6, R24): the test, and the words of an illegal play's error message.
CONDITIONS: Mapping[str, tuple[Callable[[int], bool], str]] = {
    "highhp": (is_high, "HIGHHP (4-6 lives)"),
    "lowhp": (is_low, "LOWHP (1-3 lives)"),
    "even": (lambda x: x % 2 == 0, "an even number of lives"),
    "odd": (lambda x: x % 2 == 1, "an odd number of lives"),
}


@dataclass(frozen=True, slots=True)
class EffectRule:
    """One effect. `change` is P's lives after it, from his lives now (uncapped; the bots'
    preview applies it to expected lives), where nothing but his lives decides them; `others`
    is what a neighbour gets (each neighbour: NEIGHBOURS; the picked one: NEIGHBOUR); `stake`
    is what a duel's loser loses; `low` and `top` are a table-wide effect's LOWHP and TOPHP
    parts (R10). The rest is worked out once from these."""

    kind: str
    reach: str
    condition: str | None = None
    change: Callable[[float], float] | None = None
    others: int = 0
    stake: int = 0
    low: Callable[[int], int] | None = None
    top: Callable[[int], int] | None = None
    # By lives 0..6: whether P meets the condition (R9, R33; a table-wide effect has none).
    meets: tuple[bool, ...] = field(init=False)
    # By P's lives 0..6: his lives after (capped, R1), where `change` says them.
    own: tuple[int, ...] | None = field(init=False)
    # By P's lives 0..6: what he surely loses (0 where the condition fails, or he gains). The
    # page's "hit yourself?" question reads it.
    loss: tuple[int, ...] = field(init=False)
    # By lives 0..6, the table-wide parts (R10), capped.
    low_after: tuple[int, ...] | None = field(init=False)
    top_after: tuple[int, ...] | None = field(init=False)

    def __post_init__(self) -> None:
        if self.reach not in REACHES or (self.condition and self.condition not in CONDITIONS):
            raise ValueError(f"effect {self.kind}: bad reach or condition")
        test = CONDITIONS[self.condition][0] if self.condition else None
        meets = tuple(test is None or test(x) for x in LIVES)
        change = self.change
        own = None if change is None else tuple(capped(int(change(x))) for x in LIVES)
        loss = tuple(max(0, x - own[x]) if own and meets[x] else 0 for x in LIVES)
        object.__setattr__(self, "meets", meets)
        object.__setattr__(self, "own", own)
        object.__setattr__(self, "loss", loss)
        object.__setattr__(self, "low_after", _by_lives(self.low))
        object.__setattr__(self, "top_after", _by_lives(self.top))

    @property
    def table_wide(self) -> bool:
        """R10: it acts on the whole table, whatever scope the colour names."""
        return self.reach == TABLE

    @property
    def choice(self) -> bool:
        """R8: P picks the neighbour it reaches (asked when he has two)."""
        return self.reach in (NEIGHBOUR, SWAP)

    @property
    def needs_other(self) -> bool:
        """R12: legal only with another player in the game."""
        return self.reach not in (ALONE, TABLE)

    @property
    def on_kostic(self) -> bool:
        """R3, R33: the Kostič may be its P (its target, or reached by an all-players play)."""
        return self.reach != AGAINST_KOSTIC

    @property
    def costs_p(self) -> bool:
        """It costs every P it reaches lives (section 3's last column): a sure loss, or a duel's
        stake. A swap and the table-wide effects depend on the lives of others."""
        return any(self.loss) or self.stake > 0


def _by_lives(part: Callable[[int], int] | None) -> tuple[int, ...] | None:
    return None if part is None else tuple(capped(part(x)) for x in LIVES)


R = EffectRule
EFFECTS: Mapping[str, EffectRule] = {
    rule.kind: rule
    for rule in (
        R(LOSE_1, ALONE, change=lambda x: x - 1),
        R(GAIN_1, ALONE, change=lambda x: x + 1),
        R(GIVE_NEIGHBOR, NEIGHBOUR, change=lambda x: x - 1, others=+1),
        R(STEAL_NEIGHBOR, NEIGHBOUR, change=lambda x: x + 1, others=-1),
        R(SWAP_NEIGHBOR, SWAP),
        R(BLAST, NEIGHBOURS, "highhp", change=lambda x: x - 2, others=-1),
        R(DUEL, AGAINST_KOSTIC, stake=2),
        R(HALVE_EVEN, ALONE, "even", change=lambda x: x // 2),
        R(DOUBLE_LOW, ALONE, "lowhp", change=lambda x: x * 2),
        R(LOW_UP_TOP_DOWN, TABLE, low=lambda x: x + 1, top=lambda x: x - 1),
        R(LOW_2_TOP_5, TABLE, low=lambda x: 2, top=lambda x: 5),
        R(ODD_UP, ALONE, "odd", change=lambda x: x + 1),
        R(EVEN_DOWN, ALONE, "even", change=lambda x: x - 1),
    )
}


def as_json() -> dict[str, dict[str, object]]:
    """The table as plain JSON for the page (what it asks before a player hits himself)."""
    return {
        kind: {
            "reach": rule.reach,
            "condition": rule.condition,
            "meets": list(rule.meets),
            "loss": list(rule.loss),
            "table_wide": rule.table_wide,
            "choice": rule.choice,
            "needs_other": rule.needs_other,
            "on_kostic": rule.on_kostic,
            "costs_p": rule.costs_p,
        }
        for kind, rule in EFFECTS.items()
    }
