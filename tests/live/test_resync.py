"""A socket never sends the same event twice, nor leaves a gap — resyncs included (issue 9,
hole 6; docs/LIVE_STREAM.md).

The rule: frames on one connection are never lost (TCP, in order), so a socket knows what its
client was given: one contiguous run of events. A resync after `a` is answered with every
event past `a` that this socket has NOT sent — those older than its run (a client that loaded
before the socket opened) and those newer — in seq order, then the view. An event the socket
sent already is never sent again, however stale the `after`.

So a client that always asks with an `after` inside what this socket sent it can check the
rule frame by frame: the seqs it receives rise one by one, and each view is the state after
exactly the events received."""

from __future__ import annotations

import asyncio
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connections

from games.core.models import GameEvent
from games.table import commands, publish, selectors
from sejmi.asgi import application
from tests.support.hostile import bot_game, bots_playing

TIMEOUT = 5
QUIET = 0.5


@pytest.fixture(autouse=True)
def _no_celery(settings):
    settings.SEJMI_SEND_TASKS = False  # bots move only when a test or its sweeper says so
    cache.clear()


async def open_socket(gid: int) -> tuple[WebsocketCommunicator, int]:
    sock = WebsocketCommunicator(application, f"/ws/games/{gid}/")
    assert (await sock.connect(timeout=TIMEOUT))[0]
    first = await sock.receive_json_from(timeout=TIMEOUT)
    return sock, first["view"]["seq"]


async def change(sock: WebsocketCommunicator) -> tuple[list[int], int]:
    """The event seqs of one change, then the seq of the view that closes it."""
    seqs = []
    while True:
        frame = await sock.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "view":
            return seqs, frame["view"]["seq"]
        seqs.append(frame["event"]["seq"])


async def resync(sock: WebsocketCommunicator, after: int) -> tuple[list[int], int]:
    await sock.send_json_to({"type": "resync", "after": after})
    return await change(sock)


async def next_frame(sock: WebsocketCommunicator, wait: float) -> dict | None:
    """The next frame, or None after `wait` seconds of silence (a timeout inside the
    communicator would cancel the consumer, so silence is asked for first)."""
    if await sock.receive_nothing(timeout=wait, interval=0.005):
        return None
    return await sock.receive_json_from(timeout=TIMEOUT)


def bots_move(gid: int) -> list[int]:
    """One batch: the awaited bots act (committed, then broadcast as after every commit)."""
    before, _ = selectors.current(gid)
    done = commands.game_bot_moves(game_id=gid, expected_seq=before.seq)
    return list(range(before.seq + 1, done.seq + 1))


def broadcast_late(gid: int, seqs: list[int]) -> None:
    """Deliver a batch again, as a layer that was slow would: the same after-commit message."""
    proj, _ = selectors.current(gid)
    rows = GameEvent.objects.filter(game_id=gid, seq__in=seqs).order_by("seq")
    publish.broadcast(gid, list(rows), proj)


