"""What cards and the game's terms say, in both page languages: the ONE source of effect texts.

The table, the replay viewer and their prompts read it from the page (`card_words_script`
renders it as the JSON `#card-words`, which static/frontend/glossary.js and cards.js read); the
rules page (`/rules/`) is rendered from it on the server. Change a word here and every place
that shows it follows.

Per effect: `label`, the bold line of a card (Czech: the printed sheet's text, RULES.md
section 3), spoken to the player the effect hits ("ty" in Czech, as the rule sheet does); and
`explain`, one short sentence for a newcomer that names who does what ("the player hit", never
a "you" that a reader takes for himself, issue 29).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language

from games.engine import Deck

LANGUAGES = ("en", "cs")


@dataclass(frozen=True, slots=True)
class EffectWords:
    label: str
    explain: str


COLOURS = {
    "en": {"red": "red", "green": "green", "blue": "blue"},
    "cs": {"red": "červená", "green": "zelená", "blue": "modrá"},
}
# The scope each colour allows (RULES.md section 2), said on the card so a newcomer needs no rules.
SCOPES = {
    "en": {"red": "everyone", "green": "one player", "blue": "one or everyone"},
    "cs": {"red": "všichni", "green": "jeden hráč", "blue": "jeden nebo všichni"},
}

E = EffectWords
EFFECTS: dict[str, dict[str, EffectWords]] = {
    "LOSE_1": {
        "en": E("Lose 1 life", "Each player hit loses 1 life."),
        "cs": E("Uber si 1 život", "Každý zasažený přijde o 1 život."),
    },
    "GAIN_1": {
        "en": E("Gain 1 life", "Each player hit gains 1 life (6 at most)."),
        "cs": E("Přidej si 1 život", "Každý zasažený získá 1 život (nejvýš 6)."),
    },
    "GIVE_NEIGHBOR": {
        "en": E(
            "Give a neighbour 1 of your lives",
            "The player hit loses 1 life; a neighbour of theirs gains it.",
        ),
        "cs": E(
            "Dej sousedovi 1 svůj život",
            "Zasažený hráč ztratí 1 život a dostane ho jeho soused.",
        ),
    },
    "STEAL_NEIGHBOR": {
        "en": E(
            "Take 1 life from a neighbour",
            "A neighbour of the player hit loses 1 life; the player hit gains it.",
        ),
        "cs": E(
            "Vezmi sousedovi 1 život a přidej si ho",
            "Soused zasaženého hráče přijde o 1 život a zasažený ho získá.",
        ),
    },
    "SWAP_NEIGHBOR": {
        "en": E(
            "Swap lives with a neighbour",
            "The player hit and a neighbour of theirs swap their lives.",
        ),
        "cs": E(
            "Prohoď si počet životů se sousedem",
            "Zasažený hráč si prohodí životy se svým sousedem.",
        ),
    },
    "BLAST": {
        "en": E(
            "Lose 2 lives, your neighbours lose 1 (HIGHHP only)",
            "Only a player hit at 4–6 lives (HIGHHP): loses 2, each of their neighbours 1.",
        ),
        "cs": E(
            "Uber si 2 životy, tví sousedi si uberou 1 (jen na HIGHHP)",
            "Jen zasažený se 4–6 životy (HIGHHP): ztratí 2, každý jeho soused 1.",
        ),
    },
    "DUEL": {
        "en": E(
            "Duel",
            "The player hit and the Kostič take turns betting on a "
            "die roll (or a coin); a miss costs 2 lives.",
        ),
        "cs": E(
            "Souboj",
            "Zasažený a Kostič střídavě sázejí na hod kostkou (nebo mincí); "
            "kdo netrefí, ztratí 2 životy.",
        ),
    },
    "HALVE_EVEN": {
        "en": E(
            "Halve your lives (even only)", "Only a player hit at 2, 4 or 6 lives: their lives ÷ 2."
        ),
        "cs": E(
            "Vyděl si počet životů 2 / :2 (jen na sudé)",
            "Jen zasažený se 2, 4 nebo 6 životy: jeho životy ÷ 2.",
        ),
    },
    "DOUBLE_LOW": {
        "en": E(
            "Double your lives (LOWHP only)",
            "Only a player hit at 1–3 lives (LOWHP): their lives × 2.",
        ),
        "cs": E(
            "Vynásob si počet životů 2 / x2 (jen na malé)",
            "Jen zasažený s 1–3 životy (LOWHP): jeho životy × 2.",
        ),
    },
    "LOW_UP_TOP_DOWN": {
        "en": E(
            "1–3 lives +1, most lives −1",
            "Whole table, whatever the colour: every LOWHP player +1, every TOPHP player −1.",
        ),
        "cs": E(
            "LOWHP +1, TOPHP −1",
            "Celý stůl, ať je barva jakákoli: každý LOWHP +1, každý TOPHP −1.",
        ),
    },
    "LOW_2_TOP_5": {
        "en": E(
            "1–3 lives become 2, most lives become 5",
            "Whole table, whatever the colour: every LOWHP player to 2, every TOPHP player to 5.",
        ),
        "cs": E(
            "LOWHP = 2, TOPHP = 5",
            "Celý stůl, ať je barva jakákoli: každý LOWHP má 2 životy, každý TOPHP 5.",
        ),
    },
    "ODD_UP": {
        "en": E("Odd lives +1", "Each player hit with 1, 3 or 5 lives gains 1."),
        "cs": E("Lichoživotníci +1", "Každý zasažený s 1, 3 nebo 5 životy si přidá 1."),
    },
    "EVEN_DOWN": {
        "en": E("Even lives −1", "Each player hit with 2, 4 or 6 lives loses 1."),
        "cs": E("Sudoživotníci −1", "Každý zasažený s 2, 4 nebo 6 životy si 1 ubere."),
    },
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
    exporting EFFECTS as [Czech, English] pairs)."""
    return {
        "colours": COLOURS,
        "scopes": SCOPES,
        "effects": {
            kind: {lang: [w.label, w.explain] for lang, w in words.items()}
            for kind, words in EFFECTS.items()
        },
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
