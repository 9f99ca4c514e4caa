"""A socket's outbox writes a batch at once when nothing is before it (issue 31: the fan-out's
cost per socket), and never at once past anything before it: queued frames, work waiting its
turn (an ack, a resync's answer) or a write under way. The socket's frames keep their order
(docs/LIVE_STREAM.md: no gap, no duplicate, seq order)."""

from __future__ import annotations

import asyncio

from games.live.outbox import Outbox
from games.live.render import Frames
from tests.support.loops import own_loop


class Socket:
    """The outbox's sink: `taken` in the order the client would read them. `writes_now`: the
    transport holds nothing (games.live.wire.write_now); `blocked`: a queued write waits."""

    def __init__(self) -> None:
        self.taken: list[str] = []
        self.writes_now = True
        self.blocked = asyncio.Event()
        self.blocked.set()

    async def write(self, frames: Frames) -> None:
        await self.blocked.wait()
        self.taken += frames.texts

    def write_now(self, frames: Frames) -> bool:
        if self.writes_now:
            self.taken += frames.texts
        return self.writes_now

    async def ping(self) -> None:
        return None

    def too_slow(self, why: str) -> None:
        raise AssertionError(why)

    def failed(self, err: BaseException) -> None:
        raise AssertionError(err)


def batch(name: str) -> Frames:
    return Frames((name,), b"")


async def opened() -> tuple[Outbox, Socket]:
    socket = Socket()
    box = Outbox(socket)
    box.open()
    await asyncio.sleep(0)  # the writer waits for its first item
    return box, socket


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@own_loop
async def test_an_idle_outbox_writes_a_batch_at_once_without_the_writers_turn() -> None:
    box, socket = await opened()
    box.put(batch("a"))
    assert socket.taken == ["a"]  # before the loop ran anything else
    assert box.unpinged  # a ping follows frames, however they went (games.live.pacing)


@own_loop
async def test_a_batch_behind_a_queued_one_waits_for_it() -> None:
    box, socket = await opened()
    socket.writes_now = False  # the transport holds bytes: "a" is queued
    box.put(batch("a"))
    socket.writes_now = True  # the kernel took them before the writer's turn came
    box.put(batch("b"))
    await settle()
    assert socket.taken == ["a", "b"]


@own_loop
async def test_a_batch_behind_work_waits_for_it() -> None:
    box, socket = await opened()
    release = asyncio.Event()

    async def ack() -> None:  # a command's ack: its answer is not there yet
        await release.wait()
        socket.taken.append("ack")

    box.later(ack)
    await settle()
    box.put(batch("a"))
    assert socket.taken == []
    release.set()
    await settle()
    assert socket.taken == ["ack", "a"]


@own_loop
async def test_a_batch_waits_for_a_write_under_way() -> None:
    box, socket = await opened()
    socket.writes_now, socket.blocked = False, asyncio.Event()
    box.put(batch("a"))
    await settle()  # the writer is in "a"'s write, waiting for the client
    socket.writes_now = True
    box.put(batch("b"))
    assert socket.taken == []
    socket.blocked.set()
    await settle()
    assert socket.taken == ["a", "b"]


@own_loop
async def test_a_closed_outbox_writes_nothing() -> None:
    box, socket = await opened()
    box.close()
    box.put(batch("a"))
    await settle()
    assert socket.taken == []
