"""After COMMIT only: broadcast the new events to the game's websocket group. A failure here
never undoes a committed command: clients resync by seq. (The next deadline is scheduled by
games.table.deadline.)"""

from __future__ import annotations

import logging
from typing import Literal, NotRequired, TypedDict

from games.core.codec import iso, view_state_json
from games.core.models import GameEvent, GameProjection
from games.core.pubsub import game_group, group_send
from games.table import duplicates
from games.table.selectors import signed_head

log = logging.getLogger(__name__)


# The messages the table sends its game's sockets (games.live.consumer reads them): the
# contract between the two sides, checked by mypy on both.
class EventRow(TypedDict):
    seq: int
    type: str
    v: int
    at: str
    data: dict


class CommittedBatch(TypedDict):
    """A committed batch: its events, the state after it as the sockets read it (the
    projection's JSON less what no view reads: games.core.codec.view_state_json, issue 31) and
    the deadline; `sealed`: the passes sealed in the window left open at `seq` (R19), for
    each passer's own view only."""

    type: Literal["game.committed"]
    game: int
    seq: int
    events: list[EventRow]
    state: dict
    deadline: str | None
    sealed: NotRequired[list[dict]]
    signed_head: NotRequired[dict | None]  # the view's (issue 32: games.table.selectors)


class SealedNotice(TypedDict):
    """Passes sealed at `seq` without an append: the named players' sockets send their view."""

    type: Literal["game.sealed"]
    game: int
    seq: int
    names: list[str]


def broadcast(game_id: int, rows: list[GameEvent], proj: GameProjection,
              sealed: list[dict] = ()) -> None:  # fmt: skip
    """`sealed`: the data of the passes sealed in the window open at the new seq (R19). The
    message stays inside the service: each socket renders its passer's own view from it, and
    no frame to anyone else depends on it (games.live.consumer)."""
    message: CommittedBatch = {
        "type": "game.committed",
        "game": game_id,
        "seq": rows[-1].seq,
        "events": [
            {"seq": r.seq, "type": r.type, "v": r.v, "at": iso(r.at), "data": r.data} for r in rows
        ],  # fmt: skip
        # The state JSON the projection stored in this transaction, less what no socket reads
        # (the draw pile's order, the rig, the engine's counters, a shipped deck's rows).
        "state": view_state_json(proj.state),
        "deadline": iso(proj.deadline_at) if proj.deadline_at else None,
        "tournament": duplicates.tournament_of(game_id),  # the view's (cached per process)
        "signed_head": signed_head(rows[-1].seq, rows[-1].hash, rows[-1].head_signature)
        if rows[-1].head_signature
        else None,  # the batch's head, signed as it was appended
    }
    if sealed:
        message["sealed"] = list(sealed)
    if proj.status == "ended" and duplicates.deal_open(game_id):  # another table plays it
        message["events"] = duplicates.hide_in_events(game_id, message["events"])
        message["deal_open"] = True
    try:
        group_send(game_group(game_id), message)
    except Exception:  # the log is committed; sockets resync from it
        log.exception("broadcast of game %s seq %s failed", game_id, rows[-1].seq)


def tell_the_passer(game_id: int, seq: int, names: list[str]) -> None:
    """After COMMIT: the sockets of these players (and only theirs: games.live.consumer) send
    their new view. A failure loses nothing: a resync or the next batch brings the view."""
    message: SealedNotice = {"type": "game.sealed", "game": game_id, "seq": seq, "names": names}
    try:
        group_send(game_group(game_id), message)
    except Exception:
        log.exception("telling the passers of game %s at seq %s failed", game_id, seq)