@contextmanager
def layer_holding(settings):
    """Batches committed inside go to another prefix of the layer: no socket hears them."""
    layers = settings.CHANNEL_LAYERS
    config = {**layers["default"]["CONFIG"], "prefix": "held"}
    settings.CHANNEL_LAYERS = {"default": {**layers["default"], "CONFIG": config}}
    try:
        yield
    finally:
        settings.CHANNEL_LAYERS = layers


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_resync_for_events_this_socket_was_pushed_brings_only_the_view(settings):
    gid = await sync_to_async(bot_game)()
    sock, start = await open_socket(gid)
    pushed = []
    for _ in range(3):
        seqs = await sync_to_async(bots_move)(gid)
        assert await change(sock) == (seqs, seqs[-1])
        pushed += seqs
    for after in [start, pushed[0], pushed[-2]]:
        assert await resync(sock, after) == ([], pushed[-1])  # nothing again, only the view

    with layer_holding(settings):  # this batch lands, but its message is not delivered
        held = await sync_to_async(bots_move)(gid)
    await sock.receive_nothing(timeout=QUIET)
    assert await resync(sock, pushed[1]) == (held, held[-1])  # only what landed meanwhile
    await sync_to_async(broadcast_late)(gid, held)  # the held batch arrives after all
    await sync_to_async(broadcast_late)(gid, pushed[-1:] + held)  # and an overlapping one
    await sock.receive_nothing(timeout=QUIET)  # both were in the answer: nothing again

    seqs = await sync_to_async(bots_move)(gid)
    assert await change(sock) == (seqs, seqs[-1])  # the run goes on
    await sock.receive_nothing(timeout=QUIET)
    await sock.disconnect()
    await sync_to_async(connections.close_all)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_resync_older_than_the_socket_brings_exactly_what_it_never_sent():
    gid = await sync_to_async(bot_game)()
    loaded = (await sync_to_async(selectors.current)(gid))[0].seq  # a client's REST load
    for _ in range(2):  # then moves, before its socket opens
        await sync_to_async(bots_move)(gid)
    sock, opened = await open_socket(gid)
    assert opened > loaded
    assert await resync(sock, loaded) == (list(range(loaded + 1, opened + 1)), opened)
    assert await resync(sock, loaded) == ([], opened)  # sent now: not again
    await sock.disconnect()
    await sync_to_async(connections.close_all)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_resync_older_than_the_socket_after_pushes_fills_only_the_front():
    gid = await sync_to_async(bot_game)()
    sock, opened = await open_socket(gid)
    pushed = await sync_to_async(bots_move)(gid)
    assert await change(sock) == (pushed, pushed[-1])
    older = opened - 3
    # In seq order, though the socket's run began later: only what precedes the run.
    assert await resync(sock, older) == (list(range(older + 1, opened + 1)), pushed[-1])
    assert await resync(sock, 0) == (list(range(1, older + 1)), pushed[-1])
    assert await resync(sock, 0) == ([], pushed[-1])  # the socket has sent 1..head now
    seqs = await sync_to_async(bots_move)(gid)
    assert await change(sock) == (seqs, seqs[-1])
    await sock.disconnect()
    await sync_to_async(connections.close_all)()


@dataclass
class Stream:
    """What one socket received: every event seq and every view seq, in arrival order."""

    start: int  # the first view's seq
    events: list[int] = field(default_factory=list)
    resyncs: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def last(self) -> int:
        return self.events[-1] if self.events else self.start

    def frame(self, frame: dict) -> None:
        if frame["type"] == "event":
            seq = frame["event"]["seq"]
            if seq <= self.last:  # a duplicate, or a step back
                self.wrong.append(f"event {seq} after {self.last}")
            self.events.append(seq)
        elif frame["type"] == "view" and frame["view"]["seq"] != self.last:
            self.wrong.append(f"view {frame['view']['seq']} after event {self.last}")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_stale_resyncs_while_bot_games_commit_bring_no_duplicate_and_no_gap():
    rnd = random.Random(9)
    gids = [await sync_to_async(bot_game)() for _ in range(3)]
    sockets = [(gid, *await open_socket(gid)) for gid in gids for _ in range(2)]
    streams = [Stream(start=start) for _, _, start in sockets]

    async def listen(sock: WebsocketCommunicator, stream: Stream, give_up: float) -> None:
        while time.monotonic() < give_up:
            frame = await next_frame(sock, 2)
            if frame is None:
                return  # the game ended
            stream.frame(frame)
            if frame["type"] == "event" and rnd.random() < 0.3:
                # Stale: inside what this socket sent, so the answer is only what is newer.
                after = rnd.randint(max(stream.start, stream.last - 5), stream.last)
                await sock.send_json_to({"type": "resync", "after": after})
                stream.resyncs += 1

    pairs = list(zip(sockets, streams, strict=True))
    with bots_playing():
        give_up = time.monotonic() + 8
        await asyncio.gather(*[listen(sock, stream, give_up) for (_, sock, _), stream in pairs])
    for (gid, sock, _), stream in pairs:
        # What is still on its way: answers to the last resyncs, the last batches.
        while (frame := await next_frame(sock, QUIET)) is not None:
            stream.frame(frame)
        head = (await sync_to_async(selectors.current)(gid))[0].seq
        assert stream.wrong == [], stream.wrong[:10]
        assert stream.events == list(range(stream.start + 1, head + 1))  # no gap, to the end
        await sock.disconnect()
    assert sum(s.resyncs for s in streams) >= 100 and sum(len(s.events) for s in streams) >= 300
    await sync_to_async(connections.close_all)()
