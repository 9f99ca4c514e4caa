"""Sockets of the leak canary: every frame a websocket receives, kept as a `leaks.Capture`.

Roles: each human seat's token, a spectator's token, no token at all, and a token nobody holds
(it connects as a spectator, docs/LIVE_STREAM.md). Each batch a socket receives is its events,
then the view that closes it: the events are judged as received at that view's seq.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from channels.testing import WebsocketCommunicator

from tests.support.leaks import EVENTS, TEXT, VIEW, Capture

WS_TIMEOUT = 10  # seconds a frame may take to arrive (a busy 2-core machine)
BAD_TOKEN = "deadbeef" * 5  # well formed (40 hex digits), held by nobody


@dataclass
class Watcher:
    role: str
    viewer: int | None  # the seat the service knows this socket as once the game started
    sock: WebsocketCommunicator
    seq: int = 0  # the seq of the last view received
    captures: list[Capture] = field(default_factory=list)
    present: int | None = None  # the game's head while reading (a delayed spectator lags it)

    async def catch_up(self, head: int, shown: int | None = None) -> None:
        """Read frames until the view at `shown` (default `head`, the game's seq now) has
        arrived: a spectator of a delayed game is shown less than the head (issue 10)."""
        self.present = head
        while self.seq < (head if shown is None else shown):
            await self.next_change()

    async def next_change(self, source: str = "ws") -> None:
        """Read one change: its events, then its view (an error frame is kept as text)."""
        events: list[dict] = []
        while True:
            frame = await self.sock.receive_json_from(timeout=WS_TIMEOUT)
            if frame["type"] == "event":
                events.append(frame["event"])
            elif frame["type"] == "view":
                view = frame["view"]
                self._keep(EVENTS, view["seq"], events, f"{source} event")
                self._keep(VIEW, view["seq"], view, f"{source} view")
                self.seq = max(self.seq, view["seq"])
                return
            else:
                self._keep(TEXT, self.seq, frame, f"{source} {frame['type']}")
                return

    async def resync(self, after: int) -> None:
        """Ask for every event after `after` (docs/LIVE_STREAM.md: those events, then a view)."""
        await self.sock.send_json_to({"type": "resync", "after": after})
        await self.next_change("ws resync")

    async def garble(self) -> None:
        """A malformed frame: the answer is an error frame, kept like any other."""
        await self.sock.send_to(text_data='{"type": "resync", "after": "C01"}')
        await self.next_change("ws malformed")

    def _keep(self, kind: str, at: int, payload, source: str) -> None:
        if kind == EVENTS and not payload:
            return
        self.captures.append(Capture(self.role, self.viewer, kind, at, payload, source,
                                     present=self.present))  # fmt: skip


async def watch(open_socket: Callable, gid: int, seats: dict[int, str],
                spectator_token: str) -> list[Watcher]:  # fmt: skip
    """A socket per role, connected while the game is still in the lobby (so the deal's batch
    is seen live); each has read its first view."""
    roles = [(f"seat{seat} socket", seat, token) for seat, token in seats.items()]
    roles += [("spectator socket", None, spectator_token), ("anonymous socket", None, None),
              ("bad-token socket", None, BAD_TOKEN)]  # fmt: skip
    watchers = []
    for role, viewer, token in roles:
        watcher = Watcher(role, viewer, await open_socket(gid, token))
        await watcher.next_change("ws first")
        watchers.append(watcher)
    return watchers


RESYNC_EVERY = 15  # commits between a resync (and a malformed frame) from one socket


async def watched_game(make_player, open_socket, variant: str, seats: int, *,
                       bots: list[int] = (), rig: dict | None = None, delay: int = 0):  # fmt: skip
    """(Canary, watchers): a game watched from its lobby by every REST role and every socket
    role; the humans have joined, so it has started and the deal was streamed live."""
    from asgiref.sync import sync_to_async

    from tests.support.canary import open_canary, token_of

    table = await sync_to_async(open_canary)(make_player, variant, seats, bots=bots, rig=rig,
                                             delay=delay)  # fmt: skip
    tokens = await sync_to_async(lambda: {seat: token_of(role.client)
                                          for seat, role in table.humans.items()})()  # fmt: skip
    spectator = await sync_to_async(token_of)(table.roles[-2].client)
    watchers = await watch(open_socket, table.gid, tokens, spectator)
    await sync_to_async(table.join_all)()
    return table, watchers


async def play_to_end(table, watchers: list[Watcher], max_commits: int = 3000) -> None:
    """Turn after turn (see Canary.turn) until the end; after each commit every socket reads
    up to the new head, and now and then one resyncs or sends a malformed frame."""
    from asgiref.sync import sync_to_async

    for _ in range(max_commits):
        for watcher in watchers:
            await watcher.catch_up(table.head, await sync_to_async(table.shown)(watcher.viewer))
        if not await sync_to_async(table.turn)():
            await sync_to_async(table.deep)()  # after the end: everything public, nothing 500s
            return
        if table.commits % RESYNC_EVERY == 0:
            watcher = table.rnd.choice(watchers)
            await watcher.catch_up(table.head, await sync_to_async(table.shown)(watcher.viewer))
            await watcher.resync(table.rnd.randint(0, table.head))
            await watcher.garble()
    raise AssertionError(f"game {table.gid} did not end in {max_commits} commits")
