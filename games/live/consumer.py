"""`/ws/games/{id}/`: each committed event, then the new view, redacted for this socket's
viewer; `{"type": "resync", "after": seq}` replays what a client missed (API.md). A sealed
pass (R19) is told to the passer's own sockets only, as a new view (games.core.sealed_passes). A
spectator of a delayed game is sent the game `spectator_delay` events behind, by the same
promises (games.table.spectating). Any other websocket path is accepted and closed with 4404, as an
unknown game is (docs/LIVE_STREAM.md). The game's messages come from the process's hub
(games.live.hub), the frames go out through the socket's outbox (games.live.outbox)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from uvicorn.protocols.utils import ClientDisconnected
from websockets.exceptions import ConnectionClosed

from games.chat import rules as chat_rules
from games.core.errors import ApiError
from games.engine import GameState
from games.live import catch_up, commanding, delayed, pacing, render, wire
from games.live.frames import frame_text
from games.live.guard import TRY_AGAIN_LATER
from games.live.hub import hub
from games.live.incoming import FrameError, SocketCommand, Visibility, read_frame
from games.live.outbox import Outbox
from games.live.presence import Tracker
from games.live.render import Frames
from games.live.socket_db import socket_db
from games.table import selectors, spectating
from games.table.publish import CommittedBatch, SealedNotice

GONE = object()  # the client left while the socket wrote to it
NOT_FOUND = 4404  # the close code of an unknown game or path (docs/LIVE_STREAM.md)
log = logging.getLogger(__name__)


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
    `last_sent` is the client's word that it has the events up to `a`. The run is decided in
    the order of the socket's outbox (games.live.outbox): a batch is decided as it arrives only
    when nothing but frames waits there, else it waits its turn behind the resync answer or
    the gap's read, against the run they extended.

    A client that stops reading is closed 1013, not waited for (games.live.pacing, the bounds
    of games.live.outbox); the page reconnects and resyncs from its last seq.
    """

    channel_layer_alias = "no layer"  # no channel of its own: the hub hands it its messages

    outbox: Outbox
    _ending: object = None  # why the socket's own task was stopped
    _protocol: Any = None  # uvicorn's, when a batch may go as one write (games.live.wire)
    _joined = False
    _live = False  # sent the present (not a delayed spectator's stream)

    async def __call__(self, scope, receive, send) -> None:
        self.channel_name = f"game-socket.{uuid.uuid4().hex}"  # presence's and the looks' key
        self.outbox = Outbox(self)
        self._main = asyncio.current_task()
        try:
            await super().__call__(scope, receive, send)
        except asyncio.CancelledError:
            if self._ending is None:
                raise
            asyncio.current_task().uncancel()  # ours: the socket ends as `_ending` says
            if self._ending is GONE:
                return
            if isinstance(self._ending, BaseException):
                raise self._ending from None
            await self._close_slow()
        finally:
            await self._leave()

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        # Join before reading the view: a batch committed in between then still arrives (and
        # one already in the view is skipped by seq), instead of being missed; until the view
        # went out, what arrives waits in the outbox.
        self._hub = hub()
        await self._hub.join(self.game_id, self)
        self._joined = True
        try:
            view = await socket_db(spectating.game_detail)(self.game_id, self.user)
        except ApiError:
            self._joined = False
            await self._hub.leave(self.game_id, self)
            await close_as_not_found(self)  # its client's close ends it
            return
        self.first_sent, self.last_sent = view["seq"] + 1, view["seq"]
        await self.accept()
        # No mail meanwhile; born-read notifications while its page says the tab is visible.
        self.presence = Tracker(self.user, self.game_id, self.channel_name)
        await self.presence.enter()
        await self.send(text_data=frame_text({"type": "view", "view": view}))
        self._protocol = wire.protocol_of(self.scope)  # the handshake is done: its extensions
        self._live = not view["delayed"]
        if self._live:  # a delayed spectator's stream runs behind the head on purpose
            catch_up.enter(self)
        pacing.enter(self)
        self.outbox.open()

    async def _leave(self) -> None:
        self.outbox.close()
        catch_up.leave(self)
        pacing.leave(self)
        if self._joined:
            self._joined = False
            await self._hub.leave(self.game_id, self)
        if hasattr(self, "presence"):
            await self.presence.leave()

    async def disconnect(self, code: int) -> None:
        self.outbox.close()  # the rest when the socket's task ends (__call__)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resync, a command or the tab's visibility (games.live.incoming); anything else
        gets an `invalid` error, and the socket stays."""
        try:
            request = read_frame(text_data)
        except FrameError as bad:
            self.outbox.put(render.one(bad.payload()))
            return
        if isinstance(request, Visibility):  # answered by silence: it only changes presence
            if hasattr(self, "presence"):
                await self.presence.show(request.visible)
        elif isinstance(request, SocketCommand):
            await commanding.answer(self, request)
        else:
            after = request.after
            self.outbox.later(lambda: self._resync(after))

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

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes old DB connections before every message, a hop to a thread each (one
        # per command frame: 3 % of the web workers' CPU in bench-load). Every database access
        # here goes through socket_db, which closes them itself, in the thread that uses them.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    # --- the outbox's side (games.live.outbox.Sink) ------------------------------------------

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        await self.outbox.sending(super().send(text_data, bytes_data, close))

    async def write(self, frames: Frames) -> None:
        """Frames: their serialised bytes in one write where the server allows
        (games.live.wire), else one ASGI send each."""
        protocol = self._protocol
        if frames.wire is not None and protocol is not None:
            if await wire.write(protocol, frames.wire):
                return
        for text in frames.texts:
            await super().send(text_data=text)

    def write_now(self, frames: Frames) -> bool:
        """The same bytes written without waiting, where that cannot block (games.live.wire)."""
        protocol = self._protocol
        return frames.wire is not None and protocol is not None and wire.write_now(
            protocol, frames.wire)  # fmt: skip

    async def ping(self) -> asyncio.Future | None:
        return await wire.ping(self._protocol) if self._protocol is not None else None

    def too_slow(self, why: str) -> None:
        """Its client does not take its frames: the socket closes 1013, logged once."""
        self._stop(why)

    def failed(self, err: BaseException) -> None:
        """The outbox's writer failed: the client left (the socket ends quietly), or its work
        raised (the socket ends with it: games.live.guard answers a database away)."""
        self._stop(GONE if isinstance(err, ClientDisconnected | ConnectionClosed) else err)

    def _stop(self, why: str | BaseException) -> None:
        if self._ending is None:
            self._ending = why
            self.outbox.close()
            self._main.cancel()

    async def _close_slow(self) -> None:
        log.warning("game %s socket too slow (%s): closed %s", self.game_id, self._ending,
                    TRY_AGAIN_LATER)  # fmt: skip
        if self._protocol is not None:  # the close frame after what is buffered; the transport
            wire.fail(self._protocol, TRY_AGAIN_LATER)  # aborted if the client never takes it
            return
        with contextlib.suppress(TimeoutError):  # a full buffer may not take the close either
            async with asyncio.timeout(1):
                await super().send(close=TRY_AGAIN_LATER)

    # --- what the hub hands it (games.live.hub.Watcher): decided at once when it can be -----

    def committed(self, message: CommittedBatch, state: GameState) -> None:
        seq, first = message["seq"], message["events"][0]["seq"]
        if self.outbox.in_order and self._live and first <= self.last_sent + 1:
            if seq <= self.last_sent:
                return
            if spectating.sees_present(state, self.user):
                viewer = selectors.seat_of(state, self.user)
                self.outbox.put(render.frames(message, state, viewer, self.last_sent))
                self.last_sent = seq
                return
        self.outbox.later(lambda: self.game_committed(message, state))

    def sealed(self, message: SealedNotice) -> None:
        name = getattr(self.user, "username", None)
        if name and name in message["names"]:
            self.outbox.later(lambda: self.game_sealed(message))

    def chat(self, message: dict[str, Any], text: str) -> None:
        """A chat message (games.chat.services.broadcast): sent on only if its audience admits
        this socket's viewer (games.chat.rules: partners reach the pair only, the spectators'
        channel no player while the game runs)."""
        user = self.user
        name = user.username if user is not None and user.is_authenticated else None
        if chat_rules.admits(message["audience"], name):
            self.outbox.put(Frames((text,), None))

    def behind(self, head: int) -> None:
        """The game's head is past what this socket sent, long after its broadcast should have
        come (games.live.catch_up: the layer lost it): what it lacks, as a resync after it."""
        self.outbox.later(lambda: self.game_behind(head))

    # --- in the outbox's turn ------------------------------------------------------------------

    async def game_committed(self, message: CommittedBatch, state: GameState) -> None:
        """One committed batch (games.table.publish). Events up to `last_sent` were sent already (a
        resync answer may have overtaken the broadcast); a batch starting past `last_sent + 1`
        means the layer dropped one: fill in from the log."""
        if message["seq"] <= self.last_sent:
            return
        if not spectating.sees_present(state, self.user):
            await self._send_delayed(await delayed.delayed_batch(message, state))
            return
        first = message["events"][0]["seq"]
        if first > self.last_sent + 1:
            events, _ = await socket_db(self._read)(((self.last_sent, first - 1),))
            await self._send_events(events)
        viewer = selectors.seat_of(state, self.user)
        await self.outbox.sending(self.write(render.frames(message, state, viewer, self.last_sent)))
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
            await self.outbox.sending(self.write(Frames(batch.texts, batch.wire)))
        else:
            for seq, frame in batch.events:
                if seq > self.last_sent:
                    await self.send(text_data=frame)
            await self.send(text_data=batch.view)
        self.last_sent = batch.seq

    async def game_behind(self, head: int) -> None:
        if head > self.last_sent:
            await self._resync(self.last_sent)

    async def game_sealed(self, message: SealedNotice) -> None:
        """R19: a pass was sealed. Only the passer's own sockets send anything: his view, now
        with his pass (`legal: []`); every other socket stays silent, as if nothing happened."""
        if message["seq"] < self.last_sent:
            return
        events, view = await socket_db(self._read)(((self.last_sent, None),))
        await self._send_events(events)
        await self._send({"type": "view", "view": view})
        self.last_sent = max(self.last_sent, view["seq"])

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
committed_state = render.remember
frames_for = render.frames
