"""A newcomer signs up, creates a game against two bots in the lobby and plays
it to the winners banner, using only the page: no API call, no rigging. On both databases:
`make run`'s SQLite is where a newcomer starts."""

from __future__ import annotations

import os
import random
import re

import pytest

from tests.browser.api import PASSWORD
from tests.browser.autoplay import play_until_winners
from tests.browser.live import BOTH
from tests.browser.ui import seat_lives, wait_drawn


@pytest.mark.parametrize("site", BOTH, indirect=True)
def test_newcomer_signs_up_and_plays_a_bot_game_to_the_end(site, open_page):
    page = open_page("newcomer")
    page.goto("/")
    page.locator("header").get_by_role("link", name="Sign up", exact=True).click()
    page.wait_for_url("**/signup/")
    name = f"newcomer{os.getpid() % 100000}"
    page.fill("[name=username]", name)
    page.fill("[name=password1]", PASSWORD)
    page.fill("[name=password2]", PASSWORD)
    page.get_by_role("button", name="Sign up", exact=True).click()
    page.wait_for_url(f"{site.base}/")
    assert name in page.inner_text("header"), "signed up and logged in"
    assert page.get_by_role("button", name="Log out", exact=True).count() == 1

    form = page.locator("form#create-game")
    form.locator("[name=seats]").select_option("3")
    form.locator("[name=variant]").select_option("standard")
    form.locator('[name=bots][value="1"]').check()
    form.locator('[name=bots][value="2"]').check()
    form.locator('[name=pace][value="live"]').check()
    assert form.locator("[name=sit]").is_checked(), "the creator sits at seat 0 by default"
    form.get_by_role("button", name="Create game", exact=True).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    wait_drawn(page)
    me = page.locator('[data-seat="0"]')
    assert name in me.inner_text(), "the newcomer holds seat 0"

    clicks = play_until_winners(page, random.Random(2), timeout=120)
    assert clicks, "the newcomer had to act"
    banner = page.locator("#winners")
    assert banner.get_attribute("role") == "status"
    gid = int(re.search(r"/games/(\d+)/", page.url).group(1))
    view = page.request.get(f"/api/games/{gid}/").json()  # the page's own session
    assert view["status"] == "ended" and view["winners"]
    winners = [view["players"][seat]["username"] for seat in view["winners"]]
    assert all(w in banner.inner_text() for w in winners), banner.inner_text()
    assert seat_lives(page) == {p["seat"]: p["lives"] for p in view["players"]}
