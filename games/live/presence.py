"""The presence of game sockets (games.notifications.presence keeps the rows): each signed-in
game socket is tracked while open, and each process beats for all of its sockets at once."""

from __future__ import annotations

import contextlib
import logging

from games.live.registry import EachLoop
from games.live.socket_db import socket_db
from games.notifications import presence

log = logging.getLogger(__name__)
HEARTBEAT_S = 20  # three missed beats and the row expires (presence.TTL)


async def _beat_all(live: dict[str, Tracker]) -> None:
    rows = [t.row for t in live.values()]
    visible = [t.channel for t in live.values() if t.visible]
    if rows:  # a missed beat only shortens the presence
        await socket_db(presence.beat)(rows, visible)


# One upsert per process per heartbeat, not one per socket (600 sockets: 30 writes a second,
# as many as the moves of 200 games).
TRACKED = EachLoop(HEARTBEAT_S, _beat_all)


class Tracker:
    """The presence of one game socket: `await enter()` after accept, `await show(visible)`
    when its page says its tab was shown or hidden, `await leave()` on disconnect. A spectator
    or an anonymous socket is tracked too (when signed in): harmless."""

    def __init__(self, user, game_id: int, channel: str) -> None:
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.game_id, self.channel = game_id, channel
        self.visible = False  # until the page says so: a tab opened in the background

    @property
    def row(self) -> tuple[int, int, str]:
        assert self.user_id is not None
        return (self.user_id, self.game_id, self.channel)

    async def enter(self) -> None:
        if self.user_id is None:
            return
        await socket_db(presence.beat)([self.row])
        TRACKED.enter(self.channel, self)

    async def show(self, visible: bool) -> None:
        """The page's tab is visible (or hidden) now. A failed write (the database out of
        reach) changes neither the row nor this tracker, so the page's next frame tries again;
        a closed socket deletes the row in any case."""
        if self.user_id is None or visible == self.visible:
            return
        try:
            await socket_db(presence.show)(self.row, visible)
        except Exception:
            log.exception("presence of %s: visibility not recorded", self.channel)
            return
        self.visible = visible

    async def leave(self) -> None:
        if self.user_id is None:
            return
        TRACKED.leave(self.channel)
        with contextlib.suppress(Exception):  # unreachable database: the row expires (TTL)
            await socket_db(presence.gone)(self.channel)
