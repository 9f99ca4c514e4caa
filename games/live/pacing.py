"""Clients that stop reading (issue 21, issue 32 item 5): one look a second over this process's
game sockets closes 1013 any whose write has waited more than SEJMI_WS_SEND_TIMEOUT_S, or whose
ping, sent after frames, has waited SEJMI_WS_PONG_TIMEOUT_S for its pong; and asks a pong of
each socket written to since its last ping (at most one ping per half that bound per socket,
none for an idle one). The backlog bound (SEJMI_WS_BACKLOG) is counted as items are queued
(games.live.outbox). No timer is made per frame (a timer per frame cost the fan-out to 2,000
spectators a third more web CPU): each write only notes when it began."""

from __future__ import annotations

import time
from typing import Any, Protocol

from games.live.outbox import Outbox, stuck
from games.live.registry import EachLoop

LOOK_EVERY_S = 1.0


class Paced(Protocol):
    channel_name: str
    outbox: Outbox

    def too_slow(self, why: str) -> None: ...


def enter(socket: Paced) -> None:
    SOCKETS.enter(socket.channel_name, socket)


def leave(socket: Paced) -> None:
    SOCKETS.leave(socket.channel_name)


async def _look(live: dict[str, Any]) -> None:
    now = time.monotonic()
    for socket in list(live.values()):
        if why := stuck(socket.outbox, now):
            socket.too_slow(why)
        else:
            socket.outbox.ask_pong(now)


SOCKETS = EachLoop(LOOK_EVERY_S, _look)
