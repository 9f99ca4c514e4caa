"""Issue 29: every page at 1280 × 800 and 390 × 844, in English and in Czech — signup, login,
the lobby, My games, the table (my turn in a four-seat game, and the end of a game), the replay
viewer, the rules, notifications, disputes, a profile, the tournaments and a tournament — is no
wider than the window (the Czech profile was 9 px too wide at 390), and is saved as a
screenshot: to tests/browser/screenshots/, and to docs/screenshots/ with SEJMI_DOC_SCREENSHOTS=1.
The block window's shots come from test_browser_one_screen.py (`one-screen-block-*`).

Regenerate docs/screenshots/ (docs/PLAYING.md, "Screenshots"):
    SEJMI_DOC_SCREENSHOTS=1 pytest tests/browser/test_browser_page_shots.py \
        tests/browser/test_browser_one_screen.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.api import settled
from tests.browser.ui import SHOTS, login, open_table, wait_drawn

LOG_IN = {"en": "Log in", "cs": "Přihlásit se"}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
RIG = {"first": 0, "lives": [6, 4, 2, 5],
       "hands": [["C25", "C01", "C36", "C13"], ["C26", "C02", "C05"], ["C07", "C08", "C09"],
                 ["C10", "C11", "C12"]]}  # fmt: skip


def save(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"page-{name}.png")
    if os.environ.get("SEJMI_DOC_SCREENSHOTS"):
        DOCS.mkdir(exist_ok=True)
        page.screenshot(path=DOCS / f"{name}.png")


def no_sideways_scroll(page, width: int, where: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{where} is {wide} px wide in a {width} px window"


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_every_page_fits_its_width_and_is_shot(
    make_player, open_page, finished_game, lang, width, height
):
    eva, jan, ota, iva = (make_player(s) for s in ("eva", "jan", "ota", "iva"))
    gid = eva.create_game(4, rig=RIG)
    for seat, player in enumerate((eva, jan, ota, iva)):
        player.join(gid, seat)
    settled(eva, gid, lambda v: v["status"] == "active")
    finished, host = finished_game
    tournament = eva.post(
        "/api/tournaments/",
        {"name": f"Cup {lang}", "format": "swiss", "rounds": 2,
         "table_size": {"min": 2, "max": 4}, "variant": "standard", "options": {}},
        status=201,
    )["id"]  # fmt: skip
    eva.post(f"/api/tournaments/{tournament}/join/", {})
    page = open_page(f"eva-{lang}", lang=lang, motion="reduce")
    page.set_viewport_size({"width": width, "height": height})
    for name, url, ready in (("signup", "/signup/", "form"), ("login", "/login/", "form")):
        page.goto(url)
        page.wait_for_selector(ready)
        no_sideways_scroll(page, width, name)
        save(page, f"{name}-{lang}-{width}")
    login(page, eva, button=LOG_IN[lang])

    open_table(page, gid)
    page.wait_for_selector("#prompt:not([hidden])")
    no_sideways_scroll(page, width, "the table")
    save(page, f"table-{lang}-{width}")

    page.goto(f"/games/{finished}/replay/?at=20")
    wait_drawn(page, "#replay")
    no_sideways_scroll(page, width, "the replay viewer")
    save(page, f"replay-{lang}-{width}")
    page.goto(f"/games/{finished}/")
    wait_drawn(page)
    page.wait_for_selector("#winners .places")
    no_sideways_scroll(page, width, "the end of a game")
    save(page, f"table-end-{lang}-{width}")

    for name, url, ready in (
        ("lobby", "/", "form#create-game"),
        ("me", "/me/", "#waiting-summary"),
        ("rules", "/rules/", "#quick-start"),
        ("notifications", "/notifications/", "#notifications-summary"),
        ("disputes-empty", "/disputes/", "main h1"),  # disputes-*: one decided, one open
        ("profile", f"/players/{host.username}/", "#player-name"),
        ("tournaments", "/tournaments/", "main h1"),
        ("tournament", f"/tournaments/{tournament}/", ".tournament-players"),
    ):
        page.goto(url)
        page.wait_for_selector(ready)
        no_sideways_scroll(page, width, name)
        save(page, f"{name}-{lang}-{width}")
