"""After COMMIT only: broadcast the new events to the game's websocket group, and schedule
the next deadline or bot move. A failure here never undoes a committed command: clients
resync by seq, and the deadline sweeper picks up anything not scheduled."""

from __future__ import annotations

import logging
from datetime import timedelta

from asgiref.sync import async_to_sync
from celery import Celery
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from games.event_store import iso
from games.models import GameEvent, GameProjection

log = logging.getLogger(__name__)

VISIBILITY_TIMEOUT_S = 3600  # kombu's default for Redis (broker_transport_options)


def group_name(game_id: int) -> str:
    return f"game_{game_id}"


def committed(game_id: int, rows: list[GameEvent], proj: GameProjection) -> None:
    broadcast(game_id, rows, proj)
    schedule(game_id, proj)


def broadcast(game_id: int, rows: list[GameEvent], proj: GameProjection) -> None:
    message = {
        "type": "game.committed",
        "game": game_id,
        "seq": rows[-1].seq,
        "events": [
            {"seq": r.seq, "type": r.type, "v": r.v, "at": iso(r.at), "data": r.data} for r in rows
        ],  # fmt: skip
        "state": proj.state,  # the state JSON the projection stored in this transaction
        "deadline": iso(proj.deadline_at) if proj.deadline_at else None,
    }
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(game_id), message)
    except Exception:  # the log is committed; sockets resync from it
        log.exception("broadcast of game %s seq %s failed", game_id, rows[-1].seq)


def schedule(game_id: int, proj: GameProjection) -> bool:
    """Celery's fast path for a deadline or a bot move; the sweeper is the guarantee (R21).

    Returns whether a task was sent. A deadline beyond the horizon is left to the sweeper:
    Celery on Redis re-delivers an ETA task that waits longer than the broker's visibility
    timeout, so such a task would only come back again and again."""
    if proj.deadline_at is None or not settings.CELERY_DEADLINES:
        return False
    from games.tasks import advance

    if proj.deadline_at - timezone.now() > horizon(advance.app):
        return False
    try:
        advance.apply_async((game_id, proj.seq), eta=proj.deadline_at)
    except Exception:
        log.exception("scheduling game %s seq %s failed; the sweeper will act", game_id, proj.seq)
        return False
    return True


def horizon(app: Celery) -> timedelta:
    """How far ahead a task may be scheduled: half the broker's visibility timeout."""
    options = app.conf.broker_transport_options or {}
    return timedelta(seconds=options.get("visibility_timeout", VISIBILITY_TIMEOUT_S) / 2)
