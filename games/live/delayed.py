"""A delayed game's frames for its spectator sockets (games.table.spectating says what a
spectator is shown): each committed batch's delayed frames are computed once per process, and
every spectator socket of that process sends the same text."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

from games.core import event_store
from games.engine import GameState
from games.live.frames import frame_text
from games.live.socket_db import socket_db
from games.live.wire import serialised
from games.table.publish import CommittedBatch
from games.table.spectating import (
    Shown,
    delay_of,
    game_starts,
    shown_behind,
    shown_events,
    shown_view,
)


@dataclass(frozen=True)
class DelayedBatch:
    """What one committed batch brings a spectator socket of a delayed game: the events
    (first - 1, seq] as text frames (seq, text), then the view at `seq`; `state` judges any
    older event a socket still lacks (a batch the channel layer dropped)."""

    first: int
    seq: int
    state: GameState
    events: tuple[tuple[int, str], ...]
    view: str
    wire: bytes  # every frame, events then view, serialised once (games.live.wire)

    @property
    def texts(self) -> tuple[str, ...]:
        return (*(text for _, text in self.events), self.view)


_BATCHES: OrderedDict[tuple[int, int], asyncio.Future] = OrderedDict()


async def delayed_batch(message: CommittedBatch, present: GameState) -> DelayedBatch:
    """The delayed frames of a committed batch (games.table.publish; `present` is its state),
    computed once per process: every spectator socket awaits the same computation."""
    key = (message["game"], message["seq"])
    task = _BATCHES.get(key)
    if task is None:
        task = asyncio.ensure_future(socket_db(_compute)(message, present))
        _BATCHES[key] = task
        while len(_BATCHES) > 64:
            _BATCHES.popitem(last=False)
    try:
        return await asyncio.shield(task)  # a socket that goes away cancels only its wait
    except Exception:
        _BATCHES.pop(key, None)  # the next socket tries again; this one resyncs
        raise


def _compute(message: CommittedBatch, present: GameState) -> DelayedBatch:
    game_id, delay = message["game"], delay_of(present)
    start = game_starts([game_id]).get(game_id)
    before = message["events"][0]["seq"] - 1  # where the game stood before this batch
    first = shown_behind(before, delay, start) + 1
    seq = shown_behind(message["seq"], delay, start)
    shown = Shown(seq, event_store.state_at(game_id, seq))
    events = tuple(
        (e["seq"], frame_text({"type": "event", "event": e}))
        for e in shown_events(game_id, shown, first - 1)
    )
    view = frame_text({"type": "view", "view": shown_view(game_id, shown)})
    frames = serialised([*(text for _, text in events), view])
    return DelayedBatch(first, shown.seq, shown.state, events, view, frames)
