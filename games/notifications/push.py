"""After COMMIT: each new notification to its user's `/ws/me/` sockets, with the unread count
(API.md). A failure loses nothing: the bell reads the list over REST when it (re)connects."""

from __future__ import annotations

import logging
from typing import Any

from games.core.codec import iso
from games.core.pubsub import group_send, user_group
from games.notifications.models import Notification

log = logging.getLogger(__name__)


def payload(row: Notification) -> dict[str, Any]:
    return {"id": row.pk, "kind": row.kind, "game": row.game_id, "seq": row.seq,
            "at": iso(row.at), "read": row.read}  # fmt: skip


def unread(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read=False).count()


def push(rows: list[Notification]) -> None:
    """Each row to its user's group; the unread count is read by each listening socket
    (games.live.me_consumer), so a move nobody's bell listens to reads nothing."""
    for row in rows:
        message = {"type": "user.notification", "notification": payload(row)}
        try:
            group_send(user_group(row.user_id), message)
        except Exception:
            log.exception("pushing notification %s failed", row.pk)
