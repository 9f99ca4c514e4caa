"""Issue 27: the tournaments' pages. A player organises one from /tournaments/ (linked from
the header), others join on its page, the organiser starts it; the page lists the players, the
round's tables with links to each game, and the standings; the table page names the
tournament and round. In English (light) and Czech (dark), with no serious or critical axe-core
violation."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.ui import login

WORDS = {"en": ("Tournaments", "Organise a tournament", "Standings", "Round"),
         "cs": ("Turnaje", "Uspořádat turnaj", "Pořadí", "Kolo")}  # fmt: skip


def _violations(axe: Axe, page, where: str) -> list[str]:
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']}"
            for v in axe.run(page).response["violations"]
            if v["impact"] in ("serious", "critical")]  # fmt: skip


@pytest.mark.parametrize("lang, scheme", [("en", "light"), ("cs", "dark")])
def test_organise_join_start_and_see_the_tables_and_standings(lang, scheme, make_player, open_page):
    title, create, standings, round_word = WORDS[lang]
    ana, *others = [make_player("tour") for _ in range(3)]
    page = open_page(f"tournaments-{lang}-{scheme}", lang=lang, motion="reduce", scheme=scheme)
    login(page, ana, button="Log in" if lang == "en" else "Přihlásit se")
    page.goto("/")
    page.click('nav.site-nav a[href="/tournaments/"]')
    page.wait_for_url("**/tournaments/")
    assert page.locator("h1").inner_text() == title
    assert page.locator("#create-title").inner_text() == create
    axe = Axe()
    found = _violations(axe, page, "list")
    page.fill("#t-name", f"Cup {lang}")
    page.fill("#t-min", "3")
    page.fill("#t-max", "3")
    page.click("form.create-tournament button[type=submit]")
    page.wait_for_url("**/tournaments/*/")
    tid = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.click(f'form[action="/tournaments/{tid}/join/"] button')
    for other in others:
        other.post(f"/api/tournaments/{tid}/join/", {})
    page.reload()
    assert page.locator(".tournament-players li").count() == 3
    found += _violations(axe, page, "open")
    page.click(f'form[action="/tournaments/{tid}/start/"] button')
    page.wait_for_selector("#standings")
    assert page.locator("#standings-title").inner_text() == standings
    assert page.locator("#standings tbody tr").count() == 3
    link = page.locator(".tournament-tables a").first
    assert round_word in page.locator("#round-1").inner_text()
    found += _violations(axe, page, "running")
    link.click()
    page.wait_for_selector(".table-tournament")
    assert f"Cup {lang}" in page.locator(".table-tournament").inner_text()
    guest = open_page(f"tournament-guest-{lang}-{scheme}", lang=lang, motion="reduce",
                      scheme=scheme)  # fmt: skip
    guest.goto(f"/tournaments/{tid}/")
    guest.wait_for_selector("#standings")
    assert guest.locator(f'form[action="/tournaments/{tid}/join/"]').count() == 0
    found += _violations(axe, guest, "guest")
    assert not found, "\n".join(found)
