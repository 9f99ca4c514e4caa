"""Issue 29, one screen: every seat (its lives and hand size), the piles, the pending play, my
hand and the prompt share the window — on my turn, while I pick a target and in a block
window — at 1280 × 800 and 390 × 844, in English and in Czech, with six seats and a long
user name among them; the replay viewer shows its seats with its scrubber.

All from bounding boxes: each element lies inside the viewport (the page may scroll itself
there when a decision is asked; the player never has to). Screenshots go to
tests/browser/screenshots/one-screen-*.png (docs/screenshots/ keeps copies).
"""

from __future__ import annotations

import pytest

from tests.browser.api import register, settled
from tests.browser.ui import SHOTS, login, open_table, wait_drawn

LOG_IN = {"en": "Log in", "cs": "Přihlásit se"}
SIZES = [(1280, 800), (390, 844)]
HANDS = [["C25", "C33", "C34", "C29"], ["C26", "C02", "C05"], ["C07", "C08", "C09"],
         ["C10", "C11", "C12"], ["C13", "C14", "C15"], ["C16", "C18", "C19"]]  # fmt: skip
DECK = ["C35", "C36", "C37", "C38", "C39", "C40"]

# Where each thing shown lies: its box, and whether it is inside the window.
BOXES = """(sels) => Object.fromEntries(sels.map((sel) => {
  const nodes = [...document.querySelectorAll(sel)].filter((n) => n.getClientRects().length);
  if (!nodes.length) return [sel, null];
  const rects = nodes.map((n) => n.getBoundingClientRect());
  const edge = (side, pick) => pick(...rects.map((r) => r[side]));
  return [sel, {top: edge('top', Math.min), bottom: edge('bottom', Math.max),
                left: edge('left', Math.min), right: edge('right', Math.max)}];
}))"""


def six_seat_game(make_player, first: int):
    """A rigged six-seat game, every seat taken; (players, gid). Seat 2 has a long name
    (the API allows 40 characters)."""
    players = [make_player(s) for s in ("eva", "jan")]
    players.append(register(players[0].base, "Maximilian.Bartholomew.Long"))
    players += [make_player(s) for s in ("ota", "iva", "ben")]
    gid = players[0].create_game(6, rig={"first": first, "hands": HANDS, "deck": DECK})
    for seat, player in enumerate(players):
        player.join(gid, seat)
    settled(players[0], gid, lambda v: v["status"] == "active")
    return players, gid


def assert_on_screen(page, width: int, height: int, selectors: list[str], where: str) -> None:
    boxes = page.evaluate(BOXES, selectors)
    for sel, b in boxes.items():
        assert b is not None, f"{where}: {sel} is not shown"
        inside = (
            b["top"] >= -1
            and b["bottom"] <= height + 1
            and b["left"] >= -1
            and b["right"] <= width + 1
        )
        assert inside, f"{where}: {sel} is outside the {width}×{height} window: {b}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scroll"


def seats_shown(page) -> list[str]:
    """Per seat: its lives and its hand size, each must be inside the window."""
    out = []
    for seat in range(6):
        out += [
            f'#seats [data-seat="{seat}"] [data-lives]',
            f'#seats [data-seat="{seat}"] .hand-count',
        ]
    return out


def shoot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"one-screen-{name}.png")


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("width, height", SIZES)
def test_my_turn_and_a_target_choice_fit_one_screen(make_player, open_page, lang, width, height):
    players, gid = six_seat_game(make_player, first=0)
    page = open_page("eva", lang=lang)
    page.set_viewport_size({"width": width, "height": height})
    login(page, players[0], button=LOG_IN[lang])
    open_table(page, gid)
    page.wait_for_selector("#prompt:not([hidden])")
    page.wait_for_function("() => document.getAnimations().length === 0")
    common = seats_shown(page) + ["#draw", "#discard", "#prompt", "#hand"]
    assert_on_screen(page, width, height, common, "my turn")
    shoot(page, f"turn-{lang}-{width}")

    page.click('#hand button[data-card="C25"]')
    page.click('#prompt [data-effect="0"]')  # green: one player, a target at each seat
    page.wait_for_selector("#seats [data-target]")
    targets = [f'#seats [data-seat="{s}"] [data-target]' for s in range(6)]
    assert_on_screen(page, width, height, common + targets, "target choice")
    shoot(page, f"target-{lang}-{width}")
    # The long name is cut with an ellipsis, not wrapped: its seat is as tall as the others.
    heights = page.eval_on_selector_all("#seats [data-seat]", "els => els.map(e => e.offsetHeight)")
    assert abs(heights[2] - heights[4]) <= 2, f"seat 2 (the long name) against seat 4: {heights}"


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("width, height", SIZES)
def test_a_block_window_fits_one_screen(make_player, open_page, lang, width, height):
    players, gid = six_seat_game(make_player, first=1)
    page = open_page("eva", lang=lang)
    page.set_viewport_size({"width": width, "height": height})
    login(page, players[0], button=LOG_IN[lang])
    open_table(page, gid)
    players[1].command(
        gid, {"type": "play", "card": "C26", "effect": 0, "scope": "one", "target": 0}
    )
    page.wait_for_selector('#prompt [data-command="block"][data-card="C29"]')
    page.wait_for_function("() => document.getAnimations().length === 0")
    wanted = seats_shown(page) + ["#draw", "#discard", "#pending", "#prompt", "#hand"]
    assert_on_screen(page, width, height, wanted, "block window")
    shoot(page, f"block-{lang}-{width}")


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("width, height", SIZES)
def test_the_replay_shows_its_seats_with_its_scrubber(
    open_page, finished_game, lang, width, height
):
    gid, host = finished_game
    page = open_page("host", lang=lang)
    page.set_viewport_size({"width": width, "height": height})
    login(page, host, button=LOG_IN[lang])
    page.goto(f"/games/{gid}/replay/?at=8")
    wait_drawn(page, "#replay")
    page.wait_for_selector("#markers li", state="attached")
    seats = [f'#seats [data-seat="{s}"] [data-lives]' for s in range(3)]
    wanted = seats + ["#scrubber", '[data-control="forward"]', "#draw", "#discard", "#replay-odds"]
    assert_on_screen(page, width, height, wanted, "replay")
    assert page.locator("#replay-notes").count() == 1, "a slot for notes (issue 30)"
    shoot(page, f"replay-{lang}-{width}")
