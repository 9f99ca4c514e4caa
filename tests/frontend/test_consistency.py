"""One way of saying things on every page (issue 18, "Consistency"): bots named alike (bot#1 …),
one duration format and one date format per language, the Czech pages in the "ty" register of
the rule sheet with Czech's three plural forms, the header's name linking to my profile. The
pages' scripts are checked for the same in tests/browser/test_browser_consistency.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from gettext import GNUTranslations
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern
from django.utils import translation
from django.utils.translation import ngettext

from frontend import time_words
from frontend import urls as page_urls
from frontend.templatetags import sejmi_pages
from games.engine import fold
from games.engine import new_game as engine_new_game
from games.engine.names import seat_name, seat_names
from games.notifications.mails import unsubscribe_token
from replays.phrases import PHRASES
from replays.transcript import display_names
from tests.frontend.page_helpers import bot_game, game_ids, join, logged_in, new_game, play_to_end
from tests.support.czech_register import vy_forms

CS = {"HTTP_ACCEPT_LANGUAGE": "cs"}
FRONTEND = Path(__file__).resolve().parents[2] / "frontend"

# --- bots ---------------------------------------------------------------------------------


def test_a_bot_is_named_by_its_seat_however_many_bots_sit():
    assert seat_name("bot", bot=True, seat=1) == "bot#1"
    assert seat_name("eva", bot=False, seat=0) == "eva"
    assert seat_name(None, bot=False, seat=2) is None
    assert seat_names(["eva", "bot", None], [False, True, False]) == ["eva", "bot#1", None]


def test_the_transcript_names_a_lone_bot_as_the_table_does():
    events = engine_new_game(seats=2, seed=b"\x01" * 32, options={"bots": [1]})
    assert display_names(fold(events), PHRASES["en"]) == ["seat 0", "bot#1"]


@pytest.mark.django_db
def test_bots_have_the_same_names_in_the_lobby_my_games_and_the_profile():
    eva = logged_in("eva")
    gid = new_game(eva, 3, bots=[1, 2])
    join(eva, gid, 0)
    running = new_game(eva, 3, bots=[2], turn_deadline_s=86400)
    join(eva, running, 0)
    play_to_end(eva, gid)

    lobby, mine, profile = (eva.get(path).text for path in ("/", "/me/", "/players/eva/"))
    for page in (lobby, profile):
        chips = seat_chip_names(page, gid)
        assert chips == ["eva", "bot#1", "bot#2"], chips
    assert seat_chip_names(mine, running)[1:] == ["free seat", "bot#2"]
    won = eva.get(f"/api/games/{gid}/").json()["winners"]
    badge = f"winner{'s' if len(won) > 1 else ''}: " + ", ".join(
        "eva" if seat == 0 else f"bot#{seat}" for seat in won
    )
    assert badge in lobby and badge in mine
    assert ">bot<" not in lobby + mine + profile and "Kostič: bot<" not in lobby


def seat_chip_names(page: str, gid: int) -> list[str]:
    row = page[page.index(f'data-game="{gid}"') :]
    row = row[: row.index("</ul>")]
    return re.findall(r'class="seat-chip__name"[^>]*>([^<]*)<', row)


# --- durations and moments ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s"), (45, "45 s"), (60, "1 min"), (3595, "59 min 55 s"), (3600, "1 h"),
     (3900, "1 h 5 min"), (3661, "1 h 1 min"), (86400, "1 d"), (183600, "2 d 3 h"),
     (-5, "0 s")],
)  # fmt: skip
def test_one_duration_format(seconds, text):
    assert time_words.duration(seconds, "en") == text
    assert time_words.duration(seconds, "cs") == text  # SI symbols, read alike in Czech
    with translation.override("cs"):
        assert sejmi_pages.duration(seconds) == text


def test_the_countdown_starts_in_the_same_format():
    soon = datetime.now(UTC) + timedelta(minutes=59, seconds=55, milliseconds=500)
    assert sejmi_pages.time_left(soon) in ("59 min 55 s", "59 min 54 s")
    assert sejmi_pages.time_left(datetime.now(UTC) - timedelta(hours=1)) == "0 s"


def test_moments_in_the_page_language_never_dd_mm_yyyy():
    at = datetime(2026, 12, 1, 18, 5, tzinfo=UTC)
    assert time_words.moment(at, "en") == "1 Dec 2026, 18:05"
    assert time_words.moment(at, "cs") == "1. 12. 2026 18:05"
    with translation.override("en"):
        assert sejmi_pages.when(at) == "1 Dec 2026, 18:05"


@pytest.mark.django_db
def test_the_lobby_writes_english_dates_day_month_year():
    eva = logged_in("eva")
    play_to_end(eva, bot_game(eva))
    page = Client().get("/").text
    shown = re.findall(r"<time[^>]*data-when>([^<]*)</time>", page)
    english = re.compile(r"\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d\d:\d\d")  # 1 Dec 2026, 18:05
    assert shown and all(english.fullmatch(s) for s in shown), shown
    assert not re.search(r"\d\d/\d\d/\d{4}", page)
    cs = Client(**CS).get("/").text
    assert re.search(r"data-when>\d{1,2}\. \d{1,2}\. \d{4} \d{1,2}:\d\d<", cs)


@pytest.mark.django_db
def test_paces_use_the_duration_format():
    page = logged_in("eva").get("/").text
    assert "20 s to block, 2 min per decision" in page
    assert "1 h to block, 1 d per decision" in page


# --- the Czech register ---------------------------------------------------------------------


def every_page_path(gid: int, username: str) -> list[str]:
    """Every GET page of frontend/urls.py (the pages other work adds included), filled in."""
    values = {"game_id": gid, "username": username, "token": unsubscribe_token(1)}
    paths = []
    for pattern in page_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = str(pattern.pattern)
        paths.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m[1], 1)), route))
    return [p for p in paths if p not in ("/logout/",)]


@pytest.mark.django_db
def test_no_czech_page_says_vy():
    eva, anonymous = logged_in("eva", **CS), Client(**CS)
    gid = bot_game(eva, turn_deadline_s=86400)
    seen = {}
    for path in every_page_path(gid, "eva"):
        for who, client in (("eva", eva), ("anonymous", anonymous)):
            answer = client.get(path)
            if answer.get("Content-Type", "").startswith("text/html"):
                seen[f"{who} {path}"] = answer.content.decode()
    seen["signup errors"] = anonymous.post(
        "/signup/", {"username": "bot", "password1": "1", "password2": "2"}
    ).content.decode()
    seen["login error"] = anonymous.post("/login/", {"username": "x", "password": "y"}).text
    seen["missing player"] = anonymous.get("/players/nobody-at-all/").text
    assert len(seen) >= 15
    found = {where: vy_forms(html) for where, html in seen.items() if vy_forms(html)}
    assert not found, found


def test_no_script_template_or_phrase_book_says_vy():
    """The pages' scripts, every template, and the Python that words things (the transcript's
    phrases, the mails, the table's frame) — Czech written outside the catalog."""
    root = FRONTEND.parent
    sources = [*(root / "frontend").rglob("*.js"), *(root / "frontend").rglob("*.html"),
               *(root / "replays").rglob("*.html"), *(root / "replays").rglob("*.py"),
               *(root / "frontend").rglob("*.py"), *(root / "games").rglob("*.py")]  # fmt: skip
    assert len(sources) > 50
    found = {}
    for source in sources:
        if hits := vy_forms(source.read_text(encoding="utf-8")):
            found[str(source.relative_to(root))] = hits
    assert not found, found


