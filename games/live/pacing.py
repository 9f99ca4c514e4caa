"""Clients that stop reading (issue 21): one look a second over this process's game sockets
closes any that has waited more than SEJMI_WS_SEND_TIMEOUT_S in a send, or has more than
SEJMI_WS_BACKLOG batches queued behind such a send. Each frame only notes when its send began
(`Paced.sending_since`); no timer is made per frame (a timer per frame cost the fan-out to
2,000 spectators a third more web CPU). The look cancels the socket's stuck send; the socket
then closes itself 1013 (games.live.consumer) and its client resyncs when it comes back."""

from __future__ import annotations

import time
from typing import Any, Protocol

from django.conf import settings

from games.live.registry import EachLoop

LOOK_EVERY_S = 1.0


class Paced(Protocol):
    channel_name: str
    sending_since: float | None

    def too_slow(self, why: str) -> None: ...

    def backlog(self) -> int: ...


def enter(socket: Paced) -> None:
    SOCKETS.enter(socket.channel_name, socket)


def leave(socket: Paced) -> None:
    SOCKETS.leave(socket.channel_name)


def stuck(socket: Paced, now: float) -> str | None:
    """Why `socket` is too slow now, or None. Only a socket waiting in a send is judged: one
    that waits for the database is slow for the service's sake, not its client's."""
    since = socket.sending_since
    if since is None:
        return None
    if now - since > settings.SEJMI_WS_SEND_TIMEOUT_S:
        return f"a frame untaken for {now - since:.1f} s"
    if socket.backlog() > settings.SEJMI_WS_BACKLOG:
        return f"{socket.backlog()} batches waiting behind a send"
    return None


async def _look(live: dict[str, Any]) -> None:
    now = time.monotonic()
    for socket in list(live.values()):
        if why := stuck(socket, now):
            socket.too_slow(why)


SOCKETS = EachLoop(LOOK_EVERY_S, _look)
