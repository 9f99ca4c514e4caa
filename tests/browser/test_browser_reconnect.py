"""Issue 8, test 4: a player's browser loses its connection mid-game while the others move;
back online, it shows every missed event exactly once, without a reload.

Chromium's offline emulation holds an open websocket's frames rather than closing it, so the
test goes offline and then closes the page's socket (the WebSocket of ui.INIT_SCRIPT): what
the page sees is a dropped connection whose reconnects fail until the network returns.
"""

from __future__ import annotations

from tests.browser.api import settled, wait_until
from tests.browser.ui import log_seqs, login, open_table, seat_lives, wait_seq

# Jan (seat 1) opens; seat 2 is the built-in bot, holding only cards without a duel or a
# neighbour choice, so nobody waits for Eva (seat 0) until her own turn. Her block windows
# close themselves after a second (R21).
RIG = {
    "lives": [6, 6, 6],
    "first": 1,
    "hands": [["C33", "C34", "C35"], ["C32", "C26", "C20"], ["C29", "C30", "C31"]],
}
DROP = "() => { window.__ws.sockets.forEach(s => s.close()); }"


def jan_moves_until_evas_turn(jan, eva, gid: int) -> int:
    """Jan plays C32 (green GAIN_1) on himself and passes whenever asked; the bot plays its
    turn; Eva's windows time out. Returns the seq when the game waits for Eva's play."""

    def step():
        view = jan.view(gid)
        if view["kostic"] == 0 and view["phase"] == "play":
            return view["seq"]
        bodies = [b for b in view["legal"] if b["type"] == "pass" or b.get("card") == "C32"]
        if bodies:
            jan.command(
                gid,
                bodies[0]
                if bodies[0]["type"] == "pass"
                else {"type": "play", "card": "C32", "effect": 0, "scope": "one", "target": 1},
                view["seq"],
            )
        return None

    wait_until(step, timeout=20, what="Eva's turn", every=0.1)
    return settled(eva, gid, lambda v: v["kostic"] == 0 and v["phase"] == "play")


def test_offline_player_sees_every_missed_event_once_without_reload(make_player, open_page):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(3, rig=RIG, bots=[2], block_window_s=1)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("eva")
    login(page, eva)
    before = open_table(page, gid)
    page.evaluate("() => { window.__notReloaded = true; }")

    page.context.set_offline(True)
    page.evaluate(DROP)
    page.wait_for_selector("#conn:has-text('Reconnecting')")
    after = jan_moves_until_evas_turn(jan, eva, gid)
    assert after - before >= 10, "the test means to miss a good many events"
    assert page.get_attribute("#table", "data-seq") == str(before), "offline, nothing arrives"

    page.context.set_offline(False)
    wait_seq(page, after, timeout=20_000)
    page.wait_for_selector(f'#log [data-log-seq="{after}"]', state="attached")
    page.wait_for_function(
        "() => !document.querySelector('#conn').innerText.includes('Reconnecting')"
    )
    assert page.evaluate("() => window.__notReloaded === true"), "the page was reloaded"
    assert page.evaluate("() => window.__ws.opened") >= 2, "a new socket was opened"

    shown = log_seqs(page)
    assert len(shown) == len(set(shown)), f"an event is logged twice: {shown}"
    assert sorted(shown) == list(range(min(shown), after + 1)), f"a gap in the log: {shown}"
    assert min(shown) <= before + 1, "the missed events are all there"
    assert seat_lives(page) == {p["seat"]: p["lives"] for p in eva.view(gid)["players"]}
    assert page.locator("#hand [data-card]").count() == len(eva.view(gid)["hand"])
