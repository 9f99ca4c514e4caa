"""The profile page draws the rating history as an inline SVG (rating_chart.js) with
a text alternative, the leaderboard filters by variant, and axe-core finds no serious or
critical violation on either, in English (light) and Czech (dark); in English also on `make
run`'s SQLite."""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.api import play_out, public
from tests.browser.axe import violations


@pytest.mark.parametrize(
    ("lang", "scheme", "site"),
    [("en", "light", "postgresql"), ("cs", "dark", "postgresql"), ("en", "light", "sqlite")],
    indirect=["site"],
)
def test_the_profile_charts_the_rating_and_the_leaderboard_filters(
    lang, scheme, make_player, open_page, site
):
    eva, jan = make_player("eva"), make_player("jan")
    for n in range(3):  # three rated games between humans
        gid = eva.create_game(2)
        eva.join(gid, 0)
        jan.join(gid, 1)
        play_out(gid, [eva, jan], random.Random(n), timeout=90)
    history = public(site.base, f"/api/players/{eva.username}/")["history"]
    assert len(history) == 3

    page = open_page(f"profile-{lang}-{scheme}", lang=lang, motion="reduce", scheme=scheme)
    page.goto(f"/players/{eva.username}/")
    chart = page.wait_for_selector("[data-chart] svg")
    assert chart.get_attribute("role") == "img"
    assert chart.get_attribute("aria-labelledby") == "rating-chart-caption"
    assert page.locator("[data-chart] svg circle").count() == 3
    assert "3" in page.locator("#rating-chart-caption").inner_text()
    axe = Axe()
    found = violations(axe, page, "profile")

    board = open_page(f"leaderboard-{lang}-{scheme}", lang=lang, motion="reduce", scheme=scheme)
    board.goto("/leaderboard/")
    board.wait_for_selector(f'#leaderboard tr[data-player="{eva.username}"]')
    found += violations(axe, board, "leaderboard")
    board.select_option("#id_variant", "standard")
    board.click("form.filter-form button[type=submit]")
    board.wait_for_url("**/leaderboard/?variant=standard")
    board.click(f'#leaderboard a[href="/players/{jan.username}/"]')
    board.wait_for_selector("[data-chart] svg")
    assert board.locator("#player-name").inner_text() == jan.username
    board.goto("/leaderboard/?variant=standard")
    assert not found, "\n".join(found)
