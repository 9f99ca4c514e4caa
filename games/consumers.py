"""`/ws/games/{id}/`: each committed event, then the new view, redacted for this socket's
viewer; `{"type": "resync", "after": seq}` replays what a client missed (API.md). A sealed
pass (R19) is told to the passer's own sockets only, as a new view (games.sealing)."""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import selectors
from games.codec import state_from_json
from games.engine import Event, GameState, redact_event, view_for
from games.engine.errors import Code
from games.errors import ApiError
from games.models import GameEvent
from games.notify import group_name

BATCHES: OrderedDict[tuple[int, int], tuple[dict[str, Any], GameState]] = OrderedDict()


def _remember(message: dict[str, Any]) -> GameState:
    """One parse per committed batch, shared by every socket of this process."""
    key = (message["game"], message["seq"])
    if key not in BATCHES:
        BATCHES[key] = (message, state_from_json(message["state"]))
        while len(BATCHES) > 64:
            BATCHES.popitem(last=False)
    return BATCHES[key][1]


@lru_cache(maxsize=1024)
def _frames(game_id: int, seq: int, viewer: int | None, after: int) -> tuple[str, ...]:
    """The text frames of one batch for one viewer: all spectators share one rendering."""
    message, state = BATCHES[(game_id, seq)]
    frames = []
    for e in message["events"]:
        if e["seq"] <= after:
            continue
        data = redact_event(Event(e["type"], e["data"], e["v"]), state, viewer)
        event = {"seq": e["seq"], "type": e["type"], "at": e["at"], "data": data}
        frames.append(json.dumps({"type": "event", "event": event}))
    view = {"id": game_id, "seq": seq, **view_for(state, viewer), "deadline": message["deadline"]}
    frames.append(json.dumps({"type": "view", "view": view}))
    return tuple(frames)


class GameConsumer(AsyncWebsocketConsumer):
    """Thin: authorize by scope user, forward committed batches, answer `resync`."""

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.group = group_name(self.game_id)
        # Join the group before reading the view: a batch committed in between then still
        # arrives (and one already in the view is skipped by seq), instead of being missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            view = await database_sync_to_async(selectors.game_detail)(self.game_id, self.user)
        except ApiError:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=4404)
            return
        self.last_seq = view["seq"]
        await self.accept()
        await self._send({"type": "view", "view": view})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
            after = message["after"] if message.get("type") == "resync" else None
            if isinstance(after, bool) or not isinstance(after, int) or after < 0:
                raise ValueError
        except (ValueError, TypeError, KeyError, AttributeError):
            error = {"code": Code.INVALID, "message": 'send {"type": "resync", "after": <seq>}'}
            await self._send({"type": "error", "error": error})
            return
        events, view = await database_sync_to_async(self._read)(after, None)
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.last_seq = max(self.last_seq, view["seq"])

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes old DB connections before every message (a hop to the sync thread);
        # a broadcast batch needs no database unless it heals a gap, which goes through
        # database_sync_to_async and closes them itself. 500 spectators: 500 hops saved.
        if message["type"] == "game.committed":
            await self.game_committed(message)
        else:
            await super().dispatch(message)

    async def game_committed(self, message: dict[str, Any]) -> None:
        """One committed batch (games.notify). Events up to `last_seq` were sent already; a
        batch starting past `last_seq + 1` means the layer dropped one: fill in from the log."""
        if message["seq"] <= self.last_seq:
            return  # already sent (a resync overtook the broadcast)
        first = message["events"][0]["seq"]
        if first > self.last_seq + 1:
            events, _ = await database_sync_to_async(self._read)(self.last_seq, first - 1)
            await self._send_events(events)
        state = _remember(message)
        viewer = selectors.seat_of(state, self.user)
        for frame in _frames(self.game_id, message["seq"], viewer, self.last_seq):
            await self.send(text_data=frame)
        self.last_seq = message["seq"]

    async def game_sealed(self, message: dict[str, Any]) -> None:
        """R19: a pass was sealed. Only the passer's own sockets send anything: his view, now
        with his pass (`legal: []`); every other socket stays silent, as if nothing happened."""
        name = getattr(self.user, "username", None)
        if not name or name not in message["names"] or message["seq"] < self.last_seq:
            return
        events, view = await database_sync_to_async(self._read)(self.last_seq, None)
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.last_seq = max(self.last_seq, view["seq"])

    def _read(self, after: int, upto: int | None) -> tuple[list[dict], dict]:
        """Events after `after` (up to `upto`), and the view, both as of one projection: no
        event is newer than the view sent with it. Redacted for this socket's viewer (R23)."""
        proj, state = selectors.current(self.game_id)
        upto = proj.seq if upto is None else min(upto, proj.seq)
        viewer = selectors.seat_of(state, self.user)
        rows = GameEvent.objects.filter(game_id=self.game_id, seq__gt=after, seq__lte=upto)
        events = [selectors.event_payload(r, state, viewer) for r in rows.order_by("seq")]
        view = selectors.game_view(self.game_id, state, self.user, seq=proj.seq,
                                   deadline=proj.deadline_at)  # fmt: skip
        return events, view

    async def _send_events(self, events: list[dict]) -> None:
        for event in events:
            await self._send({"type": "event", "event": event})
        if events:
            self.last_seq = max(self.last_seq, events[-1]["seq"])

    async def _send(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload))
