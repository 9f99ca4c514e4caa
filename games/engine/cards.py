"""Cards and decks. A deck is data: a CSV file in `decks/` or a list of rows; each card has two
effects, each a colour and an effect of `effects.EFFECTS` (what each does lives there)."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from .effects import EFFECTS
from .errors import illegal

RED, GREEN, BLUE = "red", "green", "blue"
COLOURS = (RED, GREEN, BLUE)

DECKS_DIR = Path(__file__).with_name("decks")


@dataclass(frozen=True, slots=True)
class Effect:
    colour: str
    kind: str

    def __str__(self) -> str:
        return f"{self.colour} {self.kind}"


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    effects: tuple[Effect, Effect]

    def __str__(self) -> str:
        return self.id

    def has_colour(self, colour: str) -> bool:
        return self.effects[0].colour == colour or self.effects[1].colour == colour


@dataclass(frozen=True, slots=True)
class Deck:
    """A named, ordered catalogue of cards (catalog order is the CSV order)."""

    name: str
    cards: tuple[Card, ...]
    by_id: dict[str, Card] = field(init=False, repr=False, compare=False)
    # Worked out once: every new game names its deck's rows and shuffles its ids.
    ids: tuple[str, ...] = field(init=False, repr=False, compare=False)  # catalog order
    _rows: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)
    # Tables other modules work out once per deck (legal.py's plays and blocks), read as an
    # attribute: a memo keyed on the deck would hash it (a Python call) on every look-up.
    derived: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "ids", tuple(c.id for c in self.cards))
        rows = tuple(
            (c.id, *(x for e in c.effects for x in (e.colour, e.kind))) for c in self.cards
        )
        object.__setattr__(self, "_rows", rows)
        object.__setattr__(self, "derived", {})

    def __hash__(self) -> int:
        # Equal decks share a name; hashing every card would cost more than the memo keyed on
        # a deck (legal.py) saves.
        return hash(self.name)

    def card(self, card_id: str) -> Card:
        """Return the card with this id; raise IllegalCommand(Code.ILLEGAL_MOVE) if unknown."""
        try:
            return self.by_id[card_id]
        except (KeyError, TypeError):
            raise illegal(f"no card {card_id!r} in this deck") from None

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.by_id

    def rows(self) -> list[list[str]]:
        """The deck as plain rows, as stored in a game's first event (fresh lists each time)."""
        return list(map(list, self._rows))

    @classmethod
    def from_rows(cls, name: str, rows: list[list[str]] | list[tuple[str, ...]]) -> Deck:
        """A deck from rows (id, colour_a, effect_a, colour_b, effect_b); ValueError if bad."""
        return _deck_from_rows(name, tuple(map(tuple, rows)))

    @classmethod
    def _build(cls, name: str, rows: tuple[tuple[str, ...], ...]) -> Deck:
        cards = []
        for row in rows:
            card_id, ca, ea, cb, eb = (str(x).strip() for x in row)
            for colour, kind in ((ca, ea), (cb, eb)):
                if colour not in COLOURS or kind not in EFFECTS:
                    raise ValueError(f"card {card_id}: bad effect {colour} {kind}")
            cards.append(Card(card_id, (Effect(ca, ea), Effect(cb, eb))))
        if len({c.id for c in cards}) != len(cards):
            raise ValueError(f"deck {name}: duplicate card ids")
        return cls(name, tuple(cards))


@lru_cache(maxsize=64)
def _deck_from_rows(name: str, rows: tuple[tuple[str, ...], ...]) -> Deck:
    """Decks are immutable, so every game (and every fold) naming the same rows shares one."""
    return Deck._build(name, rows)


@cache
def load_deck(name: str = "standard") -> Deck:
    """Load a deck shipped in `decks/NAME.csv`; ValueError if there is none."""
    path = DECKS_DIR / f"{name}.csv"
    if not name.isidentifier() or not path.is_file():
        raise ValueError(f"unknown deck {name!r}")
    with path.open(newline="") as f:
        reader = csv.reader(f)
        next(reader)  # header
        return Deck.from_rows(name, [row for row in reader if row])
