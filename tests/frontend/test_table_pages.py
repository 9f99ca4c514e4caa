"""The table and replay pages (issue 8): the server renders the frame the ES modules draw into —
the root hooks of API.md "Web pages", the deck's catalogue, the caller's seat, and what he saw
on his last visit (GameVisit). The drawing itself is the browser tests' subject."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from frontend.models import GameVisit
from frontend.visits import record_visit
from games.core.models import GameProjection
from games.engine import load_deck
from games.table import commands

ROOT = re.compile(r'<section id="(table|replay)"[^>]*>')
CATALOG = re.compile(r'<script id="catalog" type="application/json">(.*?)</script>', re.S)


def attrs(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))


def root_of(html: str) -> dict[str, str]:
    match = ROOT.search(html)
    assert match, "no #table / #replay root element"
    return {"id": match.group(1), **attrs(match.group(0))}


def seq_of(game_id: int) -> int:
    return GameProjection.objects.get(game_id=game_id).seq


@pytest.fixture
def users(db):
    make = get_user_model().objects.create_user
    return {name: make(username=name, password="s3cret-pass-1") for name in ("eva", "petr")}


@pytest.fixture
def game(users) -> int:
    """Three seats: eva 0, petr 1 (not yet seated), a bot 2."""
    gid = commands.game_create(user=users["eva"], seats=3, options={"bots": [2]}).game_id
    commands.game_join(user=users["eva"], game_id=gid, seat=0)
    return gid


def client_for(user=None, **headers) -> Client:
    client = Client(**headers)
    if user is not None:
        client.force_login(user)
    return client


def test_table_renders_for_a_player_with_the_root_hooks(users, game):
    answer = client_for(users["eva"]).get(f"/games/{game}/")
    assert answer.status_code == 200
    html = answer.content.decode()
    root = root_of(html)
    assert root["id"] == "table" and root["data-game"] == str(game)
    assert root["data-seq"].isdigit()  # the seq shown; table.js sets it as it draws
    assert root["data-you"] == "0"
    assert 'id="hand"' in html and 'id="log"' in html and 'aria-live="polite"' in html
    assert "frontend/pages/table.js" in html and 'type="module"' in html
    assert "csrftoken" in answer.cookies  # the page's commands send X-CSRFToken


def test_table_renders_for_a_spectator_without_a_hand(game):
    answer = client_for().get(f"/games/{game}/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert root_of(html)["data-you"] == ""
    assert 'id="hand"' not in html  # spectators: the public view, no hand (R23)
    assert "data-seen-url" not in root_of(html)  # nobody to remember
    assert not GameVisit.objects.exists()


def test_catalog_of_the_games_deck_is_in_the_page(users, game):
    html = client_for(users["petr"]).get(f"/games/{game}/").content.decode()
    catalog = json.loads(CATALOG.search(html).group(1))
    deck = load_deck("standard")
    assert list(catalog) == list(deck.ids)
    assert catalog["C17"] == [{"colour": "green", "kind": "SWAP_NEIGHBOR"},
                              {"colour": "blue", "kind": "GAIN_1"}]  # fmt: skip


@pytest.mark.parametrize("path", ["/games/{}/", "/games/{}/replay/", "/games/{}/replay/?at=3"])
def test_unknown_game_is_a_404_page(db, path):
    answer = client_for().get(path.format(987654))
    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("text/html")
    assert "There is no such game." in answer.content.decode()


def test_game_visit_remembers_the_seq_the_page_showed_and_tells_it_next_time(users, game):
    """Issue 18 changed this on purpose: opening the page only reads the visit; the page
    reports the seq it showed in a visible tab (POST /games/{id}/seen/, table.js / seen.js),
    so moves watched live are not "since your last visit" and a tab opened unseen marks
    nothing."""
    eva = client_for(users["eva"])
    first = eva.get(f"/games/{game}/").content.decode()
    seen = seq_of(game)
    assert root_of(first)["data-since"] == ""  # a first visit has no "since"
    assert root_of(first)["data-seen-url"] == f"/games/{game}/seen/"
    assert not GameVisit.objects.exists(), "opening the page records nothing"
    reported = eva.post(f"/games/{game}/seen/", {"seq": seen}, content_type="application/json")
    assert reported.status_code == 204
    assert GameVisit.objects.get(user=users["eva"], game_id=game).last_seq == seen

    commands.game_join(user=users["petr"], game_id=game, seat=1)  # the game starts: new events
    assert seq_of(game) > seen
    again = eva.get(f"/games/{game}/").content.decode()
    assert root_of(again)["data-since"] == str(seen)
    assert GameVisit.objects.get(user=users["eva"], game_id=game).last_seq == seen


def test_game_visit_never_moves_backwards(users, game):
    assert record_visit(user=users["petr"], game_id=game, seq=9) is None
    assert record_visit(user=users["petr"], game_id=game, seq=4) == 9
    assert GameVisit.objects.get(user=users["petr"], game_id=game).last_seq == 9


def test_replay_page_renders_at_the_seq_asked(users, game):
    answer = client_for().get(f"/games/{game}/replay/?at=2")
    assert answer.status_code == 200
    html = answer.content.decode()
    root = root_of(html)
    assert root["id"] == "replay" and root["data-game"] == str(game)
    assert root["data-at"] == "2" and root["data-last"] == str(seq_of(game))
    assert "frontend/pages/replay.js" in html and CATALOG.search(html)


@pytest.mark.parametrize(("at", "expected"), [("", "last"), ("abc", "last"), ("0", "1"),
                                              ("99999", "last")])  # fmt: skip
def test_replay_position_is_kept_within_the_game(game, at, expected):
    html = client_for().get(f"/games/{game}/replay/?at={at}").content.decode()
    last = str(seq_of(game))
    assert root_of(html)["data-at"] == (last if expected == "last" else expected)


def test_pages_speak_czech_when_the_browser_prefers_it(users, game):
    html = client_for(HTTP_ACCEPT_LANGUAGE="cs").get(f"/games/{game}/").content.decode()
    assert '<html lang="cs"' in html
    assert f"Hra {game}" in html and "Průběh hry" in html


STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend"


def preloads(html: str) -> set[str]:
    return set(
        re.findall(r'<link rel="modulepreload" href="/static/frontend/shared/([\w.-]+)">', html)
    )


def test_the_pages_preload_every_module_they_import_but_the_lazy_one(users, game):
    """A cold page fetches all its modules at once (issue 18: level by level, the new modules
    made the first render ~120 ms slower, bench.web), and nothing it loads only when asked."""
    table = client_for(users["eva"]).get(f"/games/{game}/").content.decode()
    replay = client_for(users["eva"]).get(f"/games/{game}/replay/").content.decode()
    entries = [(STATIC / "pages" / name).read_text() for name in ("table.js", "table_beside.js")]
    direct = {
        found
        for entry in entries
        for found in re.findall(r'^import\b[^;"]*?"\.\./shared/([\w.-]+\.js)"', entry, re.M)
    }
    assert {"chat.js", "forks.js", "orders.js"} <= direct  # fmt: skip
    assert direct and direct <= preloads(table)
    assert "glossary.js" in preloads(table), "imported by cards.js, not by table.js itself"
    assert "dispute.js" not in preloads(table), "the table imports it when the button is pressed"
    assert "dispute.js" in preloads(replay) and "prompt.js" not in preloads(replay)
