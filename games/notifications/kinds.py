"""The one table of notification kinds: for each kind, its words in English and Czech ("ty",
as every page), where it links, and how loud a push of it is. Everything that says a
notification in words reads it here: the mails (`mails`), `/notifications/`
(frontend/notification_pages.py), the bell (frontend/static/frontend/bell.js, through the JSON
island `{% notification_kinds_script %}`) and the Web Push payloads (`web_push`).

Words per kind:
- `summary`: one line naming the game ("Your turn in game 12"): the page, the bell, the
  digest's lines and a push's body;
- `mail`: the mail's sentence ("It is your turn in game 12."): the subject ("Sejmi je: " + it)
  and the first line of the immediate mail;
- `title`: a push's title, short, for a lock screen ("Your turn");
- `action`: the mail's link label ("Open the game").
`{game}` is the notification's game, `{seq}` its seq, `{round}` a tournament's round (the
seq of a `tournament_round` notification). A new kind is a row here (tests/notifications/
test_kinds.py fails while a kind of derive.KINDS lacks one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LANGUAGES = ("en", "cs")
SUBJECT_PREFIX = "Sejmi je: "

# Where a kind links: a path, formatted with the same fields as the words.
GAME = "/games/{game}/"
DISPUTES = "/disputes/"
TOURNAMENTS = "/tournaments/"


@dataclass(frozen=True)
class Kind:
    name: str
    summary: dict[str, str]
    mail: dict[str, str]
    title: dict[str, str]
    action: dict[str, str]
    link: str = GAME
    urgency: str = "normal"  # RFC 8030 Urgency of its push: high for what has a deadline
    about_the_table: bool = True  # the game's own table shows it (born read there)


_OPEN = {"en": "Open the game", "cs": "Otevřít hru"}

KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("your_turn",
         summary={"en": "Your turn in game {game}", "cs": "Jsi na tahu ve hře {game}"},
         mail={"en": "It is your turn in game {game}.", "cs": "Jsi na tahu ve hře {game}."},
         title={"en": "Your turn", "cs": "Jsi na tahu"},
         action=_OPEN),
    Kind("block_window",
         summary={"en": "You may block in game {game}", "cs": "Ve hře {game} můžeš blokovat"},
         mail={"en": "A block window is open for you in game {game}.",
               "cs": "Ve hře {game} můžeš blokovat."},
         title={"en": "You may block", "cs": "Můžeš blokovat"},
         action=_OPEN, urgency="high"),
    Kind("deadline_soon",
         summary={"en": "Time is running out in game {game}",
                  "cs": "Ve hře {game} ti dochází čas"},
         mail={"en": "Only a fifth of your time is left in game {game}.",
               "cs": "Ve hře {game} ti zbývá jen pětina času."},
         title={"en": "Time is running out", "cs": "Dochází ti čas"},
         action=_OPEN, urgency="high"),
    Kind("eliminated",
         summary={"en": "You are out of game {game}", "cs": "Ve hře {game} ti došly životy"},
         mail={"en": "You are out of game {game}.", "cs": "Ve hře {game} ti došly životy."},
         title={"en": "You are out", "cs": "Došly ti životy"},
         action=_OPEN),
    Kind("game_over",
         summary={"en": "Game {game} is over", "cs": "Hra {game} skončila"},
         mail={"en": "Game {game} is over.", "cs": "Hra {game} skončila."},
         title={"en": "Game over", "cs": "Konec hry"},
         action=_OPEN),
    Kind("dispute_decided",
         summary={"en": "Staff decided your dispute about game {game}",
                  "cs": "Správci rozhodli o tvé námitce ke hře {game}"},
         mail={"en": "Staff have decided your dispute about game {game}.",
               "cs": "Správci rozhodli o tvé námitce ke hře {game}."},
         title={"en": "Dispute decided", "cs": "Námitka rozhodnuta"},
         action={"en": "Read the decision", "cs": "Přečti si rozhodnutí"},
         link=DISPUTES, about_the_table=False),
    # Tournaments (API.md "Tournaments"): `game` is the table's game, `seq` the round.
    Kind("tournament_round",
         summary={"en": "Your table of round {round} is ready",
                  "cs": "Tvůj stůl {round}. kola je připraven"},
         mail={"en": "Your table of round {round} is ready: game {game}.",
               "cs": "Tvůj stůl {round}. kola je připraven: hra {game}."},
         title={"en": "Your table is ready", "cs": "Tvůj stůl je připraven"},
         action=_OPEN, urgency="high", about_the_table=False),
    Kind("tournament_ended",
         summary={"en": "The tournament has ended", "cs": "Turnaj skončil"},
         mail={"en": "The tournament has ended.", "cs": "Turnaj skončil."},
         title={"en": "The tournament has ended", "cs": "Turnaj skončil"},
         action={"en": "See the tournaments", "cs": "Zobraz turnaje"},
         link=TOURNAMENTS, about_the_table=False),
    # The bot played every decision of his game for him: he is paired no more (issue 27).
    Kind("tournament_withdrawn",
         summary={"en": "You were withdrawn from the tournament after game {game}",
                  "cs": "Po hře {game} jsi byl z turnaje odhlášen"},
         mail={"en": "The bot played all of game {game} for you, so you were withdrawn from "
                     "the tournament.",
               "cs": "Celou hru {game} za tebe hrál robot, a tak jsi byl z turnaje odhlášen."},
         title={"en": "Withdrawn from the tournament", "cs": "Odhlášen z turnaje"},
         action={"en": "See the tournaments", "cs": "Zobraz turnaje"},
         link=TOURNAMENTS, about_the_table=False),
)}  # fmt: skip


def language(code: str | None) -> str:
    """cs for any Czech tag (cs, cs-CZ), en otherwise."""
    return "cs" if (code or "").lower().startswith("cs") else "en"


def fields(row: Any) -> dict[str, Any]:
    """What the words and the link of a notification row are formatted with."""
    return {"game": row.game_id, "seq": row.seq, "round": row.seq}


def _kind(name: str) -> Kind:
    return KINDS[name]


def summary(row: Any, lang: str) -> str:
    kind = KINDS.get(row.kind)
    return kind.summary[language(lang)].format(**fields(row)) if kind else row.kind


def mail_sentence(row: Any, lang: str) -> str:
    return _kind(row.kind).mail[language(lang)].format(**fields(row))


def subject(row: Any, lang: str) -> str:
    return SUBJECT_PREFIX + mail_sentence(row, lang)


def title(row: Any, lang: str) -> str:
    return _kind(row.kind).title[language(lang)].format(**fields(row))


def action(row: Any, lang: str) -> str:
    return _kind(row.kind).action[language(lang)]


def path(row: Any) -> str:
    """The page a notification links to (site-relative)."""
    kind = KINDS.get(row.kind)
    return (kind.link if kind else GAME).format(**fields(row))


def waiting(n: int, lang: str) -> str:
    """How many games wait for the player: "Your turn in 3 games" / "Jsi na tahu ve 3 hrách"
    (Czech: the locative, singular for 1, plural for every other count; the preposition as
    the number is read aloud: "ve" before dvou, třech, čtyřech, sto…, "v" before the rest)."""
    if language(lang) == "en":
        return f"Your turn in {n} game" + ("" if n == 1 else "s")
    return f"Jsi na tahu {_v(n)} {n} " + ("hře" if n == 1 else "hrách")


# The first word of a number read aloud in Czech starts with a cluster that takes "ve":
# 2 dvou, 3 třech, 4 čtyřech, 12 dvanácti, 13 třinácti, 14 čtrnácti, 20.. dvaceti, 30..
# třiceti, 40.. čtyřiceti, 100.. stu, 200 dvou set, 300 třech set, 400 čtyřech set.
_VE_UNDER_20 = {2, 3, 4, 12, 13, 14}
_VE_TENS = {2, 3, 4}


def _v(n: int) -> str:
    if n < 20:
        return "ve" if n in _VE_UNDER_20 else "v"
    if n < 100:
        return "ve" if n // 10 in _VE_TENS else "v"
    if n < 1000:
        return "ve" if n // 100 in (1, 2, 3, 4) else "v"
    return "v"  # tisíc…


def for_page(lang: str) -> dict[str, dict[str, str]]:
    """The bell's words in one language: per kind its summary and its link, `{game}`-style
    placeholders left for the page to fill."""
    lang = language(lang)
    return {name: {"summary": kind.summary[lang], "link": kind.link}
            for name, kind in KINDS.items()}  # fmt: skip
