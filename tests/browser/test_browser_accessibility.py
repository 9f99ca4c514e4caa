"""Issue 8, test 7: axe-core (axe-playwright-python) finds no serious or critical violation on
the lobby, my games, the table and the replay viewer (issue 18: with its dispute form open, and
/disputes/), in English and in Czech (and in the light and the dark theme)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.axe import violations
from tests.browser.ui import login, open_table, wait_drawn

LOG_IN = {"en": "Log in", "cs": "Přihlásit se"}
RIG = {"first": 0, "hands": [["C17", "C25", "C33"], ["C29", "C01", "C30"]]}


# Both languages, and each in one of the two themes the pages follow (light and dark).
@pytest.mark.parametrize("lang, scheme", [("en", "light"), ("cs", "dark")])
def test_pages_have_no_serious_accessibility_violation(
    lang, scheme, make_player, open_page, finished_game
):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    finished, _ = finished_game
    # Reduced motion: colours are checked at rest, not on a card in flight.
    page = open_page(f"eva-{lang}-{scheme}", lang=lang, motion="reduce", scheme=scheme)
    login(page, eva, button=LOG_IN[lang])
    axe = Axe()
    found: list[str] = []

    page.goto("/")
    page.wait_for_selector("form#create-game")
    found += violations(axe, page, "lobby")
    page.goto("/me/")
    page.wait_for_selector("#my-games [data-game]")
    found += violations(axe, page, "my games")
    page.goto("/notifications/")  # eva's turn: one unread notification (issue 18)
    page.wait_for_selector("#notifications [data-notification]")
    found += violations(axe, page, "notifications")
    open_table(page, gid)
    page.click('#hand button[data-card="C17"]')  # the play being built is part of the table
    page.wait_for_selector("[data-effect]")
    found += violations(axe, page, "table")
    page.goto(f"/games/{finished}/replay/")
    wait_drawn(page, "#replay")
    page.wait_for_selector("#markers li", state="attached")  # the moments, fetched after
    found += violations(axe, page, "replay viewer")
    page.goto("/rules/")  # the rules page (issue 18), the whole deck drawn on it
    page.wait_for_selector("#card-C40")
    found += violations(axe, page, "rules")
    # Issue 18: the dispute form open on a replay of her own game, and /disputes/ listing it.
    page.goto(f"/games/{gid}/replay/?at=2")
    wait_drawn(page, "#replay")
    page.click('button[data-control="dispute"]')
    page.fill("#dispute-reason", "The deal looked wrong.")
    page.click('#dispute-form button[type="submit"]')
    page.wait_for_selector(".dispute-done a")
    found += violations(axe, page, "replay viewer, dispute form")
    page.goto("/disputes/")
    page.wait_for_selector("#my-disputes [data-dispute]")
    found += violations(axe, page, "my disputes")
    assert not found, "\n".join(found)
