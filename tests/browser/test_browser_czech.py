"""Issue 8, test 5: a browser that prefers Czech (Accept-Language: cs) gets the lobby, the
table and the replay viewer in Czech: the names of FRONTEND_CONTRACT.md, no English ones."""

from __future__ import annotations

import re

from tests.browser.api import settled
from tests.browser.ui import has_button, login, wait_drawn, wait_socket

# Eva (seat 0, over the API) opens with C25's green LOSE_1 on Petr, who holds green cards.
RIG = {
    "lives": [6, 6],
    "first": 0,
    "hands": [["C25", "C33", "C34"], ["C29", "C01", "C30"]],
    "deck": ["C35", "C36"],
}


def link(page, name: str):
    return page.get_by_role("link", name=name, exact=True)


def test_czech_lobby_table_and_replay(live, make_player, open_page, finished_game):
    eva, petr = make_player("eva"), make_player("petr")
    gid = eva.create_game(2, rig=RIG)
    eva.join(gid, 0)
    page = open_page("petr", lang="cs")
    login(page, petr, button="Přihlásit se")

    page.goto("/")
    assert page.get_attribute("html", "lang") == "cs"
    assert link(page, "Herna").count() and link(page, "Moje hry").count()
    assert has_button(page, "Odhlásit se") and has_button(page, "Založit hru")
    assert has_button(page, "English") and has_button(page, "Čeština"), "the language switch"
    for english in ("Create game", "Log out", "Join"):
        assert not has_button(page, english), f"an English button in the Czech lobby: {english}"
    finished, _ = finished_game
    assert link(page.locator(f'[data-game="{finished}"]'), "Záznam").count() == 1

    page.locator(f'[data-game="{gid}"]').get_by_role("button", name="Přisednout").click()
    page.wait_for_url(f"**/games/{gid}/")
    wait_drawn(page)
    wait_socket(page)
    assert page.get_attribute("html", "lang") == "cs"

    eva.command(gid, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1})
    block = page.get_by_role("button", name=re.compile(r"^Blokovat kartou C29 \(zelená: "))
    block.wait_for()  # it names what C29 does, in Czech (issue 18)
    assert has_button(page, "Nechat projít")
    assert not has_button(page, "Pass")
    assert not page.get_by_role("button", name=re.compile("Block with")).count()
    page.get_by_role("button", name="Nechat projít", exact=True).click()
    settled(petr, gid, lambda v: v["kostic"] == 1 and v["phase"] == "play")

    page.click('#hand button[data-card="C29"]')
    page.click('[data-effect="0"]')
    page.click('[data-seat="1"] [data-target="1"]')
    assert has_button(page, "Zahrát") and not has_button(page, "Play")
    log = page.inner_text("#log")
    for english in (" plays ", " blocks ", " passes"):
        assert english not in log, f"English in the Czech log: {log}"

    page.goto(f"/games/{finished}/replay/")
    wait_drawn(page, "#replay")
    for name in ("Zpět", "Vpřed", "Přehrát"):
        assert has_button(page, name), f"no {name} button in the Czech replay viewer"
    assert not has_button(page, "Forward") and not has_button(page, "Back")
