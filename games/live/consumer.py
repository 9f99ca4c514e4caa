"""`/ws/games/{id}/`: each committed event, then the new view, redacted for this socket's
viewer; `{"type": "resync", "after": seq}` replays what a client missed (API.md). A sealed
pass (R19) is told to the passer's own sockets only, as a new view (games.core.sealed_passes). A
spectator of a delayed game is sent the game `spectator_delay` events behind, by the same
promises (games.table.spectating). Any other websocket path is accepted and closed with 4404, as an
unknown game is (docs/LIVE_STREAM.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable
from typing import Any, NamedTuple, TypeVar

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError

from games.chat import rules as chat_rules
from games.core.codec import state_from_json
from games.core.db_health import database_away, forget_dead_connections, pool_exhausted
from games.core.errors import ApiError
from games.core.pubsub import game_group
from games.engine import Event, GameState, fold, redact_event, view_for
from games.engine.errors import Code
from games.engine.events import BLOCK_PASSED
from games.live import catch_up, delayed, pacing, wire
from games.live.frames import frame_text
from games.live.guard import TRY_AGAIN_LATER
from games.live.incoming import FrameError, SocketCommand, Visibility, read_frame
from games.live.presence import Tracker
from games.live.socket_db import socket_db
from games.table import commands, selectors, spectating
from games.table.publish import CommittedBatch, SealedNotice

NOT_FOUND = 4404  # the close code of an unknown game or path (docs/LIVE_STREAM.md)
log = logging.getLogger(__name__)


class _SendTimedOut(Exception):
    """A frame the client did not take in time (GameConsumer.send)."""


T = TypeVar("T")
BATCHES_KEPT = 64  # parsed batches a process keeps for the sockets that have not sent them yet
FRAMES_KEPT = 1024  # rendered (batch, viewer, after) frame sets
BATCHES: OrderedDict[tuple[int, int], GameState] = OrderedDict()


class Frames(NamedTuple):
    """A batch's text frames for one audience, and the same serialised for the wire
    (games.live.wire), both made once for every socket that sends them."""

    texts: tuple[str, ...]
    wire: bytes


FRAMES: OrderedDict[tuple[int, int, int | None, int], Frames] = OrderedDict()


def _remember(message: CommittedBatch) -> GameState:
    """One parse per committed batch, shared by every socket of this process."""
    key = (message["game"], message["seq"])
    if key not in BATCHES:
        BATCHES[key] = state_from_json(message["state"])
        while len(BATCHES) > BATCHES_KEPT:
            BATCHES.popitem(last=False)
    return BATCHES[key]


def _frames(message: CommittedBatch, state: GameState, viewer: int | None,
            after: int) -> Frames:  # fmt: skip
    """The frames of one batch for one viewer, rendered once: every spectator (and every
    socket of one seat) shares them. The caller passes the batch and its state: with hundreds
    of games a socket that awaited a gap's read may find its batch gone from BATCHES."""
    key = (message["game"], message["seq"], viewer, after)
    if key not in FRAMES:
        FRAMES[key] = _render(message, state, viewer, after)
        while len(FRAMES) > FRAMES_KEPT:
            FRAMES.popitem(last=False)
    return FRAMES[key]


def _render(message: CommittedBatch, state: GameState, viewer: int | None,
            after: int) -> Frames:  # fmt: skip
    game_id, seq = message["game"], message["seq"]
    frames = []
    judge = state
    if message.get("deal_open"):  # a duplicate deal another table still plays (publish)
        judge = state.copy()
        judge.status = "active"  # its events redacted as a running game's
    for e in message["events"]:
        if e["seq"] <= after:
            continue
        data = redact_event(Event(e["type"], e["data"], e["v"]), judge, viewer)
        event = {"seq": e["seq"], "type": e["type"], "at": e["at"], "data": data}
        frames.append(frame_text({"type": "event", "event": event}))
    view = {"id": game_id, "seq": seq, **view_for(_seen_by(message, state, viewer), viewer),
            "deadline": message["deadline"], "delayed": False,
            "tournament": message.get("tournament"),
            "signed_head": message.get("signed_head")}  # fmt: skip
    if message.get("deal_open"):  # a duplicate deal another table still plays (publish)
        view["seed"], view["hands"] = None, None
    frames.append(frame_text({"type": "view", "view": view}))
    return Frames(tuple(frames), wire.serialised(frames))


