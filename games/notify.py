"""After COMMIT only: broadcast the new events to the game's websocket group. A failure here
never undoes a committed command: clients resync by seq. (The next deadline is scheduled by
games.deadlines.)"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.event_store import iso
from games.models import GameEvent, GameProjection

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game_{game_id}"


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
