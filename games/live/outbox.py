"""A game socket's outgoing frames, in order, through a bounded queue of its own (issue 31).

Everything a game socket sends goes through its outbox, written by one task of the socket's
own: the batches the process's hub hands it (games.live.hub: rendered once per audience, the
same bytes for every socket), its acks and errors, and the work that must run in order with
them (a resync's answer, a gap read from the log, a delayed spectator's frames). So a socket's
frames keep their order however they arrive, the socket's `last_sent` is decided in that
order, and nothing can be sent after the outbox closed: `close` empties it and stops its
writer before the socket's close goes out (the "websocket.send after websocket.close" race of
issue 31 is gone by construction).

A client that does not take its frames is found here (games.live.pacing looks once a second):
more than SEJMI_WS_BACKLOG items waiting, a write waiting more than SEJMI_WS_SEND_TIMEOUT_S,
or a ping sent after frames left unanswered SEJMI_WS_PONG_TIMEOUT_S (the kernel's buffers may
take a whole game's frames for a client that never reads: no write of ours waits for it)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from django.conf import settings

from games.live.render import Frames

Work = Callable[[], Awaitable[None]]
PING = object()  # the item that asks the client for a pong (games.live.pacing)


class Sink(Protocol):
    """The socket an outbox writes to (games.live.consumer.GameConsumer)."""

    async def write(self, frames: Frames) -> None: ...

    def write_now(self, frames: Frames) -> bool: ...

    async def ping(self) -> asyncio.Future | None: ...

    def too_slow(self, why: str) -> None: ...

    def failed(self, err: BaseException) -> None: ...


class Outbox:
    def __init__(self, sink: Sink) -> None:
        self._sink = sink
        self._items: deque[Frames | Work | object] = deque()
        self._wake = asyncio.Event()
        self._work = 0  # work items waiting
        self._busy = False  # the writer runs one
        self._task: asyncio.Task | None = None
        self.closed = False
        self.sending_since: float | None = None  # when the write under way began
        self.pong: tuple[asyncio.Future, float] | None = None  # the last ping's, and when
        self.unpinged = False  # frames written since the last ping

    def open(self) -> None:
        """Start writing (the socket has sent its first view: what waits goes after it)."""
        if self._task is None and not self.closed:
            self._task = asyncio.get_running_loop().create_task(self._run())

    @property
    def in_order(self) -> bool:
        """Only frames wait: a batch may be decided now, against the socket's `last_sent`."""
        return self._task is not None and not self._busy and not self._work and not self.closed

    def put(self, frames: Frames) -> None:
        """Queue `frames`; written at once, with no turn of the writer, when nothing waits or
        is being written before them and the socket can take them without waiting (most
        sockets at most batches: the fan-out's cost per socket, issue 31)."""
        if (not self._items and self.sending_since is None and self.in_order
                and self._sink.write_now(frames)):  # fmt: skip
            self.unpinged = True
            return
        self._add(frames)

    def later(self, work: Work) -> None:
        """Run `work` in turn with the frames (it may send, read the database, move
        `last_sent`): the socket's serial handling, as Channels' dispatch gave it."""
        if not self.closed:
            self._work += 1
            self._add(work)

    def ask_pong(self, now: float) -> None:
        """A ping after the frames written since the last one (games.live.pacing), at most
        one per half of the pong's bound: each pong is read and parsed by the server (the
        fan-out to 2,000 spectators measured a ping a second too dear)."""
        if not self.unpinged or self.closed:
            return
        if self.pong is not None:
            if not self.pong[0].done() or now - self.pong[1] < settings.SEJMI_WS_PONG_TIMEOUT_S / 2:
                return
        self.unpinged = False
        self._add(PING)

    def waiting(self) -> int:
        return len(self._items)

    def close(self) -> None:
        """Nothing more is written, whatever was queued."""
        self.closed = True
        self._items.clear()
        self._work = 0
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()

    def _add(self, item: Frames | Work | object) -> None:
        if self.closed:
            return
        self._items.append(item)
        if len(self._items) > settings.SEJMI_WS_BACKLOG:
            self._sink.too_slow(f"{len(self._items)} batches waiting")
            return
        self._wake.set()

    async def _run(self) -> None:
        try:
            while not self.closed:
                if not self._items:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                item = self._items.popleft()
                if item is PING:
                    waiter = await self._sending(self._sink.ping())
                    if waiter is not None:
                        self.pong = (waiter, time.monotonic())
                elif isinstance(item, Frames):
                    await self._sending(self._sink.write(item))
                    self.unpinged = True
                else:
                    self._work -= 1
                    self._busy = True
                    try:
                        await item()  # type: ignore[operator]
                    finally:
                        self._busy = False
                    self.unpinged = True
        except asyncio.CancelledError:
            raise
        except BaseException as err:  # the client left, or the work failed: the socket ends
            self.closed = True
            self._items.clear()
            self._sink.failed(err)

    async def _sending(self, write: Awaitable):
        self.sending_since = time.monotonic()
        try:
            return await write
        finally:
            self.sending_since = None

    async def sending(self, write: Awaitable):
        """A write made by a work item: timed as the outbox's own are."""
        return await self._sending(write)


def stuck(box: Outbox, now: float) -> str | None:
    """Why `box`'s client is too slow now, or None. Only waiting on the client counts: work
    that waits for the database is slow for the service's sake, not the client's."""
    since = box.sending_since
    if since is not None and now - since > settings.SEJMI_WS_SEND_TIMEOUT_S:
        return f"a frame untaken for {now - since:.1f} s"
    pong = box.pong
    if pong is not None and not pong[0].done() and now - pong[1] > settings.SEJMI_WS_PONG_TIMEOUT_S:
        return f"a ping after its frames unanswered for {now - pong[1]:.1f} s"
    return None
