"""One viewer's websocket stream of one game, across reconnects, and its seq checks.

A stream connects to `/ws/games/{id}/` (a player with `Authorization: Token`, a spectator
anonymously), keeps the latest view, and holds events by seq as the table page's log does:
`last` is the last seq it holds with none missing before it, and an event that comes ahead of
a missing one is kept until the gap fills. On a reconnect (and on the observer's stall resync)
it sends `{"type": "resync", "after": last}`, as the page does; an event it already holds
(asked again by such a resync) is not counted twice. Checks, per socket (each event is the
previous + 1, the resync answer starting after `after`; no seq twice on one socket, which the
docs/LIVE_STREAM.md promises) and per stream (every seq from the first view's to the game's
last arrived):
a gap or a duplicate is counted, never hidden. A socket's own order is checked against the
consumer's promise: after its first view at seq V, live events run from V + 1, and a resync
after `a` owes (a, V] in order, possibly after some live events (docs/LIVE_STREAM.md).

(Until this session the stream resynced after the *highest* seq received: a socket that died
between a live event and its resync's answer left a hole no later resync asked for, which
bench-faults counted as lost events.)
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from bench.clients.frames import parse

RECONNECTS_MAX = 50  # per stream: a stream that cannot stay connected gives up and says so


@dataclass
class Stream:
    game: int
    url: str
    headers: dict[str, str]
    player: bool  # players parse whole views (they need `legal`); spectators read seqs only
    first: int | None = None  # seq of the first view ever received
    last: int = 0  # every event seq up to this one is held (the page's log.lastSeq)
    highest: int = 0  # highest event seq held
    received: list[int] = field(default_factory=list)  # event seqs held, in arrival order
    held: set[int] = field(default_factory=set)
    resent: int = 0  # events that came again on another socket, asked for by a resync
    socket_repeats: int = 0  # a seq sent twice on one socket: never allowed
    view: dict | None = None  # latest whole view (players)
    view_seq: int = -1
    view_times: dict[int, float] = field(default_factory=dict)  # view seq -> arrival
    socket_gaps: int = 0  # an event past the socket's previous + 1
    socket_dups: int = 0  # an event at or below the socket's previous
    connects: int = 0
    drops: int = 0  # the connection ended while the stream was wanted
    resyncs: int = 0  # sent after a reconnect
    stall_resyncs: int = 0  # sent by the observer: the socket fell silent behind the game
    gave_up: str | None = None
    last_error: str | None = None  # why the last connection attempt or connection ended
    last_frame: float = field(default_factory=time.monotonic)
    behind_since: float | None = None  # the observer's: when it first saw this stream behind
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ws: object | None = None
    closing: bool = False
    _sock_last: int = 0  # the last seq of the socket's live run
    _sock_first: int = 0  # the seq of the socket's first view: its live run starts after it
    # [next, upto]: what a resync answer owes below the live run, in order (the consumer's
    # promise: "(a, first_sent) then (last_sent, head]", games.live.consumer.GameConsumer)
    _owed: list[int] | None = None
    _sock_seen: set[int] = field(default_factory=set)
    _answers: dict[str, asyncio.Future] = field(default_factory=dict)  # command id -> ack/error

    # --- frames ---------------------------------------------------------------------------

    async def _on_frame(self, ws, frame: str, fresh: bool) -> None:
        now = time.monotonic()
        self.last_frame = now
        kind, seq = parse(frame)
        if kind == "event":
            owed = self._owed
            if owed is not None and owed[0] <= seq <= owed[1]:  # the resync answer's part
                self.socket_gaps += seq != owed[0]
                owed[0] = seq + 1
                if owed[0] > owed[1]:
                    self._owed = None
            else:  # the live run
                if seq != self._sock_last + 1:
                    self.socket_dups += seq <= self._sock_last
                    self.socket_gaps += seq > self._sock_last + 1
                self._sock_last = max(self._sock_last, seq)
            self.socket_repeats += seq in self._sock_seen
            self._sock_seen.add(seq)
            if seq in self.held:
                self.resent += 1
                return
            self.held.add(seq)
            self.received.append(seq)
            self.highest = max(self.highest, seq)
            while self.last + 1 in self.held:
                self.last += 1
            return
        if kind in ("ack", "error"):
            answer = json.loads(frame)
            waiting = self._answers.pop(answer.get("id"), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(answer)
            return
        if kind != "view":
            raise RuntimeError(f"unexpected frame on game {self.game}: {frame[:200]}")
        if fresh:  # the first frame of a socket: the view as of connecting
            self._sock_first = self._sock_last = seq  # live events come after the view
            self._owed = None
            if self.first is None:
                self.first = self.last = self.highest = seq
            elif seq > self.last:  # the answer owes (last, seq]; live events may come first
                self._owed = [self.last + 1, seq]
                self.resyncs += 1
                await ws.send(json.dumps({"type": "resync", "after": self.last}))
        if seq >= self.view_seq:
            self.view_seq = seq
            self.view_times[seq] = now
            if len(self.view_times) > 64:
                del self.view_times[min(self.view_times)]
            if self.player:
                self.view = orjson.loads(frame)["view"]
        self.changed.set()

    def answered(self, view: dict) -> None:
        """The view a command's answer brought. At the seq the socket shows it is the newer
        one for this player (R19: a sealed pass moves no seq, and his socket's new view, with
        `legal: []`, may still be on its way): decide on it, not on the socket's older one."""
        if self.player and view["seq"] == self.view_seq:
            self.view = view

    async def command(self, key: str, body: dict, timeout: float) -> dict | None:
        """Send a command over the open socket (API.md, "Commands over the socket"; the key is
        its id) and return the `ack` or `error` frame; None when no socket is open, it dropped
        (at once: `run` answers None for it) or no answer came within `timeout`: the caller
        sends the same key over REST, as the table page does."""
        ws = self.ws
        if ws is None:
            return None
        answer = asyncio.get_running_loop().create_future()
        self._answers[key] = answer
        try:
            await ws.send(json.dumps({"type": "command", "id": key, "command": body}))
            return await asyncio.wait_for(answer, timeout)
        except (TimeoutError, WebSocketException):
            return None
        finally:
            self._answers.pop(key, None)

    def passed(self, seq: int) -> None:
        """This player's answer in the window at `seq` was acked: his socket's view of it may
        still offer `pass` until his own new view arrives (R19: a sealed pass moves no seq).
        He knows he answered (R26), so he decides on `legal: []` meanwhile."""
        if self.player and self.view is not None and self.view["seq"] == seq:
            self.view = {**self.view, "legal": []}

    async def resync(self) -> bool:
        """Ask the open socket for everything after the last event received (the observer's
        stall remedy, as a user reloading the page). False when no socket is open."""
        ws = self.ws
        if ws is None:
            return False
        # The answer owes what precedes this socket's run, then goes on after the run.
        self._owed = [self.last + 1, self._sock_first] if self.last < self._sock_first else None
        self.stall_resyncs += 1
        try:
            await ws.send(json.dumps({"type": "resync", "after": self.last}))
        except WebSocketException:
            return False
        return True

    # --- the connection, kept open until `close` --------------------------------------------

    async def run(self, connected: asyncio.Event | None = None) -> None:
        backoff = 0.2
        while not self.closing and self.connects < RECONNECTS_MAX:
            try:
                async with connect(self.url, additional_headers=self.headers, open_timeout=30,
                                   ping_interval=None, close_timeout=2,
                                   max_size=2**22) as ws:  # fmt: skip
                    if self.closing:  # closed while this connection was being opened
                        return
                    self.ws, self.connects, fresh = ws, self.connects + 1, True
                    self._sock_seen = set()
                    async for frame in ws:
                        await self._on_frame(ws, frame, fresh)
                        if fresh and connected is not None:
                            connected.set()
                        fresh, backoff = False, 0.2
            except (OSError, TimeoutError, WebSocketException) as err:
                self.last_error = f"{type(err).__name__}: {err}"[:200]
            self.ws = None
            for waiting in self._answers.values():  # a drop: REST at once, as the page does
                if not waiting.done():
                    waiting.set_result(None)
            if self.closing:
                return
            self.drops += 1
            await asyncio.sleep(backoff * random.uniform(0.5, 1.5))  # as the table page backs off
            backoff = min(backoff * 2, 3.0)
        if not self.closing:
            self.gave_up = f"{self.connects} connections"

    def state(self) -> dict:
        """Where the connection stands, for a set-up that waited in vain (bench.clients.tables)."""
        return {"connects": self.connects, "drops": self.drops, "open": self.ws is not None,
                "first_view": self.first, "last_error": self.last_error}  # fmt: skip

    def drop(self) -> bool:
        """Cut the TCP connection under the socket, with no close frame (a network drop)."""
        ws = self.ws
        if ws is None:
            return False
        ws.transport.abort()
        return True

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()

    # --- waiting and checking ---------------------------------------------------------------

    async def newer(self, seq: int, timeout: float) -> bool:
        """Wait until a view past `seq` has arrived (False after `timeout` s)."""
        deadline = time.monotonic() + timeout
        while self.view_seq <= seq:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=left)
            except TimeoutError:
                return False
        return True

    def check(self, final: int) -> dict[str, int]:
        """Against the game's last seq: seqs missing, seqs that came twice or more, and the
        per-socket order violations."""
        if self.first is None:
            return {"never_connected": 1}
        got = self.held
        expected = range(self.first + 1, final + 1)
        missing = sum(s not in got for s in expected)
        # Missing after the last seq received: still on their way when the run checked (a
        # socket behind), as opposed to holes the socket went past (lost).
        tail = max(0, final - max([self.first, *got]))
        return {"missing": missing, "missing_tail": tail, "duplicated": self.socket_repeats,
                "socket_gaps": self.socket_gaps, "socket_dups": self.socket_dups}  # fmt: skip
