"""What cards and the game's terms say, in both page languages, for the pages.

The table, the replay viewer and their prompts read it from the page (`card_words_script`
renders it as the JSON `#card-words`, which static/frontend/glossary.js, cards.js and
yourself.js read); the rules page (`/rules/`) is rendered from it on the server. The effects'
words come from their one source, `games/engine/effect_words.py` (the transcript reads them
too), and the page gets the engine's effect table (`games/engine/effects.py`) beside them.
"""

from __future__ import annotations

from django.utils.translation import get_language

from games.engine import Deck, effect_words, effects

# Each effect's words (card line, explanation, transcript line, "hit yourself?" question), both
# languages: one source beside the engine's effect table, shared with the transcript.
EFFECTS = effect_words.WORDS
LANGUAGES = effect_words.LANGUAGES

COLOURS = {
    "en": {"red": "red", "green": "green", "blue": "blue"},
    "cs": {"red": "červená", "green": "zelená", "blue": "modrá"},
}
# The scope each colour allows (RULES.md section 2), said on the card so a newcomer needs no rules.
SCOPES = {
    "en": {"red": "everyone", "green": "one player", "blue": "one or everyone"},
    "cs": {"red": "všichni", "green": "jeden hráč", "blue": "jeden nebo všichni"},
}

# The game's own words, each with its anchor on the rules page (`/rules/#term-<key>`) and the
# line that explains it wherever it appears on the table (glossary.js).
TERMS: dict[str, dict[str, str]] = {
    "kostic": {
        "word": "Kostič",
        "en": "The player whose turn it is (from Czech kostka, a die: the first Kostič is "
        "whoever rolls highest).",
        "cs": "Hráč, který je právě na tahu (od slova kostka: prvním Kostičem je ten, "
        "kdo hodí nejvíc).",
    },
    "lowhp": {
        "word": "LOWHP",
        "en": "A player with 1–3 lives (few).",
        "cs": "Hráč s 1–3 životy (málo, „malé“).",
    },
    "highhp": {
        "word": "HIGHHP",
        "en": "A player with 4–6 lives (many).",
        "cs": "Hráč se 4–6 životy (hodně).",
    },
    "tophp": {
        "word": "TOPHP",
        "en": "Every player with the most lives at the table (all of them when tied).",
        "cs": "Každý hráč s nejvíc životy u stolu (při shodě všichni).",
    },
    "minhp": {
        "word": "MINHP",
        "en": "Every player with the fewest lives at the table (all of them when tied).",
        "cs": "Každý hráč s nejméně životy u stolu (při shodě všichni).",
    },
}


def page_language() -> str:
    """The page's language as the pages choose it (Django's active language): "cs" or "en"."""
    return "cs" if (get_language() or "").lower().startswith("cs") else "en"


def for_page() -> dict:
    """Everything above as plain JSON for the page's scripts (both languages: cards.js keeps
    exporting EFFECTS as [Czech, English] pairs), with the effect table as `rules`: each
    effect's reach, condition and what it costs its player (yourself.js asks by it)."""
    return {
        "colours": COLOURS,
        "scopes": SCOPES,
        "effects": {
            kind: {lang: [w.label, w.explain, w.yourself] for lang, w in words.items()}
            for kind, words in EFFECTS.items()
        },
        "rules": effects.as_json(),
        "terms": TERMS,
    }


def effect_face(colour: str, kind: str, lang: str) -> dict[str, str]:
    """One effect as a card draws it: colour word, scope, bold label, explanation."""
    words = EFFECTS[kind][lang]
    return {
        "colour": colour,
        "kind": kind,
        "colour_word": COLOURS[lang][colour],
        "scope": SCOPES[lang][colour],
        "label": words.label,
        "explain": words.explain,
    }


def deck_faces(deck: Deck, lang: str) -> list[dict]:
    """Every card of `deck` in catalogue order, each with its two effect faces."""
    return [
        {"id": card.id, "effects": [effect_face(e.colour, e.kind, lang) for e in card.effects]}
        for card in deck.cards
    ]


def effect_list(lang: str) -> list[dict[str, str]]:
    """Each effect once: id, label, explanation and the printed (Czech sheet) text."""
    return [
        {"kind": kind, "label": w[lang].label, "explain": w[lang].explain, "sheet": w["cs"].label}
        for kind, w in EFFECTS.items()
    ]


def term_list(lang: str) -> list[dict[str, str]]:
    """Each term once, for the rules page's glossary (anchor `term-<key>`)."""
    return [{"key": key, "word": t["word"], "text": t[lang]} for key, t in TERMS.items()]
