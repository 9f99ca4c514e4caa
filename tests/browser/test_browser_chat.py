"""Issue 10, chat in the browser: a message typed in one player's page appears live in the other
player's page (two browser contexts) and in a watching spectator's table tab; in Pairs the
partners' tab shows a partner's message and the other pair's page has no such message; the
panel works at 360 px and in Czech."""

from __future__ import annotations

from tests.browser.ui import login, open_table

OPTIONS = {"block_window_s": 3600, "turn_deadline_s": 86_400}


def chat_lines(page, channel: str) -> list[str]:
    return page.eval_on_selector_all(f'.chat-log[data-channel="{channel}"] .chat-text',
                                     "els => els.map(e => e.textContent)")  # fmt: skip


def say(page, text: str) -> None:
    page.get_by_label("Message", exact=True).fill(text)
    page.get_by_role("button", name="Send", exact=True).click()


def test_a_message_typed_by_one_player_appears_in_the_other_players_page(make_player, open_page):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, **OPTIONS)
    eva.join(gid, 0)
    jan.join(gid, 1)
    a, b, s = open_page("eva"), open_page("jan"), open_page("spectator", lang="cs")
    s.set_viewport_size({"width": 360, "height": 800})
    login(a, eva)
    login(b, jan)
    for page in (a, b, s):
        open_table(page, gid)
    b.wait_for_selector('.chat-log[data-channel="table"]')
    assert b.get_by_role("tab", name="Table").get_attribute("aria-selected") == "true"

    say(a, "Hello Jan, good luck!")
    b.wait_for_selector('.chat-log[data-channel="table"] .chat-text >> text=Hello Jan, good luck!')
    s.wait_for_selector('.chat-log[data-channel="table"] .chat-text >> text=Hello Jan, good luck!')
    assert chat_lines(a, "table") == ["Hello Jan, good luck!"]  # once, though sent and streamed
    say(b, "Thanks <b>Eva</b>")  # text, never markup
    a.wait_for_selector('.chat-log[data-channel="table"] .chat-text >> text=Thanks <b>Eva</b>')
    assert a.locator(".chat-log b").count() == 0

    # The spectator (Czech, 360 px): reads the table, writes only the spectators' tab.
    assert s.get_by_role("tab", name="Stůl").is_visible()
    assert not s.locator("#chat-text").is_visible()  # a spectator does not write the table
    s.get_by_role("tab", name="Diváci").click()
    assert s.locator(".chat-form").is_hidden() or "přihlas" in s.locator(".chat-note").inner_text()
    assert s.evaluate("document.documentElement.scrollWidth") <= 360
    # Players have no spectators' tab while the game runs.
    assert a.get_by_role("tab", name="Spectators").count() == 0
    s.get_by_role("tab", name="Stůl").click()


def test_the_partners_tab_reaches_the_partner_only(make_player, open_page):
    north, east, south, west = (make_player(n) for n in ("north", "east", "south", "west"))
    gid = north.create_game(4, variant="pairs", **OPTIONS)
    for seat, player in enumerate((north, east, south, west)):
        player.join(gid, seat)
    pages = {}
    for name, player in (("north", north), ("south", south), ("east", east)):
        pages[name] = open_page(name)
        login(pages[name], player)
        open_table(pages[name], gid)
    n, so, e = pages["north"], pages["south"], pages["east"]
    n.get_by_role("tab", name="Partners").click()
    say(n, "I can block reds")
    so.wait_for_selector('.chat-tab[data-channel="partners"] .chat-unread')  # a new one, unread
    so.get_by_role("tab", name="Partners").click()
    so.wait_for_selector('.chat-log[data-channel="partners"] .chat-text >> text=I can block reds')
    say(e, "table talk")  # a later message on another channel: east's page is live too
    n.wait_for_selector('.chat-tab[data-channel="table"] .chat-unread')  # north is on Partners
    n.wait_for_selector('.chat-log[data-channel="table"] .chat-text >> text=table talk',
                        state="attached")  # fmt: skip
    e.wait_for_selector('.chat-log[data-channel="table"] .chat-text >> text=table talk')
    assert "I can block reds" not in e.content()
