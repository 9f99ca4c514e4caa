"""Which game sockets are open, across every web worker: a row per connected socket of a
signed-in user, kept alive by a heartbeat; a socket whose worker crashed stops beating and its
row expires (TTL), so nobody stays "present" forever. Mail is not sent for a game its player
has open (games.notifications.outbox)."""

from __future__ import annotations

import contextlib
from datetime import timedelta

from django.utils import timezone

from games.live.registry import EachLoop
from games.notifications.models import Presence
from games.live.socket_db import socket_db

HEARTBEAT_S = 20
TTL = timedelta(seconds=60)  # three missed heartbeats


def beat(rows: list[tuple[int, int, str]]) -> None:
    """(user, game, channel) rows alive for another TTL, in one statement; a row the sweeper
    removed meanwhile (a missed beat) comes back."""
    expires = timezone.now() + TTL
    Presence.objects.bulk_create(
        [Presence(user_id=user, game_id=game, channel=channel, expires_at=expires)
         for user, game, channel in rows],
        update_conflicts=True, unique_fields=["channel"], update_fields=["expires_at"],
    )  # fmt: skip


def _gone(channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


async def _beat_all(live: dict[str, Tracker]) -> None:
    rows = [t.row for t in live.values()]
    if rows:  # a missed beat only shortens the presence
        await socket_db(beat)(rows)


# One upsert per process per heartbeat, not one per socket (600 sockets: 30 writes a second,
# as many as the moves of 200 games).
TRACKED = EachLoop(HEARTBEAT_S, _beat_all)


class Tracker:
    """The presence of one game socket: `await enter()` after accept, `await leave()` on
    disconnect. A spectator or an anonymous socket is tracked too (when signed in): harmless."""

    def __init__(self, user, game_id: int, channel: str) -> None:
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.game_id, self.channel = game_id, channel

    @property
    def row(self) -> tuple[int, int, str]:
        assert self.user_id is not None
        return (self.user_id, self.game_id, self.channel)

    async def enter(self) -> None:
        if self.user_id is None:
            return
        await socket_db(beat)([self.row])
        TRACKED.enter(self.channel, self)

    async def leave(self) -> None:
        if self.user_id is None:
            return
        TRACKED.leave(self.channel)
        with contextlib.suppress(Exception):  # unreachable database: the row expires (TTL)
            await socket_db(_gone)(self.channel)


def has_open(user_id: int, game_id: int) -> bool:
    """Whether a live socket of this user watches this game now."""
    return Presence.objects.filter(user_id=user_id, game_id=game_id,
                                   expires_at__gt=timezone.now()).exists()  # fmt: skip


def expire() -> int:
    """Drop the rows of sockets that stopped beating (housekeeping; reads ignore them)."""
    return Presence.objects.filter(expires_at__lte=timezone.now()).delete()[0]
