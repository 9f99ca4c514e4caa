"""Each card effect's words in both languages: the one source, read by the cards and the rules
page (`frontend/card_words.py`, which gives them to the page as JSON), the transcript
(`replays/phrases.py`) and the page's "hit yourself?" question (`static/frontend/yourself.js`).
Plain data beside the effect table (`effects.py`): the rules never read it.

Per effect and language: `label`, the bold line of a card (Czech: the printed sheet's text,
RULES.md section 3); `explain`, one short sentence for a newcomer; `line`, the transcript's
short form, said in brackets after the effect's id (so none of its own; Czech: the sheet's
text without its ":2" / "x2"); `yourself`, the question before a player aims the effect at
himself, for an effect that can cost its player lives (`EffectRule.loss`), else "". All speak
to the player the effect hits ("ty" in Czech, as the rule sheet does).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

LANGUAGES = ("en", "cs")


@dataclass(frozen=True, slots=True)
class EffectWords:
    label: str
    explain: str
    line: str
    yourself: str = ""


E = EffectWords
WORDS: Mapping[str, Mapping[str, EffectWords]] = {
    "LOSE_1": {
        "en": E(
            "Lose 1 life", "Each player hit loses 1 life.", "lose 1 life", "Lose 1 life yourself?"
        ),
        "cs": E(
            "Uber si 1 život",
            "Každý zasažený přijde o 1 život.",
            "Uber si 1 život",
            "Opravdu si ubrat 1 život?",
        ),
    },
    "GAIN_1": {
        "en": E("Gain 1 life", "Each player hit gains 1 life (6 at most).", "gain 1 life"),
        "cs": E(
            "Přidej si 1 život", "Každý zasažený získá 1 život (nejvýš 6).", "Přidej si 1 život"
        ),
    },
    "GIVE_NEIGHBOR": {
        "en": E(
            "Give a neighbour 1 of your lives",
            "You lose 1 life; a neighbour you pick gains it.",
            "give a neighbour 1 life",
            "Give 1 of your own lives to a neighbour?",
        ),
        "cs": E(
            "Dej sousedovi 1 svůj život",
            "Ztratíš 1 život a dostane ho soused, kterého si vybereš.",
            "Dej sousedovi 1 svůj život",
            "Opravdu dát 1 svůj život sousedovi?",
        ),
    },
    "STEAL_NEIGHBOR": {
        "en": E(
            "Take 1 life from a neighbour",
            "A neighbour you pick loses 1 life; you gain it.",
            "take 1 life from a neighbour",
        ),
        "cs": E(
            "Vezmi sousedovi 1 život a přidej si ho",
            "Soused, kterého si vybereš, přijde o 1 život a ty ho získáš.",
            "Vezmi sousedovi 1 život a přidej si ho",
        ),
    },
    "SWAP_NEIGHBOR": {
        "en": E(
            "Swap lives with a neighbour",
            "You and a neighbour you pick swap your lives.",
            "swap lives with a neighbour",
        ),
        "cs": E(
            "Prohoď si počet životů se sousedem",
            "Prohodíš si životy se sousedem, kterého si vybereš.",
            "Prohoď si počet životů se sousedem",
        ),
    },
    "BLAST": {
        "en": E(
            "Lose 2 lives, your neighbours lose 1 (HIGHHP only)",
            "Only at 4–6 lives (HIGHHP): you lose 2, each neighbour loses 1.",
            "lose 2, neighbours lose 1; HIGHHP only",
            "Lose 2 lives yourself (and your neighbours lose 1 each)?",
        ),
        "cs": E(
            "Uber si 2 životy, tví sousedi si uberou 1 (jen na HIGHHP)",
            "Jen při 4–6 životech (HIGHHP): ztratíš 2, každý soused 1.",
            "Uber si 2 životy, tví sousedi si uberou 1, jen na HIGHHP",
            "Opravdu si ubrat 2 životy (a sousedům po 1)?",
        ),
    },
    "DUEL": {
        "en": E(
            "Duel",
            "You and the Kostič take turns betting on a "
            "die roll (or a coin); a miss costs 2 lives.",
            "duel",
        ),
        "cs": E(
            "Souboj",
            "Střídavě s Kostičem sázíte na hod kostkou (nebo mincí); kdo netrefí, ztratí 2 životy.",
            "Souboj",
        ),
    },
    "HALVE_EVEN": {
        "en": E(
            "Halve your lives (even only)",
            "Only at 2, 4 or 6 lives: your lives ÷ 2.",
            "halve your lives; even only",
            "Halve your own lives?",
        ),
        "cs": E(
            "Vyděl si počet životů 2 / :2 (jen na sudé)",
            "Jen při 2, 4 nebo 6 životech: tvé životy ÷ 2.",
            "Vyděl si počet životů 2, jen na sudé",
            "Opravdu si vydělit životy dvěma?",
        ),
    },
    "DOUBLE_LOW": {
        "en": E(
            "Double your lives (LOWHP only)",
            "Only at 1–3 lives (LOWHP): your lives × 2.",
            "double your lives; LOWHP only",
        ),
        "cs": E(
            "Vynásob si počet životů 2 / x2 (jen na malé)",
            "Jen při 1–3 životech (LOWHP): tvé životy × 2.",
            "Vynásob si počet životů 2, jen na malé",
        ),
    },
    "LOW_UP_TOP_DOWN": {
        "en": E(
            "1–3 lives +1, most lives −1",
            "Whole table, whatever the colour: every LOWHP player +1, every TOPHP player −1.",
            "LOWHP +1, TOPHP −1",
        ),
        "cs": E(
            "LOWHP +1, TOPHP −1",
            "Celý stůl, ať je barva jakákoli: každý LOWHP +1, každý TOPHP −1.",
            "LOWHP +1, TOPHP −1",
        ),
    },
    "LOW_2_TOP_5": {
        "en": E(
            "1–3 lives become 2, most lives become 5",
            "Whole table, whatever the colour: every LOWHP player to 2, every TOPHP player to 5.",
            "LOWHP = 2, TOPHP = 5",
        ),
        "cs": E(
            "LOWHP = 2, TOPHP = 5",
            "Celý stůl, ať je barva jakákoli: každý LOWHP má 2 životy, každý TOPHP 5.",
            "LOWHP = 2, TOPHP = 5",
        ),
    },
    "ODD_UP": {
        "en": E("Odd lives +1", "Each player hit with 1, 3 or 5 lives gains 1.", "odd-lifers +1"),
        "cs": E(
            "Lichoživotníci +1",
            "Každý zasažený s 1, 3 nebo 5 životy si přidá 1.",
            "Lichoživotníci +1",
        ),
    },
    "EVEN_DOWN": {
        "en": E(
            "Even lives −1",
            "Each player hit with 2, 4 or 6 lives loses 1.",
            "even-lifers −1",
            "Lose 1 life yourself?",
        ),
        "cs": E(
            "Sudoživotníci −1",
            "Každý zasažený s 2, 4 nebo 6 životy si 1 ubere.",
            "Sudoživotníci −1",
            "Opravdu si ubrat 1 život?",
        ),
    },
}
