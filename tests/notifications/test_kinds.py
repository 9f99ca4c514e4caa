"""Issue 26 item 5: one table of notification kinds (games/notifications/kinds.py). Every kind
the derivation makes (derive.KINDS), and the two of the tournaments (API.md "Tournaments"),
has its words in both languages, a link and a mail subject; the mails, `/notifications/` and
the bell read that table and nothing else."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.notifications import kinds
from games.notifications.derive import KINDS as DERIVED

ROOT = Path(__file__).resolve().parents[2]
EVERY = sorted({*DERIVED, "tournament_round", "tournament_ended"})
FIELDS = {"game", "seq", "round"}


def row(kind: str, game: int = 12, seq: int = 3) -> SimpleNamespace:
    return SimpleNamespace(kind=kind, game_id=game, seq=seq, user_id=1)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("name", EVERY)
def test_every_kind_has_words_in_both_languages_a_link_and_a_subject(name):
    assert name in kinds.KINDS, f"{name} has no row in the kinds table"
    kind = kinds.KINDS[name]
    for words in (kind.summary, kind.mail, kind.title, kind.action):
        assert set(words) == set(kinds.LANGUAGES), (name, words)
        assert all(text.strip() for text in words.values()), (name, words)
        # Both languages say the same facts: the same placeholders, all of them known.
        assert placeholders(words["en"]) == placeholders(words["cs"]) <= FIELDS, (name, words)
    assert kind.link.startswith("/") and placeholders(kind.link) <= FIELDS
    assert kind.urgency in ("very-low", "low", "normal", "high")
    for lang in kinds.LANGUAGES:
        subject = kinds.subject(row(name), lang)
        assert subject.startswith("Sejmi je: ") and len(subject) > len("Sejmi je: ") + 5
        assert "{" not in kinds.summary(row(name), lang) + subject + kinds.title(row(name), lang)


def test_links_of_the_kinds():
    assert kinds.path(row("your_turn")) == "/games/12/"
    assert kinds.path(row("dispute_decided")) == "/disputes/"  # where the resolution is
    assert kinds.path(row("tournament_round", game=40, seq=2)) == "/games/40/"
    assert kinds.path(row("tournament_ended")) == "/tournaments/"


def test_the_tournament_words():
    round_two = row("tournament_round", game=40, seq=2)
    assert kinds.summary(round_two, "en") == "Your table of round 2 is ready"
    assert kinds.summary(round_two, "cs") == "Tvůj stůl 2. kola je připraven"
    assert kinds.summary(row("tournament_ended"), "en") == "The tournament has ended"
    assert kinds.summary(row("tournament_ended"), "cs") == "Turnaj skončil"


@pytest.mark.parametrize(("n", "en", "cs"), [
    (1, "Your turn in 1 game", "Jsi na tahu v 1 hře"),
    (2, "Your turn in 2 games", "Jsi na tahu ve 2 hrách"),
    (3, "Your turn in 3 games", "Jsi na tahu ve 3 hrách"),
    (4, "Your turn in 4 games", "Jsi na tahu ve 4 hrách"),
    (5, "Your turn in 5 games", "Jsi na tahu v 5 hrách"),
    (7, "Your turn in 7 games", "Jsi na tahu v 7 hrách"),
    (12, "Your turn in 12 games", "Jsi na tahu ve 12 hrách"),
    (21, "Your turn in 21 games", "Jsi na tahu ve 21 hrách"),
    (55, "Your turn in 55 games", "Jsi na tahu v 55 hrách"),
])  # fmt: skip
def test_how_many_games_wait_in_both_languages(n, en, cs):
    assert kinds.waiting(n, "en") == en
    assert kinds.waiting(n, "cs") == cs


def test_the_words_live_only_in_the_table():
    """The page, the bell and the mails hold no kind's words of their own any more."""
    sources = {
        "frontend/notification_pages.py": None,
        "frontend/static/frontend/pages/site_header.js": None,
        "games/notifications/mails.py": None,
    }
    for path in sources:
        text = (ROOT / path).read_text(encoding="utf-8")
        for kind in kinds.KINDS.values():
            for words in (kind.summary, kind.mail):
                for lang in kinds.LANGUAGES:
                    stem = re.split(r"\{\w+\}", words[lang])[0].strip()
                    if len(stem) >= 8:
                        assert stem not in text, (path, stem)


def test_the_bell_gets_the_table_as_json():
    english, czech = kinds.for_page("en"), kinds.for_page("cs")
    assert set(english) == set(czech) == set(kinds.KINDS)
    assert json.loads(json.dumps(czech))["your_turn"] == {
        "summary": "Jsi na tahu ve hře {game}",
        "link": "/games/{game}/",
    }