def _seen_by(message: CommittedBatch, state: GameState, viewer: int | None) -> GameState:
    """The batch's state as `viewer` knows it: with his own pass if it was sealed in the window
    left open at this seq (R19; games.core.sealed_passes.seen_by), so his view never offers a `pass`
    the service would refuse."""
    own = [data for data in message.get("sealed", ()) if data["seat"] == viewer]
    return fold([Event(BLOCK_PASSED, data) for data in own], state) if own else state


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

    A socket never sends an event seq twice, nor leaves a gap (docs/LIVE_STREAM.md). Frames on
    one connection are never lost (TCP, in order), so the socket knows what its client was
    given: the events `first_sent`..`last_sent`, one contiguous run (empty at first:
    `first_sent` is the first view's seq + 1, `last_sent` that seq). The live stream goes on
    from `last_sent`, and a batch starting past `last_sent + 1` is preceded by the missing
    events from the log. A resync after `a` sends every event past `a` outside the run, in
    seq order — (a, first_sent) then (last_sent, head] — then the view; an `a` past
    `last_sent` is the client's word that it has the events up to `a`. Messages are handled
    one at a time (Channels dispatches serially), so a batch the layer delivers during a
    resync answer is handled after it, against the run the answer extended.

    A client that stops reading is closed, not waited for: a frame it does not take within
    SEJMI_WS_SEND_TIMEOUT_S, or more than SEJMI_WS_BACKLOG batches waiting behind such a send
    in this process, close the socket 1013 (Try Again Later; games.live.pacing); the page
    reconnects and resyncs from its last seq. Without this each stalled socket held every
    batch until it closed (issue 21: ~80 KB a socket, unbounded for a game that lasts days).
    """

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.group = game_group(self.game_id)
        # Join the group before reading the view: a batch committed in between then still
        # arrives (and one already in the view is skipped by seq), instead of being missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            view = await socket_db(spectating.game_detail)(self.game_id, self.user)
        except ApiError:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await close_as_not_found(self)
            return
        self.first_sent, self.last_sent = view["seq"] + 1, view["seq"]
        await self.accept()
        # No mail meanwhile; born-read notifications while its page says the tab is visible.
        self.presence = Tracker(self.user, self.game_id, self.channel_name)
        await self.presence.enter()
        await self._send({"type": "view", "view": view})
        self._protocol = wire.protocol_of(self.scope)  # the handshake is done: its extensions
        if not view["delayed"]:  # a delayed spectator's stream runs behind the head on purpose
            catch_up.enter(self)
        self._task = asyncio.current_task()  # the one pacing cancels if the client stops reading
        pacing.enter(self)

    async def disconnect(self, code: int) -> None:
        catch_up.leave(self)
        pacing.leave(self)
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if hasattr(self, "presence"):
            await self.presence.leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resync, a command or the tab's visibility (games.live.incoming); anything else
        gets an `invalid` error, and the socket stays."""
        try:
            request = read_frame(text_data)
        except FrameError as bad:
            await self._send(bad.payload())
            return
        if isinstance(request, Visibility):  # answered by silence: it only changes presence
            if hasattr(self, "presence"):
                await self.presence.show(request.visible)
        elif isinstance(request, SocketCommand):
            await self._send(await socket_db(self._command)(request))
        else:
            await self._resync(request.after)

    async def _resync(self, after: int) -> None:
        """Every event after `after` this socket has not sent, in seq order, then the view."""
        # Not sent yet: what precedes the run (a client that loaded before this socket opened)
        # and what follows it. One read, at one projection.
        spans = ((after, self.first_sent - 1), (max(after, self.last_sent), None))
        events, view = await socket_db(self._read)(spans)
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.first_sent = min(self.first_sent, after + 1)
        self.last_sent = max(self.last_sent, view["seq"])  # an `after` past it: the client's word

    def _command(self, request: SocketCommand) -> dict[str, Any]:
        """The REST command's service call, with the frame's id as its Idempotency-Key. The
        ack is sent once it committed; its events and view reach every socket (this one too)
        through the group, as any other command's do."""
        try:
            if not getattr(self.user, "is_authenticated", False):
                raise ApiError(Code.FORBIDDEN, "sign in and take a seat to send commands")
            answer = commands.game_command(user=self.user, game_id=self.game_id,
                                           body=request.body, key=request.id,
                                           view=False)  # the ack says the seq alone  # fmt: skip
        except DatabaseError as err:  # overloaded (games.live.guard) or the database lost: the
            if pool_exhausted(err):  # socket stays, and the client sends the same id again later
                message = "the service is busy; retry shortly"
            elif database_away(err):
                forget_dead_connections()
                message = "the database is unreachable; retry shortly"
            else:
                raise
            return {"type": "error", "id": request.id, **ApiError(Code.UNAVAILABLE, message).body()}
        except ApiError as err:
            spectator = err.code is Code.NOT_YOUR_TURN and (
                selectors.seat_in(self.game_id, self.user) is None)  # fmt: skip
            if spectator:
                err = ApiError(Code.FORBIDDEN, "spectators cannot send commands")
            return {"type": "error", "id": request.id, **err.body()}
        return {"type": "ack", "id": request.id, "seq": answer["seq"]}

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes old DB connections before every message, a hop to a thread each:
        # one per socket per broadcast batch (500 spectators, 500 hops), one per command
        # frame (3 % of the web workers' CPU in bench-load). Every database access here goes
        # through socket_db, which closes them itself, in the thread that uses them.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        try:
            await handler(message)
        except _SendTimedOut:
            await self._close_slow()

    # A client that stops reading (games.live.pacing): each frame notes when its send began;
    # the process's look cancels a send stuck too long, and the socket closes itself.
    sending_since: float | None = None
    _slow: str | None = None
    _task: asyncio.Task | None = None
    _protocol: Any = None  # uvicorn's, when a batch may go as one write (games.live.wire)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        await self._paced(super().send(text_data, bytes_data, close))

    async def _send_frames(self, texts: tuple[str, ...], serialised: bytes) -> None:
        """A batch's frames: their serialised bytes in one write where the server allows
        (games.live.wire), else one ASGI send each."""
        protocol = self._protocol
        if protocol is not None and await self._paced(wire.write(protocol, serialised)):
            return
        for text in texts:
            await self.send(text_data=text)

    async def _paced(self, sending: Awaitable[T]) -> T:
        self.sending_since = time.monotonic()
        try:
            return await sending
        except asyncio.CancelledError:
            if self._slow is None:
                raise
            asyncio.current_task().uncancel()  # pacing's cancel: handled, the socket closes
            raise _SendTimedOut from None
        finally:
            self.sending_since = None

    def backlog(self) -> int:
        """The layer's messages waiting for this socket in this process."""
        queue = getattr(self.channel_layer, "channels", {}).get(self.channel_name)
        return queue.qsize() if queue is not None else 0

    def too_slow(self, why: str) -> None:
        """games.live.pacing found this socket's client not reading: stop its stuck send."""
        if self._slow is None and self._task is not None:
            self._slow = why
            self._task.cancel()

    async def _close_slow(self) -> None:
        log.warning("game %s socket too slow (%s): closed %s", self.game_id, self._slow,
                    TRY_AGAIN_LATER)  # fmt: skip
        with contextlib.suppress(TimeoutError):  # a full buffer may not take the close either
            async with asyncio.timeout(1):
                await self.close(TRY_AGAIN_LATER)
        await self.websocket_disconnect({"code": TRY_AGAIN_LATER})  # leaves; StopConsumer

    async def game_committed(self, message: CommittedBatch) -> None:
        """One committed batch (games.table.publish). Events up to `last_sent` were sent already (a
        resync answer may have overtaken the broadcast); a batch starting past `last_sent + 1`
        means the layer dropped one: fill in from the log."""
        if message["seq"] <= self.last_sent:
            return
        state = _remember(message)
        if not spectating.sees_present(state, self.user):
            await self._send_delayed(await delayed.delayed_batch(message, state))
            return
        first = message["events"][0]["seq"]
        if first > self.last_sent + 1:
            events, _ = await socket_db(self._read)(((self.last_sent, first - 1),))
            await self._send_events(events)
        viewer = selectors.seat_of(state, self.user)
        await self._send_frames(*_frames(message, state, viewer, self.last_sent))
        self.last_sent = message["seq"]

    async def _send_delayed(self, batch: delayed.DelayedBatch) -> None:
        """A spectator of a delayed game: the batch's delayed frames, shared by every such
        socket, from `last_sent` on (the same promises as live: a gap is filled from the log,
        judged at the same moment, and nothing is sent twice)."""
        if batch.seq <= self.last_sent:
            return  # the shown moment has not moved (or a resync answer went past it)
        if batch.first > self.last_sent + 1:
            shown = spectating.Shown(batch.seq, batch.state)
            events = await socket_db(spectating.shown_events)(
                self.game_id, shown, self.last_sent, batch.first - 1
            )
            await self._send_events(events)
        if not batch.events or batch.events[0][0] > self.last_sent:  # all of them: shared bytes
            await self._send_frames(batch.texts, batch.wire)
        else:
            for seq, frame in batch.events:
                if seq > self.last_sent:
                    await self.send(text_data=frame)
            await self.send(text_data=batch.view)
        self.last_sent = batch.seq

    async def game_behind(self, message: dict[str, Any]) -> None:
        """The game's head is past what this socket sent, long after its broadcast should have
        come (games.live.catch_up: the layer lost it): what it lacks, as a resync after it."""
        if message["seq"] > self.last_sent:
            await self._resync(self.last_sent)

    async def game_sealed(self, message: SealedNotice) -> None:
        """R19: a pass was sealed. Only the passer's own sockets send anything: his view, now
        with his pass (`legal: []`); every other socket stays silent, as if nothing happened."""
        name = getattr(self.user, "username", None)
        if not name or name not in message["names"] or message["seq"] < self.last_sent:
            return
        events, view = await socket_db(self._read)(((self.last_sent, None),))
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.last_sent = max(self.last_sent, view["seq"])

    async def game_chat(self, message: dict[str, Any]) -> None:
        """A chat message (games.chat.services.broadcast): sent on only if its audience admits
        this socket's viewer (games.chat.rules: partners reach the pair only, the spectators'
        channel
        no player while the game runs)."""
        user = self.user
        name = user.username if user is not None and user.is_authenticated else None
        if chat_rules.admits(message["audience"], name):
            await self._send({"type": "chat", "message": message["message"]})

    def _read(self, spans: tuple[tuple[int, int | None], ...]) -> tuple[list[dict], dict]:
        """The events of each span (after, upto] (upto None: the head), spans in seq order,
        and the view, all as of one projection: no event is newer than the view sent with it.
        Redacted for this socket's viewer (R23)."""
        proj, state = selectors.current(self.game_id)
        shown = spectating.shown_for(self.game_id, self.user, proj.seq, state)
        if shown is not None:  # a spectator of a delayed game: up to the shown seq only
            events = [
                e
                for after, upto in spans
                for e in spectating.shown_events(self.game_id, shown, after, upto)
            ]
            return events, spectating.shown_view(self.game_id, shown)
        viewer = selectors.seat_of(state, self.user)
        events = []
        for after, upto in spans:
            upto = proj.seq if upto is None else min(upto, proj.seq)
            events += selectors.events_between(self.game_id, after, upto, state, viewer)
        view = selectors.game_view(self.game_id, state, self.user, seq=proj.seq,
                                   deadline=proj.deadline_at)  # fmt: skip
        return events, view

    async def _send_events(self, events: list[dict]) -> None:
        for event in events:
            await self._send({"type": "event", "event": event})
        if events:
            self.last_sent = max(self.last_sent, events[-1]["seq"])

    async def _send(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=frame_text(payload))


# What a process's sockets share, for callers outside the consumer (bench/scenarios/write_cpu.py
# measures the CPU of a batch's rendering): the same work as a socket does, by public names.


def committed_state(message: dict[str, Any]) -> GameState:
    """A committed batch's state, parsed once per process and shared by its sockets."""
    return _remember(message)


def frames_for(message: dict[str, Any], state: GameState, viewer: int | None,
               after: int) -> Frames:  # fmt: skip
    """The frames a socket of `viewer` (a seat, None for a spectator) is sent for a committed
    batch: its events after `after`, then the view; rendered once per audience and shared."""
    return _frames(message, state, viewer, after)
