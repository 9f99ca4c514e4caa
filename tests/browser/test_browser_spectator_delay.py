"""Issue 10: the table of a spectator of a delayed game shows the game `spectator_delay` events
behind the present, says so ("Delayed by N events", "Zpožděno o N události"), and shows everything
once the game has ended; the player's own table stays in the present."""

from __future__ import annotations

import random

from tests.browser.api import play_out, public, wait_until
from tests.browser.ui import login, open_table, shown_seq, wait_seq

DELAY = 3
RIG = {"lives": [2, 2, 2]}  # a short game


def test_a_spectators_table_stays_the_delay_behind_and_says_so(live, make_player, open_page):
    host = make_player("host")
    gid = host.create_game(3, rig=RIG, bots=[1, 2], spectator_delay=DELAY)
    host.join(gid, 0)  # the game starts
    rnd = random.Random(3)
    started = next(e["seq"] for e in host.get(f"/api/games/{gid}/events/")["events"]
                   if e["type"] == "game_started")  # fmt: skip

    def ahead() -> dict | None:  # move until the spectators are held back, mid-game
        view = host.view(gid)
        if view["seq"] - DELAY > started or view["status"] == "ended":
            return view
        if view["legal"]:
            host.command(gid, rnd.choice(view["legal"]), seq=view["seq"])
        return None

    head = wait_until(ahead, 30, "a game past its delay")
    assert head["status"] == "active", "the game ended before the delay could be seen"
    english, czech = open_page("spectator"), open_page("spectator-cs", lang="cs")
    player = open_page("player")
    for page in (english, czech):
        open_table(page, gid)
    spectator_view = public(live.base, f"/api/games/{gid}/")
    assert spectator_view["delayed"] and spectator_view["seq"] < host.view(gid)["seq"]
    said = {english: f"Delayed by {DELAY} events", czech: f"Zpožděno o {DELAY} události"}
    for page, words in said.items():
        wait_seq(page, public(live.base, f"/api/games/{gid}/")["seq"])
        assert words in page.inner_text("#status")
        assert page.get_attribute("#table", "data-delayed") == str(DELAY)
        assert page.locator("#deadline").is_hidden()
    login(player, host)
    open_table(player, gid)
    assert "Delayed" not in player.inner_text("#status")
    assert shown_seq(player) == host.view(gid)["seq"]
    english.screenshot(path="tests/browser/screenshots/spectator-delayed-table.png")

    final = play_out(gid, [host], rnd, timeout=90)
    for page in (english, czech):  # the end shows everything at once
        wait_seq(page, final["seq"], timeout=15_000)
        page.wait_for_selector("#winners", state="visible")
        assert page.get_attribute("#table", "data-delayed") == ""
