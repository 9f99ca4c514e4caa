"""Issue 18, quiet at the table (API.md "More pages"; docs/NOTIFICATIONS.md): a notification about
a game whose table its player has open in a visible tab is born read, so the bell stays at zero
while bots play a whole game against her; a hidden tab still gets them; after playing live a
reload shows nothing new "since your last visit" and the log at the present; /notifications/
lists them newest first and marks them read, in English and Czech.

Headless Chromium reports every page visible, so a hidden tab is the Page Visibility API's
state set in the page (`hide`): document.visibilityState and the visibilitychange event, what a
browser changes when the tab goes to the background. Whether the service has taken the page's
word is read from the live service's presence rows (`visible_rows`)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from urllib.parse import urlparse

import psycopg

from frontend.notification_pages import PER_PAGE
from tests.browser.api import play_out, wait_until
from tests.browser.autoplay import play_until_winners
from tests.browser.ui import log_seqs, login, open_table, shown_seq, wait_drawn

ROOT = Path(__file__).resolve().parents[2]
DOC_SHOTS = ROOT / "docs" / "screenshots"
# Jan (seat 1) is on turn first and opens with C25 (green LOSE_1) on Eva (seat 0): Eva is asked.
RIG_JAN_FIRST = {"first": 1, "hands": [["C33", "C34", "C35"], ["C25", "C29", "C30"]]}
# Eva holds a green card (C31): Jan's C25 asks her, and waits for her click (with nothing to
# block with, the page would pass for her: issue 29).
RIG_EVA_CAN_BLOCK = {"first": 1, "hands": [["C33", "C34", "C31"], ["C25", "C29", "C30"]]}
LOG_IN = {"en": "Log in", "cs": "Přihlásit se"}

SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
# The highest unread count the bell has shown since this ran.
WATCH_BELL = """() => {
  const count = document.querySelector('.bell__count');
  window.__maxUnread = Number(count.dataset.unread);
  new MutationObserver(() => {
    window.__maxUnread = Math.max(window.__maxUnread, Number(count.dataset.unread));
  }).observe(count, {attributes: true, characterData: true, childList: true, subtree: true});
}"""


def unread(page) -> int:
    return int(page.locator(".bell__count").get_attribute("data-unread"))


def visible_rows(live, gid: int) -> list[bool]:
    """The `visible` of every live presence row of the game, as the service keeps them."""
    url = urlparse(live.admin_url)._replace(path=f"/{live.database}").geturl()
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT visible FROM games_presence WHERE game_id = %s"
                            " AND expires_at > now()", (gid,)).fetchall()  # fmt: skip
    return [row[0] for row in rows]


def wait_visible(live, gid: int, visible: bool) -> None:
    wait_until(lambda: visible_rows(live, gid) == [visible], 10, f"the tab {visible=}")


def test_the_bell_stays_at_zero_while_bots_play_a_whole_game_at_the_visible_table(
    live, make_player, open_page
):
    """Then, reloaded (the same tab) and opened anew (another tab): nothing new since the last
    visit, no separator, the log at its end: the moves were watched live."""
    eva = make_player("eva")
    gid = eva.create_game(3, rig={"first": 0, "lives": [2, 2, 2]}, bots=[1, 2])
    eva.join(gid, 0)  # the game starts: her turn, told before her table is open
    # The followers tell her after the join's COMMIT, in their own process: marked read before
    # that, the notification came after the mark (a race CI met once).
    wait_until(lambda: eva.get("/api/notifications/", unread=1)["unread"], 10, "her turn told")
    assert eva.post("/api/notifications/read/", {"all": True}) == {"unread": 0}
    page = open_page("eva")
    login(page, eva)
    open_table(page, gid)
    wait_visible(live, gid, True)
    page.get_by_role("button", name="Notifications, none unread").wait_for()
    page.evaluate(WATCH_BELL)

    play_until_winners(page, random.Random(4), timeout=150)

    told = [n for n in eva.get("/api/notifications/")["notifications"] if n["game"] == gid]
    kinds = {n["kind"] for n in told}
    assert len(told) >= 3 and {"your_turn", "game_over"} <= kinds, told  # told, but quietly
    assert all(n["read"] for n in told), [n for n in told if not n["read"]]
    assert eva.get("/api/notifications/", unread=1)["unread"] == 0
    assert page.evaluate("window.__maxUnread") == 0, "the bell never counted"
    assert unread(page) == 0

    head = shown_seq(page)
    page.reload()
    wait_drawn(page)
    assert_present(page, head)
    # Another tab (no sessionStorage of this one): the service's own record of what was shown.
    wait_until(lambda: f'data-since="{head}"' in page.request.get(f"/games/{gid}/").text(), 10,
               "the service to know what the page showed")  # fmt: skip
    other = page.context.new_page()
    other.goto(f"/games/{gid}/")
    wait_drawn(other)
    assert_present(other, head)
    other.close()


def assert_present(page, head: int) -> None:
    """Nothing new since the last visit, and the log scrolled to its last entry (the summary
    is written in the same task that draws the first view)."""
    assert page.inner_text("#log-summary") == "Nothing new since your last visit."
    assert page.locator("#log-since").count() == 0
    assert log_seqs(page)[-1] == head
    gap = page.evaluate("""() => { const log = document.querySelector('#log');
        const last = log.lastElementChild.getBoundingClientRect();
        const box = log.getBoundingClientRect();
        return [last.bottom - box.bottom,
                log.scrollHeight - log.scrollTop - log.clientHeight]; }""")
    assert gap[0] <= 1 and gap[1] <= 1, f"the log does not show its last entry: {gap}"


def test_a_hidden_tab_still_gets_them_and_showing_it_again_quiets_them(
    live, make_player, open_page
):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=RIG_EVA_CAN_BLOCK)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("eva")
    login(page, eva)
    open_table(page, gid)
    wait_visible(live, gid, True)
    page.evaluate(SET_VISIBILITY, "hidden")  # she switched to another tab
    wait_visible(live, gid, False)

    jan.command(gid, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 0})
    page.get_by_role("button", name="Notifications, 1 unread").wait_for()  # told, unread
    window = next(n for n in eva.get("/api/notifications/")["notifications"]
                  if n["game"] == gid)  # fmt: skip
    assert (window["kind"], window["read"]) == ("block_window", False)

    page.evaluate(SET_VISIBILITY, "visible")  # back at the table
    wait_visible(live, gid, True)
    # Her socket drops: its row goes with it, and the page's new socket says "visible" again.
    page.evaluate("() => window.__ws.sockets.filter(s => s.url.includes('/ws/games/'))"
                  ".forEach(s => s.close())")  # fmt: skip
    page.wait_for_function(
        "() => { const games = window.__ws.sockets.filter(s => s.url.includes('/ws/games/'));"
        " return games.length === 2 && games[1].readyState === 1; }"
    )
    wait_visible(live, gid, True)
    page.locator('#prompt [data-command="pass"]').click()  # her turn comes next
    turn = wait_until(lambda: [n for n in eva.get("/api/notifications/")["notifications"]
                               if n["game"] == gid and n["kind"] == "your_turn"], 10,
                      "her your_turn")  # fmt: skip
    assert turn[0]["read"] is True
    assert eva.get("/api/notifications/", unread=1)["unread"] == 1
    assert unread(page) == 1


def test_the_notifications_page_lists_them_newest_first_and_marks_them_read(
    live, make_player, open_page
):
    eva, jan = make_player("eva"), make_player("jan")
    old = eva.create_game(3, rig={"first": 0, "lives": [1, 1, 1]}, bots=[1, 2])
    eva.join(old, 0)
    play_out(old, [eva], random.Random(5), timeout=90)  # no tab open: every one unread
    first = eva.create_game(2, rig={"first": 0})
    eva.join(first, 0)
    jan.join(first, 1)  # eva's turn
    second = eva.create_game(2, rig=RIG_JAN_FIRST)
    eva.join(second, 0)
    jan.join(second, 1)
    jan.command(second, {"type": "play", "card": "C25", "effect": 0, "scope": "one",
                         "target": 0})  # fmt: skip
    mine = wait_until(lambda: [n for n in eva.get("/api/notifications/")["notifications"]
                               if n["game"] == second], 10, "the block window")  # fmt: skip
    expected = [n["id"] for n in eva.get("/api/notifications/")["notifications"]]
    assert expected[0] == mine[0]["id"]

    page = open_page("eva")
    login(page, eva)
    page.goto("/me/")
    page.locator(".bell__button").click()
    page.get_by_role("link", name="All notifications").click()  # the bell links to the page
    page.wait_for_url("**/notifications/")
    items = page.locator("#notifications [data-notification]")
    # Newest first, a page of them: the first game's length is the deal's, and a long one
    # makes more notifications than a page holds (CI once: 57); the rest are "Older".
    assert [int(i) for i in items.evaluate_all("els => els.map(e => e.dataset.notification)")
            ] == expected[:PER_PAGE]  # fmt: skip
    assert page.get_by_role("link", name="Older").count() == (len(expected) > PER_PAGE)
    newest = items.first.get_by_role("link")
    assert newest.inner_text() == f"You may block in game {second}"
    assert newest.get_attribute("href") == f"/games/{second}/"
    assert page.get_by_role("link", name=f"Your turn in game {first}").count() == 1
    assert page.get_by_role("link", name=f"Game {old} is over").count() == 1
    total = len(expected)
    assert page.inner_text("#notifications-summary").startswith(f"{total} unread.")

    with page.expect_navigation():
        items.first.get_by_role("button", name="Mark read").click()
    assert items.first.get_attribute("data-read") == "1"
    assert items.nth(1).get_attribute("data-read") == "0"
    page.get_by_role("button", name=f"Notifications, {total - 1} unread").wait_for()
    shots(page, "en", "some-read")

    czech = open_page("eva-cs", lang="cs")
    login(czech, eva, button=LOG_IN["cs"])
    czech.goto("/notifications/")
    assert czech.get_by_role("link", name=f"Ve hře {second} můžeš blokovat").count() == 1
    assert czech.get_by_role("link", name=f"Jsi na tahu ve hře {first}").count() == 1
    assert czech.get_by_role("link", name=f"Hra {old} skončila").count() == 1
    assert re.match(rf"{total - 1} nepřečten", czech.inner_text("#notifications-summary"))
    shots(czech, "cs", "some-read")

    with page.expect_navigation():
        page.get_by_role("button", name="Mark all read").click()
    page.get_by_role("button", name="Notifications, none unread").wait_for()
    assert set(items.evaluate_all("els => els.map(e => e.dataset.read)")) == {"1"}
    assert page.inner_text("#notifications-summary").startswith("Nothing unread.")
    assert eva.get("/api/notifications/", unread=1)["unread"] == 0


def shots(page, lang: str, state: str) -> None:
    """docs/screenshots/notifications-<lang>-<width>.png at 1280×800 and 360 px wide, when
    SEJMI_DOC_SHOTS is set (the committed ones were made so: docs/NOTIFICATIONS.md)."""
    if not os.environ.get("SEJMI_DOC_SHOTS"):
        return
    DOC_SHOTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (360, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=DOC_SHOTS / f"notifications-{lang}-{width}.png",
                        full_page=width == 360)  # fmt: skip
    page.set_viewport_size({"width": 1280, "height": 900})
