"""After COMMIT only: broadcast the new events to the game's websocket group. A failure here
never undoes a committed command: clients resync by seq. (The next deadline is scheduled by
games.table.deadline.)"""

from __future__ import annotations

import logging

from games.core.event_store import iso
from games.core.layer_send import group_send
from games.core.models import GameEvent, GameProjection

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game_{game_id}"


def broadcast(game_id: int, rows: list[GameEvent], proj: GameProjection,
              sealed: list[dict] = ()) -> None:  # fmt: skip
    """`sealed`: the data of the passes sealed in the window open at the new seq (R19). The
    message stays inside the service: each socket renders its passer's own view from it, and
    no frame to anyone else depends on it (games.live.consumer)."""
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
    if sealed:
        message["sealed"] = list(sealed)
    try:
        group_send(group_name(game_id), message)
    except Exception:  # the log is committed; sockets resync from it
        log.exception("broadcast of game %s seq %s failed", game_id, rows[-1].seq)
