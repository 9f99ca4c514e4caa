"""What bench/scenarios/web.py measures inside the page: a script added before the page's own.

Timestamps are `performance.now()` (milliseconds since the navigation started):
- `__bench.seq`: [seq, at] each time `#table` or `#replay` gets a new data-seq (a
  MutationObserver: `at` is when the DOM changed, before the next paint);
- `__bench.log`: [seq, at] each time a `#log [data-log-seq]` entry is added;
- `__bench.rendered`: when the table first showed the view `window.__expect` describes
  ({seq, seats, hand}: that seq on the root, a die on every seat, that many cards in hand);
- `__bench.keys`: when each keydown reached the window (capture phase, before the page's own
  handlers);
- `__ws.frames` (tests/browser/ui.INIT_SCRIPT): {type, seq, at} for each websocket frame, taken
  by the first listener of the socket, before the page's.
"""

from __future__ import annotations

from tests.browser.ui import INIT_SCRIPT

PROBE = """
(() => {
  const b = window.__bench = {seq: [], log: [], keys: []};
  window.addEventListener('keydown', () => b.keys.push(performance.now()), true);
  const logged = (node, now) => {
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const found = node.matches('#log [data-log-seq]') ? [node] : [];
    found.push(...node.querySelectorAll('[data-log-seq]'));
    for (const li of found) if (li.closest('#log')) b.log.push([Number(li.dataset.logSeq), now]);
  };
  const rendered = (now) => {  // the view the bench expects is drawn: seq, seats, dice, hand
    const want = window.__expect, root = document.querySelector('#table');
    if (!want || b.rendered !== undefined || !root || Number(root.dataset.seq) !== want.seq) return;
    if (root.querySelectorAll('[data-seat] [data-lives]').length < want.seats) return;
    if (root.querySelectorAll('#hand [data-card]').length < want.hand) return;
    b.rendered = now;
  };
  new MutationObserver((records) => {
    const now = performance.now();
    rendered(now);
    for (const r of records) {
      if (r.type === 'attributes' && r.target.matches('#table, #replay')) {
        const seq = r.target.dataset.seq;
        if (seq !== undefined && seq !== '' && seq !== r.oldValue) b.seq.push([Number(seq), now]);
      } else if (r.type === 'childList') {
        r.addedNodes.forEach((n) => logged(n, now));
      }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true,
                                        attributeFilter: ['data-seq'], attributeOldValue: true});
})();
"""
SCRIPTS = INIT_SCRIPT + PROBE


def first_at(pairs: list[list[float]], seq: int, since: float = 0.0) -> float | None:
    """When `seq` first showed at or after `since` (None if it never did)."""
    times = [at for s, at in pairs if s == seq and at >= since]
    return min(times) if times else None


def event_latencies(page) -> dict[str, list[float]]:
    """Per websocket frame, ms from its arrival to the DOM showing it: a `view` frame until
    the root's data-seq has its seq, an `event` frame until its log entry is there."""
    marks = page.evaluate("() => ({b: window.__bench, frames: window.__ws.frames})")
    out: dict[str, list[float]] = {"view": [], "event": []}
    for frame in marks["frames"]:
        kind, seq = frame["type"], frame["seq"]
        if kind not in out or seq is None:
            continue
        shown = first_at(marks["b"]["seq" if kind == "view" else "log"], seq, frame["at"])
        if shown is not None:
            out[kind].append(shown - frame["at"])
    return out


def step_latency(page, seq: int) -> float:
    """ms from the last keydown to the replay root showing `seq` (waits for it)."""
    page.wait_for_function(
        "(s) => Number(document.querySelector('#replay').dataset.seq) === s", arg=seq
    )
    marks = page.evaluate("() => window.__bench")
    key = marks["keys"][-1]
    shown = first_at(marks["seq"], seq, key)
    assert shown is not None, f"seq {seq} shown before its key was pressed"
    return shown - key


def static_bytes(page, url: str) -> dict[str, int]:
    """Uncompressed bytes of the scripts and stylesheets a fresh page loads at `url`."""
    sizes = {"script": 0, "stylesheet": 0}
    responses = []
    page.on("response", lambda response: responses.append(response))
    page.goto(url, wait_until="networkidle")
    for response in responses:
        kind = response.request.resource_type
        if kind in sizes:
            sizes[kind] += len(response.body())
    return sizes
