"""Which game sockets are open, across every web worker: a row per connected socket of a
signed-in user, kept alive by a heartbeat; a socket whose worker crashed stops beating and its
row expires (TTL), so nobody stays "present" forever. Mail is not sent for a game its player
has open (games.notifications.outbox)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Presence

HEARTBEAT_S = 20
TTL = timedelta(seconds=60)  # three missed heartbeats


def _beat(user_id: int, game_id: int, channel: str) -> None:
    Presence.objects.update_or_create(
        channel=channel,
        defaults={"user_id": user_id, "game_id": game_id, "expires_at": timezone.now() + TTL},
    )


def _gone(channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


class Tracker:
    """The presence of one game socket: `await enter()` after accept, `await leave()` on
    disconnect. A spectator or an anonymous socket is tracked too (when signed in): harmless."""

    def __init__(self, user, game_id: int, channel: str) -> None:
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.game_id, self.channel = game_id, channel
        self.task: asyncio.Task | None = None

    async def enter(self) -> None:
        if self.user_id is None:
            return
        await database_sync_to_async(_beat)(self.user_id, self.game_id, self.channel)
        self.task = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            with contextlib.suppress(Exception):  # a missed beat only shortens the presence
                await database_sync_to_async(_beat)(self.user_id, self.game_id, self.channel)

    async def leave(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.user_id is not None:
            await database_sync_to_async(_gone)(self.channel)


def has_open(user_id: int, game_id: int) -> bool:
    """Whether a live socket of this user watches this game now."""
    return Presence.objects.filter(user_id=user_id, game_id=game_id,
                                   expires_at__gt=timezone.now()).exists()  # fmt: skip


def expire() -> int:
    """Drop the rows of sockets that stopped beating (housekeeping; reads ignore them)."""
    return Presence.objects.filter(expires_at__lte=timezone.now()).delete()[0]
