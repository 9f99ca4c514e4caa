"""Which game sockets are open, across every web worker: a row per connected socket of a
signed-in user, kept alive by a heartbeat; a socket whose worker crashed stops beating and its
row expires (TTL), so nobody stays "present" forever. Mail is not sent for a game its player
has open (games.notifications.outbox). The sockets keep their rows alive: games.live.presence."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.notifications.models import Presence

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


def gone(channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


def has_open(user_id: int, game_id: int) -> bool:
    """Whether a live socket of this user watches this game now."""
    return Presence.objects.filter(user_id=user_id, game_id=game_id,
                                   expires_at__gt=timezone.now()).exists()  # fmt: skip


def expire() -> int:
    """Drop the rows of sockets that stopped beating (housekeeping; reads ignore them)."""
    return Presence.objects.filter(expires_at__lte=timezone.now()).delete()[0]