def test_the_czech_catalog_says_ty():
    """Every Czech text of the compiled catalog (the .mo the pages and mails read)."""
    mo = FRONTEND / "locale" / "cs" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as stream:
        catalog = GNUTranslations(stream)._catalog  # {msgid or (msgid, form): msgstr}
    found = {str(key): vy_forms(text) for key, text in catalog.items() if vy_forms(text)}
    assert not found, found


def test_the_vy_scan_can_fail():
    assert vy_forms("Přisedněte k otevřené hře. Jste na tahu, máte 2 životy.") != []
    assert len(vy_forms("Jste na tahu")) == 1 and vy_forms("Jsi na tahu") == []


# --- Czech plurals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "bots", "free", "waiting"),
    [(1, "1 bot", "1 volné", "1 hra na tebe čeká."),
     (2, "2 boti", "2 volná", "2 hry na tebe čekají."),
     (5, "5 botů", "5 volných", "5 her na tebe čeká.")],
)  # fmt: skip
def test_czech_has_three_plural_forms(n, bots, free, waiting):
    with translation.override("cs"):
        assert ngettext("%(n)s bot", "%(n)s bots", n) % {"n": n} == bots
        assert ngettext("%(n)s free", "%(n)s free", n) % {"n": n} == free
        assert ngettext("%(n)s game is waiting for you.", "%(n)s games are waiting for you.",
                        n) % {"n": n} == waiting  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("free", "words"), [(1, "1 volné"), (2, "2 volná"), (5, "5 volných")])
def test_the_czech_lobby_counts_free_seats_in_czech(free, words):
    eva = logged_in("eva")
    gid = new_game(eva, 6, bots=list(range(5 - free)))
    join(eva, gid, 5)
    row = Client(**CS).get("/").text.split(f'data-game="{gid}"')[1]
    assert words in row and game_ids(Client().get("/").text, "open-games") == [gid]


# --- the header -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_header_name_links_to_my_profile():
    page = logged_in("eva").get("/").text
    header = page[page.index("<header") : page.index("</header>")]
    assert re.search(r'<a class="username" href="/players/eva/"[^>]*>eva</a>', header)
    assert logged_in("jan").get("/players/jan/").status_code == 200  # a newcomer's profile too
