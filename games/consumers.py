"""`/ws/games/{id}/`: each committed event, then the new view, redacted for this socket's
viewer; `{"type": "resync", "after": seq}` replays what a client missed (API.md). A sealed
pass (R19) is told to the passer's own sockets only, as a new view (games.sealing). Any other
websocket path is accepted and closed with 4404, as an unknown game is (README, Live stream)."""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import chat, selectors
from games.codec import state_from_json
from games.engine import Event, GameState, redact_event, view_for
from games.engine.errors import Code
from games.errors import ApiError
from games.models import GameEvent
from games.notify import group_name

NOT_FOUND = 4404  # the close code of an unknown game or path (README, Live stream)
MAX_FRAME = 64 * 1024  # characters; a resync is a few dozen (HTTP bodies: 64 KiB too)
RESYNC_HELP = 'send {"type": "resync", "after": <seq>}'

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


def resync_after(text: str | None) -> int:
    """The `after` of a resync frame; ValueError (its message for the client) for anything
    else: binary, too long, not JSON, nested past the parser's stack, another shape."""
    if text is None:
        raise ValueError(f"text frames only: {RESYNC_HELP}")
    if len(text) > MAX_FRAME:
        raise ValueError(f"frames are at most {MAX_FRAME} characters: {RESYNC_HELP}")
    try:
        message = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested too deeply: {RESYNC_HELP}") from None
    except ValueError:
        raise ValueError(f"unreadable JSON: {RESYNC_HELP}") from None
    if not isinstance(message, dict) or message.get("type") != "resync":
        raise ValueError(RESYNC_HELP)
    after = message.get("after")
    if isinstance(after, bool) or not isinstance(after, int):
        raise ValueError(RESYNC_HELP)
    if after < 0:
        raise ValueError(f"after is a seq, 0 or more: {RESYNC_HELP}")
    return after


async def close_as_not_found(consumer: AsyncWebsocketConsumer) -> None:
    """Accept, then close with 4404: closed before the handshake, a socket would get an HTTP
    403 instead, and no client could tell an unknown game from a refused one."""
    await consumer.accept()
    await consumer.close(code=NOT_FOUND)


class NoSuchStream(AsyncWebsocketConsumer):
    """Every websocket path that names no stream (`/ws/nothing/`, `/ws/games/abc/`)."""

    async def connect(self) -> None:
        await close_as_not_found(self)


class GameConsumer(AsyncWebsocketConsumer):
    """Thin: authorize by scope user, forward committed batches, answer `resync`.

    A socket never sends an event seq twice, nor leaves a gap (README, Live stream). Frames on
    one connection are never lost (TCP, in order), so the socket knows what its client was
    given: the events `first_sent`..`last_sent`, one contiguous run (empty at first:
    `first_sent` is the first view's seq + 1, `last_sent` that seq). The live stream goes on
    from `last_sent`, and a batch starting past `last_sent + 1` is preceded by the missing
    events from the log. A resync after `a` sends every event past `a` outside the run, in
    seq order — (a, first_sent) then (last_sent, head] — then the view; an `a` past
    `last_sent` is the client's word that it has the events up to `a`. Messages are handled
    one at a time (Channels dispatches serially), so a batch the layer delivers during a
    resync answer is handled after it, against the run the answer extended.
    """

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
            await close_as_not_found(self)
            return
        self.first_sent, self.last_sent = view["seq"] + 1, view["seq"]
        await self.accept()
        await self._send({"type": "view", "view": view})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resync: every event after `after` this socket has not sent, in seq order, then the
        view; anything else gets an `invalid` error, and the socket stays."""
        try:
            after = resync_after(text_data)
        except ValueError as bad:
            error = {"code": Code.INVALID, "message": str(bad)}
            await self._send({"type": "error", "error": error})
            return
        # Not sent yet: what precedes the run (a client that loaded before this socket opened)
        # and what follows it. One read, at one projection.
        spans = ((after, self.first_sent - 1), (max(after, self.last_sent), None))
        events, view = await database_sync_to_async(self._read)(spans)
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.first_sent = min(self.first_sent, after + 1)
        self.last_sent = max(self.last_sent, view["seq"])  # an `after` past it: the client's word

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes old DB connections before every message (a hop to the sync thread);
        # a broadcast batch needs no database unless it heals a gap, which goes through
        # database_sync_to_async and closes them itself. 500 spectators: 500 hops saved.
        if message["type"] == "game.committed":
            await self.game_committed(message)
        else:
            await super().dispatch(message)

    async def game_committed(self, message: dict[str, Any]) -> None:
        """One committed batch (games.notify). Events up to `last_sent` were sent already (a
        resync answer may have overtaken the broadcast); a batch starting past `last_sent + 1`
        means the layer dropped one: fill in from the log."""
        if message["seq"] <= self.last_sent:
            return
        first = message["events"][0]["seq"]
        if first > self.last_sent + 1:
            events, _ = await database_sync_to_async(self._read)(((self.last_sent, first - 1),))
            await self._send_events(events)
        state = _remember(message)
        viewer = selectors.seat_of(state, self.user)
        for frame in _frames(self.game_id, message["seq"], viewer, self.last_sent):
            await self.send(text_data=frame)
        self.last_sent = message["seq"]

    async def game_sealed(self, message: dict[str, Any]) -> None:
        """R19: a pass was sealed. Only the passer's own sockets send anything: his view, now
        with his pass (`legal: []`); every other socket stays silent, as if nothing happened."""
        name = getattr(self.user, "username", None)
        if not name or name not in message["names"] or message["seq"] < self.last_sent:
            return
        events, view = await database_sync_to_async(self._read)(((self.last_sent, None),))
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.last_sent = max(self.last_sent, view["seq"])

    async def game_chat(self, message: dict[str, Any]) -> None:
        """A chat message (games.chat_services.broadcast): sent on only if its audience admits
        this socket's viewer (games.chat: partners reach the pair only, the spectators' channel
        no player while the game runs)."""
        user = self.user
        name = user.username if user is not None and user.is_authenticated else None
        if chat.admits(message["audience"], name):
            await self._send({"type": "chat", "message": message["message"]})

    def _read(self, spans: tuple[tuple[int, int | None], ...]) -> tuple[list[dict], dict]:
        """The events of each span (after, upto] (upto None: the head), spans in seq order,
        and the view, all as of one projection: no event is newer than the view sent with it.
        Redacted for this socket's viewer (R23)."""
        proj, state = selectors.current(self.game_id)
        viewer = selectors.seat_of(state, self.user)
        events = []
        for after, upto in spans:
            upto = proj.seq if upto is None else min(upto, proj.seq)
            rows = GameEvent.objects.filter(game_id=self.game_id, seq__gt=after, seq__lte=upto)
            events += [selectors.event_payload(r, state, viewer) for r in rows.order_by("seq")]
        view = selectors.game_view(self.game_id, state, self.user, seq=proj.seq,
                                   deadline=proj.deadline_at)  # fmt: skip
        return events, view

    async def _send_events(self, events: list[dict]) -> None:
        for event in events:
            await self._send({"type": "event", "event": event})
        if events:
            self.last_sent = max(self.last_sent, events[-1]["seq"])

    async def _send(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload))
