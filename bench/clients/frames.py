"""A benchmark client's websocket frames, read fast (2,000 sockets' frames must be read quicker
than the server sends them), and the event loop the clients run on."""

from __future__ import annotations

import asyncio
import json
import re

# Frames are {"type": "event", "event": {"seq": ...}} and {"type": "view", "view": {"id": ...,
# "seq": ...}} (compact since games.live.frames): read the seq off the front.
FRONT = re.compile(
    r'\{"type": ?"(event|view)", ?"(?:event|view)": ?\{(?:"id": ?\d+, ?)?"seq": ?(\d+)'
)


def parse(frame: str) -> tuple[str, int]:
    found = FRONT.match(frame)
    if found:
        return found.group(1), int(found.group(2))
    message = json.loads(frame)  # an unexpected layout: read it the slow way
    body = message.get(message.get("type"), {})
    return message.get("type", "?"), body.get("seq", -1)


def event_loop() -> asyncio.Runner:
    """An asyncio Runner on uvloop where it is installed."""
    try:
        import uvloop

        return asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        return asyncio.Runner()
