"""Issue 29, no dead ends: the lobby's defaults make a game against one bot that starts; a game
waiting for players offers an invite link, and whoever opens it (logged in) takes a free seat;
the creator's seat is taken by the drawn table (`?join=`), so nothing is asked of him before his
table is on screen."""

from __future__ import annotations

import re

from tests.browser.api import settled
from tests.browser.ui import login, wait_drawn, wait_socket


def test_the_defaults_make_a_game_that_starts(make_player, open_page):
    eva = make_player("eva")
    page = open_page("eva")
    login(page, eva)
    page.goto("/")
    form = page.locator("form#create-game")
    assert form.locator('[name=bots][value="1"]').is_checked(), "one bot by default"
    assert "Seat 2" in form.locator('[data-seat-option="1"]').inner_text(), "seats from 1"
    form.get_by_role("button", name="Create game", exact=True).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    gid = int(re.search(r"/games/(\d+)/", page.url).group(1))
    page.locator('#seats [data-seat="0"]').filter(has_text=eva.username).wait_for()
    settled(eva, gid, lambda v: v["status"] == "active")
    page.wait_for_selector("#prompt:not([hidden])")


def test_a_waiting_table_invites_and_the_link_seats_a_player(make_player, open_page):
    eva, jan = make_player("eva"), make_player("jan")
    page = open_page("eva")
    login(page, eva)
    page.goto("/")
    form = page.locator("form#create-game")
    form.locator('[name=bots][value="1"]').uncheck()  # a game for two people
    form.get_by_role("button", name="Create game", exact=True).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    gid = int(re.search(r"/games/(\d+)/", page.url).group(1))
    invite = page.get_by_role("button", name="Copy invite link", exact=True)
    invite.wait_for()
    assert eva.view(gid)["status"] == "lobby"
    invite.click()
    said = page.locator(".invite-done")
    said.filter(has_text=re.compile(r"Copied|/games/")).wait_for()  # copied, or shown to copy

    other = open_page("jan")
    login(other, jan)
    other.goto(f"/games/{gid}/?join=any")
    wait_drawn(other)
    wait_socket(other)
    settled(eva, gid, lambda v: v["status"] == "active")
    assert [p["username"] for p in eva.view(gid)["players"]] == [eva.username, jan.username]
    other.wait_for_selector("#hand [data-card]")  # his hand is drawn without a reload
    page.wait_for_selector('#seats [data-seat="1"] .seat-name', state="attached")
    page.locator('#seats [data-seat="1"]').filter(has_text=jan.username).wait_for()
