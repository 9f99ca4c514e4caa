"""The one table of card effects (games/engine/effects.py) and their one source of words
(games/engine/effect_words.py): every effect a deck names has a row and words in both
languages, and the rows say what RULES.md section 3 says (R3, R8, R9, R10, R12)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from games.engine import Deck
from games.engine.cards import DECKS_DIR
from games.engine.effect_words import LANGUAGES, WORDS
from games.engine.effects import EFFECTS, LIVES

SHARED_DECK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "standard-deck.csv"
DECK_FILES = sorted(DECKS_DIR.glob("*.csv")) + ([SHARED_DECK] if SHARED_DECK.is_file() else [])


def kinds_named_by(path: Path) -> set[str]:
    """The effects a deck file names, read as plain CSV (not through the deck, which refuses
    an effect the table lacks)."""
    with path.open(newline="") as f:
        rows = [row for row in csv.DictReader(f) if row]
    return {row[column].strip() for row in rows for column in ("effect_a", "effect_b")}


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.name)
def test_every_effect_a_deck_names_has_a_row_and_words_in_both_languages(path):
    kinds = kinds_named_by(path)
    assert kinds, f"{path} names no effects"
    assert kinds - set(EFFECTS) == set(), f"{path.name}: effects missing from effects.EFFECTS"
    assert kinds - set(WORDS) == set(), f"{path.name}: effects missing from effect_words.WORDS"
    for kind in kinds:
        for lang in LANGUAGES:
            words = WORDS[kind][lang]
            assert words.label and words.explain and words.line, (kind, lang)


def test_the_table_and_the_words_name_the_same_effects_and_the_deck_knows_no_other():
    assert set(EFFECTS) == set(WORDS)
    assert all(rule.kind == kind for kind, rule in EFFECTS.items())
    with pytest.raises(ValueError, match="bad effect"):
        Deck.from_rows("odd", [["X1", "red", "LOSE_2", "blue", "GAIN_1"]])


def test_an_effect_that_can_cost_its_player_asks_before_he_aims_it_at_himself():
    """The page's "hit yourself?" question (yourself.js) exists exactly where `loss` says the
    effect can cost the player who aims it at himself, in both languages."""
    for kind, rule in EFFECTS.items():
        for lang in LANGUAGES:
            assert bool(WORDS[kind][lang].yourself) == any(rule.loss), (kind, lang)


def kinds(test) -> set[str]:
    return {kind for kind, rule in EFFECTS.items() if test(rule)}


def test_the_rows_say_what_section_3_says():
    assert kinds(lambda r: r.table_wide) == {"LOW_UP_TOP_DOWN", "LOW_2_TOP_5"}  # R10
    assert kinds(lambda r: r.choice) == {"GIVE_NEIGHBOR", "STEAL_NEIGHBOR", "SWAP_NEIGHBOR"}  # R8
    needs_other = {"DUEL", "GIVE_NEIGHBOR", "STEAL_NEIGHBOR", "SWAP_NEIGHBOR", "BLAST"}
    assert kinds(lambda r: r.needs_other) == needs_other  # R12
    assert kinds(lambda r: not r.on_kostic) == {"DUEL"}  # R3, R33
    # Section 3's last column: what always costs P lives (docs/STANDING_ORDERS.md, aimed_at_me).
    costs = {"LOSE_1", "GIVE_NEIGHBOR", "BLAST", "DUEL", "HALVE_EVEN", "EVEN_DOWN"}
    assert kinds(lambda r: r.costs_p) == costs


def test_conditions_and_losses_by_lives():
    """R9/R33 on the lives before the effect (R6); R1 caps a gain at 6."""

    def meets(kind):
        return [x for x in LIVES if EFFECTS[kind].meets[x]]

    assert meets("BLAST") == [4, 5, 6]
    assert meets("DOUBLE_LOW") == [1, 2, 3]
    assert meets("HALVE_EVEN") == meets("EVEN_DOWN") == [0, 2, 4, 6]
    assert meets("ODD_UP") == [1, 3, 5]
    assert meets("LOSE_1") == list(LIVES)
    assert EFFECTS["BLAST"].loss == (0, 0, 0, 0, 2, 2, 2)
    assert EFFECTS["HALVE_EVEN"].loss == (0, 0, 1, 0, 2, 0, 3)
    assert EFFECTS["LOSE_1"].loss == (0, 1, 1, 1, 1, 1, 1)
    assert EFFECTS["GAIN_1"].own == (1, 2, 3, 4, 5, 6, 6)
    assert EFFECTS["DOUBLE_LOW"].own[3] == 6
    assert EFFECTS["LOW_UP_TOP_DOWN"].low_after[3] == 4
    assert EFFECTS["LOW_UP_TOP_DOWN"].top_after[6] == 5
    assert EFFECTS["LOW_2_TOP_5"].low_after[1:4] == (2, 2, 2)
    assert EFFECTS["LOW_2_TOP_5"].top_after[4:] == (5, 5, 5)
