"""Which game sockets are open, across every web worker: a row per connected socket of a
signed-in user, kept alive by a heartbeat; a socket whose worker crashed stops beating and its
row expires (TTL), so nobody stays "present" forever. Mail is not sent for a game its player
has open (games.notifications.outbox). The sockets keep their rows alive: games.live.presence.

A row is also `visible` while its page says its tab is visible (the Page Visibility API;
the socket's `visibility` frame): a notification about that game is then born read and never
mailed (games.notifications.derive, docs/NOTIFICATIONS.md "Quiet at the table"). Visibility
lasts no longer than the row: hiding the tab, closing it or losing the socket ends it at
once, a crashed web process within TTL."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from games.notifications.models import Presence

TTL = timedelta(seconds=60)  # three missed heartbeats


def beat(rows: list[tuple[int, int, str]], visible: Collection[str] = ()) -> None:
    """(user, game, channel) rows alive for another TTL, in one statement; a row the sweeper
    removed meanwhile (a missed beat) comes back, `visible` if its channel is in `visible`.
    An existing row keeps its `visible`: only its socket's own frame changes it (`show`), so
    a beat that read the sockets before a visibility change cannot undo it."""
    expires = timezone.now() + TTL
    shown = set(visible)
    Presence.objects.bulk_create(
        [Presence(user_id=user, game_id=game, channel=channel, expires_at=expires,
                  visible=channel in shown)
         for user, game, channel in rows],
        update_conflicts=True, unique_fields=["channel"], update_fields=["expires_at"],
    )  # fmt: skip


def show(row: tuple[int, int, str], visible: bool) -> None:
    """The socket's page says its tab is now visible (or hidden): one upsert, which also
    renews the row."""
    user, game, channel = row
    Presence.objects.bulk_create(
        [Presence(user_id=user, game_id=game, channel=channel,
                  expires_at=timezone.now() + TTL, visible=visible)],
        update_conflicts=True, unique_fields=["channel"], update_fields=["expires_at", "visible"],
    )  # fmt: skip


def gone(channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


def has_open(user_id: int, game_id: int) -> bool:
    """Whether a live socket of this user watches this game now."""
    return Presence.objects.filter(user_id=user_id, game_id=game_id,
                                   expires_at__gt=timezone.now()).exists()  # fmt: skip


def sees_table(user_id: int, game_id: int) -> bool:
    """Whether this user has the game's table open in a visible tab now."""
    return Presence.objects.filter(user_id=user_id, game_id=game_id, visible=True,
                                   expires_at__gt=timezone.now()).exists()  # fmt: skip


def sees_table_sql(user: str, game: str) -> str:
    """`sees_table` as an SQL condition on the columns `user` and `game` of a query, with one
    parameter: now, so the derivation reads it with the accounts it reads anyway."""
    return (f"EXISTS (SELECT 1 FROM {Presence._meta.db_table} v WHERE v.user_id = {user}"
            f" AND v.game_id = {game} AND v.visible AND v.expires_at > %s)")  # fmt: skip


def now_param():
    """Now, as `sees_table_sql`'s parameter for this database (SQLite stores text)."""
    return connection.ops.adapt_datetimefield_value(timezone.now())


def expire() -> int:
    """Drop the rows of sockets that stopped beating (housekeeping; reads ignore them)."""
    return Presence.objects.filter(expires_at__lte=timezone.now()).delete()[0]
