"""Issue 18, "Consistency", in Chromium: the same game names its bots alike on the lobby, my
games, the profile, the table and the replay viewer; durations and moments come from one
module per language (times.js, the rule of frontend/time_words.py); the Czech pages, as their
scripts draw them, never say "vy" and count in Czech's three plural forms; the header's name
leads to my profile."""

from __future__ import annotations

import re

from frontend import time_words
from tests.browser.api import wait_until
from tests.browser.ui import login, open_table, wait_drawn, wait_socket
from tests.support.czech_register import vy_forms

SLOW = {"block_window_s": 3600, "turn_deadline_s": 86_400}  # nothing times out during the test
SECONDS = [0, 45, 60, 3595, 3600, 3900, 86_400, 183_600]
ENGLISH_MOMENT = re.compile(r"\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d\d:\d\d")  # 1 Dec 2026, 18:05
CZECH_MOMENT = re.compile(r"\d{1,2}\. \d{1,2}\. \d{4} \d{1,2}:\d\d")  # 1. 12. 2026 18:05


def texts(page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def module(page, name: str, call: str):
    """Evaluate `call` (a function of the module `m`) with the page's own shared ES module `name`
    (static/frontend/shared/)."""
    src = page.evaluate(
        "(name) => [...document.querySelectorAll('script[type=module]')]"
        ".map(s => s.src).find(s => s.includes('/frontend/'))",
        name,
    )
    url = re.sub(r"/frontend/.+$", f"/frontend/shared/{name}", src)
    return page.evaluate(f"async () => {{ const m = await import({url!r}); return ({call})(m); }}")


def running_bot_game(host) -> int:
    """host at seat 0 and the first Kostič, bots at 1 and 2, correspondence pace: it waits a
    day for the host's play."""
    gid = host.create_game(3, bots=[1, 2], rig={"first": 0}, **SLOW)
    host.join(gid, 0)
    wait_until(lambda: 0 in host.view(gid)["awaiting"], 20, "the game to wait for the host")
    return gid


def test_bots_have_one_name_on_every_page(live, open_page, finished_game):
    gid, host = finished_game  # host at seat 0, bots at 1 and 2, ended
    running = running_bot_game(host)
    names = [host.username, "bot#1", "bot#2"]
    page = open_page("host")
    login(page, host)

    page.goto("/")
    assert texts(page, f'#finished-games [data-game="{gid}"] .seat-chip__name') == names
    assert texts(page, f'#running-games [data-game="{running}"] .seat-chip__name') == names
    winners = [names[seat] for seat in host.view(gid)["winners"]]
    lobby_badge = page.locator(f'#finished-games [data-game="{gid}"] .badge').inner_text()
    assert all(w in lobby_badge for w in winners) and not re.search(r"\bbot\b(?!#)", lobby_badge)

    page.goto("/me/")
    wait_socket(page)  # me.js redraws each row from its socket's view: the same names
    page.wait_for_function("() => window.__ws.frames.some(f => f.type === 'view')")
    assert texts(page, f'#my-games [data-game="{running}"] .seat-chip__name') == names
    assert page.locator(f'[data-finished-game="{gid}"] .badge').inner_text() == lobby_badge

    page.goto(f"/players/{host.username}/")
    assert texts(page, f'#recent-games [data-game="{gid}"] .seat-chip__name') == names

    for where in (running, gid):
        open_table(page, where)
        assert texts(page, "#table [data-seat] .seat-name") == names
    banner = page.locator("#winners").inner_text()
    assert all(w in banner for w in winners), banner

    page.goto(f"/games/{gid}/replay/")
    wait_drawn(page, "#replay")
    assert texts(page, "#replay [data-seat] .seat-name") == names


def test_one_time_format_on_every_page(live, open_page, make_player, finished_game):
    host = make_player("clock")
    gid = running_bot_game(host)
    page = open_page("clock")
    login(page, host)

    page.goto("/me/")
    mine = page.locator(f'[data-game="{gid}"] time[data-deadline]')
    page.wait_for_function(
        "(sel) => /\\d+ h/.test(document.querySelector(sel).textContent)",
        arg=f'[data-game="{gid}"] time[data-deadline]',
    )
    on_me = mine.inner_text()
    for seconds, text in zip(SECONDS, module(page, "times.js", f"m => {SECONDS}.map(m.duration)"),
                             strict=True):  # fmt: skip
        assert text == time_words.duration(seconds, "en"), (seconds, text)
    open_table(page, gid)
    on_table = page.locator("#deadline time").inner_text()
    assert re.fullmatch(r"Time left: 2[23] h \d{1,2} min", on_table), on_table
    assert re.fullmatch(r"2[23] h \d{1,2} min", on_me), on_me
    minutes = [int(re.search(r"(\d+) min", x)[1]) for x in (on_me, on_table)]
    assert abs(minutes[0] - minutes[1]) <= 1, (on_me, on_table)  # read seconds apart

    finished, _ = finished_game
    page.goto("/")
    shown = texts(page, f'#finished-games [data-game="{finished}"] time[data-when]')
    assert shown and all(ENGLISH_MOMENT.fullmatch(s) for s in shown), shown
    assert not re.search(r"\b\d\d/\d\d/\d{4}\b", page.inner_text("main"))

    away = make_player("away")
    away.post("/api/me/vacation/", {"days": 3})
    other = open_page("away")
    login(other, away)
    other.goto("/me/")
    other.wait_for_function("() => document.querySelector('#vacation-state')?.textContent")
    until = re.fullmatch(r"On vacation until (.+)\.", other.inner_text("#vacation-state"))
    assert until and ENGLISH_MOMENT.fullmatch(until[1]), other.inner_text("#vacation-state")


def test_czech_pages_say_ty_and_count_in_czech(live, open_page, make_player, finished_game):
    finished, _ = finished_game
    eva = make_player("eva")
    gid = running_bot_game(eva)
    eva.post("/api/me/vacation/", {"days": 2})  # /me/ draws the vacation controls' words
    page = open_page("eva", lang="cs")
    login(page, eva, button="Přihlásit se")

    seen = {}
    for path in ("/", "/me/", f"/players/{eva.username}/", "/leaderboard/", "/signup/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        bell = page.locator("[data-bell] .bell__button")
        if bell.count() and bell.is_visible():
            bell.click()  # the bell's list, as the scripts word it
            page.wait_for_load_state("networkidle")
        seen[path] = page.content()
    open_table(page, gid)
    seen["table"] = page.content()
    open_table(page, finished)
    seen["finished table"] = page.content()
    log = page.inner_text("#log")
    page.goto(f"/games/{finished}/replay/")
    wait_drawn(page, "#replay")
    seen["replay"] = page.content()
    found = {where: vy_forms(html) for where, html in seen.items() if vy_forms(html)}
    assert not found, found

    assert "3 hráči" in log, log  # "Hra založena: běžná hra, 3 hráči, …"
    words = module(page, "i18n.js", "m => [1, 2, 5].map(n => m.count('players', n))")
    assert words == ["1 hráč", "2 hráči", "5 hráčů"]
    left = module(page, "i18n.js", "m => [2, 5].map(n => m.count('turns_left', n))")
    assert left == ["zbývají 2 tahy", "zbývá 5 tahů"]
    shown = module(page, "times.js", "m => [m.moment('2026-12-01T18:05:00Z'), m.duration(3595)]")
    assert CZECH_MOMENT.fullmatch(shown[0]) and shown[1] == "59 min 55 s", shown


def test_the_header_name_leads_to_my_profile(live, open_page, make_player):
    eva = make_player("me")
    page = open_page("me")
    login(page, eva)
    page.goto("/")
    page.locator("header").get_by_role("link", name=eva.username, exact=True).click()
    page.wait_for_url(f"**/players/{eva.username}/")
    assert page.inner_text("#player-name") == eva.username
