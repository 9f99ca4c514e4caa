"""A player who knows nothing but the page: each round it reads which buttons the table offers
(visible and enabled) and clicks one, the furthest step of a decision first. The page is
guided by `legal` alone (FRONTEND_CONTRACT.md, Acting), so whatever it offers must be legal."""

from __future__ import annotations

import random
import time

# The furthest step of a decision first: confirm a play before choosing its target, a target
# before a scope, and so on; a pick (card, effect, scope, target) never sends anything itself.
STEPS = [
    '[data-command="play"]',
    "[data-target]",
    "[data-scope]",
    "[data-effect]",
    '#prompt [data-command="block"], #prompt [data-command="pass"]',
    '[data-command="choose_neighbor"]',
    '[data-command="bet"]',
    '[data-command="handoff"]',
    "[data-handoff-to]",
    '[data-handoff-card], [data-command="decline"]',
    "#hand button[data-card]",
]
OFFERED = """(selector) => [...document.querySelectorAll(selector)].map((el, i) => [i, el])
  .filter(([i, el]) => el.getClientRects().length && !el.disabled
    && el.getAttribute('aria-disabled') !== 'true' && !el.closest('[hidden], [inert]'))
  .map(([i, el]) => [i, el.dataset.command || '', el.getAttribute('aria-pressed') || ''])"""


def offered(page) -> tuple[str, list[list]]:
    """The first step with something to click: (its selector, [[index, command, pressed]])."""
    for selector in STEPS:
        found = page.evaluate(OFFERED, selector)
        if selector.startswith("[data-effect]") or selector.startswith("[data-scope]"):
            if any(pressed == "true" for _, _, pressed in found):
                continue  # already picked: the next step is a target or the confirm
        if found:
            return selector, found
    return "", []


def choose(selector: str, found: list[list], rnd: random.Random) -> int:
    """Which of the offered buttons to click: mostly let plays through (a game of blocks
    never ends), decline most handoffs; otherwise any."""
    if "pass" in selector:
        passes = [i for i, command, _ in found if command == "pass"]
        if passes and rnd.random() < 0.75:
            return passes[0]
    if "decline" in selector:
        declines = [i for i, command, _ in found if command == "decline"]
        if declines and rnd.random() < 0.5:
            return declines[0]
    return rnd.choice(found)[0]


def play_until_winners(page, rnd: random.Random, timeout: float = 120) -> list[str]:
    """Click offered buttons until `#winners` shows; the clicks made, for the report."""
    clicks: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#winners").is_visible():
            return clicks
        selector, found = offered(page)
        if not found:
            page.wait_for_timeout(100)
            continue
        index = choose(selector, found, rnd)
        try:
            page.locator(selector).nth(index).click(timeout=2_000)
            clicks.append(f"{selector}#{index}")
        except Exception:  # re-rendered under the pointer: read the page again
            pass
        page.wait_for_timeout(60)
    raise AssertionError(
        f"no winners banner after {timeout} s; last clicks {clicks[-15:]}; "
        f"table at seq {page.get_attribute('#table', 'data-seq')}"
    )
