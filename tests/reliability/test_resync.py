"""Resync never brings a duplicate the client did not ask for, nor a gap (issue 9, hole 6;
README, Live stream).

The rule: a resync is answered with exactly what it asks for — every event after `after`,
then the view — even events this socket was pushed already (still on their way when the
client asked, or asked for again on purpose). Apart from that, a socket receives each event
once, in seq order: a batch the channel layer delivers during or after a resync answer sends
only what is newer than the last seq this socket was sent, and a batch starting past it is
preceded by the missing events from the log.

So a client that always asks with an `after` older than its last event can check the rule
frame by frame: each event is the next of the run it is in, or else the first of the answer
to its oldest unanswered resync (`after + 1`). Never ambiguous: by the time an answer comes,
the run has passed the last event the client had when it asked, which is past `after`."""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connections
from hostile_helpers import bot_game, bots_playing

from games import notify, selectors, services
from games.models import GameEvent
from sejmi.asgi import application

TIMEOUT = 5
QUIET = 0.5


@pytest.fixture(autouse=True)
def _no_celery(settings):
    settings.CELERY_DEADLINES = False  # bots move only when a test or its sweeper says so
    cache.clear()


@dataclass
class Stream:
    """What one socket received, checked against the rule as it arrives."""

    next_seq: int  # the event that continues the current run
    asked: deque[int] = field(default_factory=deque)  # `after` of unanswered resyncs
    events: int = 0
    answers: int = 0
    wrong: list[str] = field(default_factory=list)

    def event(self, seq: int) -> None:
        self.events += 1
        if seq == self.next_seq:
            pass  # the run goes on
        elif self.asked and seq == self.asked[0] + 1:
            self.asked.popleft()  # the answer to the oldest resync begins
            self.answers += 1
        else:
            self.wrong.append(f"event {seq} where {self.next_seq} was due; asked {self.asked}")
        self.next_seq = seq + 1


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


async def next_frame(sock: WebsocketCommunicator, wait: float) -> dict | None:
    """The next frame, or None after `wait` seconds of silence (a timeout inside the
    communicator would cancel the consumer, so silence is asked for first)."""
    if await sock.receive_nothing(timeout=wait, interval=0.005):
        return None
    return await sock.receive_json_from(timeout=TIMEOUT)


def bots_move(gid: int) -> list[GameEvent]:
    """One batch: the awaited bots act (committed, then broadcast as after every commit)."""
    before, _ = selectors.current(gid)
    done = services.game_bot_moves(game_id=gid, expected_seq=before.seq)
    return list(GameEvent.objects.filter(game_id=gid, seq__gt=before.seq, seq__lte=done.seq))


def broadcast_late(gid: int, rows: list[GameEvent]) -> None:
    """Deliver a batch again, as a layer that was slow would: the same after-commit message."""
    proj, _ = selectors.current(gid)
    notify.broadcast(gid, rows, proj)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_batch_arriving_after_the_resync_answer_that_held_it_is_not_sent_again(
    settings,
):
    gid = await sync_to_async(bot_game)()
    sock, start = await open_socket(gid)
    pushed = [await sync_to_async(bots_move)(gid) for _ in range(2)]
    for rows in pushed:
        assert await change(sock) == ([r.seq for r in rows], rows[-1].seq)
    channel_layers = settings.CHANNEL_LAYERS
    slow = {**channel_layers["default"], "CONFIG": {**channel_layers["default"]["CONFIG"],
                                                   "prefix": "held"}}  # fmt: skip
    settings.CHANNEL_LAYERS = {"default": slow}  # this batch's message goes nowhere, for now
    held = await sync_to_async(bots_move)(gid)
    settings.CHANNEL_LAYERS = channel_layers
    await sock.receive_nothing(timeout=QUIET)

    await sock.send_json_to({"type": "resync", "after": start})
    answer, head = await change(sock)
    assert answer == list(range(start + 1, held[-1].seq + 1)) and head == held[-1].seq  # as asked
    await sync_to_async(broadcast_late)(gid, held)  # the held batch arrives after all
    await sync_to_async(broadcast_late)(gid, pushed[1] + held)  # and an overlapping one
    await sock.receive_nothing(timeout=QUIET)  # both were in the answer: nothing again

    rows = await sync_to_async(bots_move)(gid)
    assert await change(sock) == ([r.seq for r in rows], rows[-1].seq)  # the run goes on
    await sock.receive_nothing(timeout=QUIET)
    await sock.disconnect()
    await sync_to_async(connections.close_all)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_resyncs_while_bot_games_commit_bring_no_unasked_duplicate_and_no_gap():
    rnd = random.Random(9)
    gids = [await sync_to_async(bot_game)() for _ in range(3)]
    sockets = [(gid, *await open_socket(gid)) for gid in gids for _ in range(2)]
    streams = [Stream(next_seq=start + 1) for _, _, start in sockets]

    async def listen(sock: WebsocketCommunicator, stream: Stream, give_up: float) -> None:
        last = stream.next_seq - 1
        while time.monotonic() < give_up:
            frame = await next_frame(sock, 2)
            if frame is None:
                return  # the game ended
            if frame["type"] != "event":
                continue
            stream.event(frame["event"]["seq"])
            last = max(last, frame["event"]["seq"])
            # At most two unanswered at once: each answer brings events, and so more resyncs.
            if last > 1 and len(stream.asked) < 2 and rnd.random() < 0.3:
                # Older than the last event: see the module's docstring.
                stream.asked.append(rnd.randint(max(0, last - 5), last - 1))
                await sock.send_json_to({"type": "resync", "after": stream.asked[-1]})

    pairs = list(zip(sockets, streams, strict=True))
    with bots_playing():
        give_up = time.monotonic() + 8
        await asyncio.gather(*[listen(sock, stream, give_up) for (_, sock, _), stream in pairs])
    for (gid, sock, _), stream in pairs:
        # What is still on its way: answers to the last resyncs, the last batches.
        while (frame := await next_frame(sock, QUIET)) is not None:
            if frame["type"] == "event":
                stream.event(frame["event"]["seq"])
        head = (await sync_to_async(selectors.current)(gid))[0].seq
        assert stream.wrong == [] and not stream.asked, stream
        assert stream.next_seq == head + 1  # no gap at the end either
        await sock.disconnect()
    assert sum(s.answers for s in streams) >= 30 and sum(s.events for s in streams) >= 300
    await sync_to_async(connections.close_all)()
