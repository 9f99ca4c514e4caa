"""Issue 10: the notification bell. Eva waits in the lobby page while Jan, in another browser
context, plays a card at his table: the block window it opens asks Eva (R19), and her bell
counts up live over /ws/me/ without a reload; its list links to the game, and "Mark all read"
brings the count back to 0."""

from __future__ import annotations

from tests.browser.ui import login, open_table, play

# Jan (seat 1) is on turn first and opens with C25 (green LOSE_1) on Eva (seat 0).
RIG = {"first": 1, "hands": [["C33", "C34", "C35"], ["C25", "C29", "C30"]]}


def unread(page) -> int:
    return int(page.locator(".bell__count").get_attribute("data-unread"))


def test_the_bell_counts_up_live_when_an_opponent_moves(open_page, make_player):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    her, his = open_page("eva"), open_page("jan")
    login(her, eva)
    login(his, jan)
    her.goto("/")
    bell = her.get_by_role("button", name="Notifications, none unread")
    bell.wait_for()
    her.wait_for_function("() => window.__ws.sockets.some(s => s.url.endsWith('/ws/me/') "
                          "&& s.readyState === 1)")  # fmt: skip
    assert unread(her) == 0

    open_table(his, gid)
    play(his, "C25", 0, scope="one", target=0)

    her.get_by_role("button", name="Notifications, 1 unread").wait_for()  # no reload
    assert unread(her) == 1
    her.get_by_role("button", name="Notifications, 1 unread").click()
    # Grouped by game (issue 29): the game's heading, then its notifications.
    group = her.locator(f'.bell__list > .bell__game[data-game="{gid}"]')
    assert group.locator(".bell__game-title").inner_text() == f"Game {gid}"
    link = group.locator(f'.bell__item a[href="/games/{gid}/"]')
    assert "You may block in game" in link.first.inner_text()
    # Jan was told only of his own turn: the window asks the others, not the Kostič (R19).
    his.get_by_role("button", name="Notifications, 1 unread").wait_for()
    assert [n["kind"] for n in jan.get("/api/notifications/")["notifications"]] == ["your_turn"]

    her.get_by_role("button", name="Mark all read").click()
    her.get_by_role("button", name="Notifications, none unread").wait_for()
    assert eva.get("/api/notifications/", unread=1) == {"notifications": [], "unread": 0}
