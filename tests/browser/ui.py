"""Reading and driving the pages through the hooks of FRONTEND_CONTRACT.md and API.md ("Web
pages"): `#table[data-seq]`, `[data-seat]`, `[data-card]`, `#log li[data-log-seq]`, buttons by
their accessible names."""

from __future__ import annotations

import re
from pathlib import Path

from tests.browser.api import PASSWORD, Player

SHOTS = Path(__file__).resolve().parent / "screenshots"  # where the browser tests save pages

# Added to every page before its own scripts: a WebSocket that registers itself, so a test can
# see when the page's socket is open, drop it, and when each frame arrived (bench/scenarios/web.py
# too).
INIT_SCRIPT = """
(() => {
  const Native = window.WebSocket;
  const ws = window.__ws = {sockets: [], frames: [], opened: 0};
  class Tracked extends Native {
    constructor(...args) {
      super(...args);
      ws.sockets.push(this);
      this.addEventListener('open', () => { ws.opened += 1; });
      this.addEventListener('message', (e) => {
        const at = performance.now();
        try {
          const m = JSON.parse(e.data);
          const seq = m.type === 'event' ? m.event.seq : m.type === 'view' ? m.view.seq : null;
          ws.frames.push({type: m.type, seq, at});
        } catch (err) { ws.frames.push({type: 'unparsed', seq: null, at}); }
      });
    }
  }
  window.WebSocket = Tracked;
})();
"""


def login(page, player: Player, button: str = "Log in") -> None:
    """Log the page's context in through /login/ (the form's own button, by its name)."""
    page.goto("/login/")
    page.fill("[name=username]", player.username)
    page.fill("[name=password]", PASSWORD)
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_url(lambda url: "/login/" not in url)


def open_table(page, gid: int, root: str = "#table") -> int:
    """Go to a game's table, wait until it shows a seq and its socket is open; that seq."""
    page.goto(f"/games/{gid}/")
    wait_drawn(page, root)
    wait_socket(page)
    return shown_seq(page, root)


def wait_drawn(page, root: str = "#table", timeout: float = 10_000) -> None:
    """Wait until the page has drawn a view: its root shows a seq (every game has at least
    one event; the template's own placeholder is 0)."""
    page.wait_for_function(
        "(sel) => { const el = document.querySelector(sel);"
        " return el && Number(el.dataset.seq) > 0; }",
        arg=root,
        timeout=timeout,
    )


def wait_socket(page, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "() => window.__ws.sockets.some(s => s.readyState === WebSocket.OPEN)", timeout=timeout
    )


def shown_seq(page, root: str = "#table") -> int:
    value = page.get_attribute(root, "data-seq")
    return int(value) if value not in (None, "") else -1


def wait_seq(page, seq: int, root: str = "#table", timeout: float = 10_000) -> None:
    """Wait until the root's data-seq is exactly `seq`."""
    page.wait_for_function(
        "([sel, seq]) => { const el = document.querySelector(sel);"
        " return el && Number(el.dataset.seq) === seq; }",
        arg=[root, seq],
        timeout=timeout,
    )


def log_seqs(page) -> list[int]:
    """The data-log-seq of every log entry, in page order."""
    return page.eval_on_selector_all(
        "#log [data-log-seq]", "els => els.map(e => Number(e.dataset.logSeq))"
    )


def seat_lives(page, root: str = "#table") -> dict[int, int]:
    """{seat: lives} as the die faces show them."""
    pairs = page.eval_on_selector_all(
        f"{root} [data-seat]",
        "els => els.map(e => [Number(e.dataset.seat),"
        " Number((e.querySelector('[data-lives]') || {dataset: {}}).dataset.lives)])",
    )
    return {seat: lives for seat, lives in pairs}


def pile(page, selector: str) -> list[str]:
    """The card ids shown in a pile (e.g. "#discard"), in page order."""
    return page.eval_on_selector_all(
        f"{selector} [data-card]", "els => els.map(e => e.dataset.card)"
    )


def play(
    page,
    card: str,
    effect: int,
    scope: str | None = None,
    target: int | None = None,
    confirm: str = "Play",
) -> None:
    """Pick a card in the hand, its effect, the scope where offered, the target seat, and
    confirm: the page's guided play (FRONTEND_CONTRACT.md, Acting)."""
    page.click(f'#hand button[data-card="{card}"]')
    page.click(f'[data-effect="{effect}"]')
    if scope is not None and page.locator(f'[data-scope="{scope}"]').count():
        page.click(f'[data-scope="{scope}"]')
    if target is not None:
        page.click(f'[data-seat="{target}"] [data-target="{target}"]')
    button = page.locator('[data-command="play"]')
    assert re.fullmatch(rf"\s*{re.escape(confirm)}\s*", button.inner_text()), button.inner_text()
    button.click()
    sure = page.locator("[data-self-confirm]")  # a harmful effect on myself asks once more
    if sure.count():
        sure.click()


def has_button(page, name: str) -> bool:
    return page.get_by_role("button", name=name, exact=True).count() > 0
