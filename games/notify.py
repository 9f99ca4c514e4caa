"""After COMMIT only: broadcast the new events to the game's websocket group, and schedule
the next deadline or bot move. A failure here never undoes a committed command: clients
resync by seq, and the deadline sweeper picks up anything not scheduled."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.codec import state_to_json
from games.engine import GameState
from games.event_store import iso
from games.models import GameEvent, GameProjection

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game_{game_id}"


def committed(game_id: int, rows: list[GameEvent], state: GameState, proj: GameProjection) -> None:
    broadcast(game_id, rows, state, proj)
    schedule(game_id, proj)


def broadcast(game_id: int, rows: list[GameEvent], state: GameState, proj: GameProjection) -> None:
    message = {
        "type": "game.committed",
        "game": game_id,
        "seq": rows[-1].seq,
        "events": [
            {"seq": r.seq, "type": r.type, "v": r.v, "at": iso(r.at), "data": r.data} for r in rows
        ],  # fmt: skip
        "state": state_to_json(state),
        "deadline": iso(proj.deadline_at) if proj.deadline_at else None,
    }
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(game_id), message)
    except Exception:  # the log is committed; sockets resync from it
        log.exception("broadcast of game %s seq %s failed", game_id, rows[-1].seq)


def schedule(game_id: int, proj: GameProjection) -> None:
    """Celery's fast path for a deadline or a bot move; the sweeper is the guarantee (R21)."""
    if proj.deadline_at is None or not settings.CELERY_DEADLINES:
        return
    from games.tasks import advance

    try:
        advance.apply_async((game_id, proj.seq), eta=proj.deadline_at)
    except Exception:
        log.exception("scheduling game %s seq %s failed; the sweeper will act", game_id, proj.seq)
