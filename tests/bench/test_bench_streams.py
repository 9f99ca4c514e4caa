"""bench-load's per-socket check (bench/clients/streams.py) holds a socket to the consumer's
promise, no more and no less: after a reconnect the answer to its resync may come after live events
(docs/LIVE_STREAM.md), and is not a gap; a real gap or a repeat still counts."""

from __future__ import annotations

import json

from bench.clients.streams import Stream
from tests.support.loops import in_own_loop


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def view(seq: int) -> str:
    return json.dumps({"type": "view", "view": {"seq": seq, "status": "active", "legal": []}})


def event(seq: int) -> str:
    return json.dumps({"type": "event", "event": {"seq": seq, "type": "x", "data": {}}})


def feed(stream: Stream, ws: FakeSocket, frames: list[tuple[str, bool]]) -> None:
    async def run() -> None:
        for frame, fresh in frames:
            await stream._on_frame(ws, frame, fresh)

    in_own_loop(run(), timeout=30)


def test_a_resync_answer_after_live_events_is_the_promised_order():
    stream, ws = Stream(1, "ws://x", {}, False), FakeSocket()
    feed(stream, ws, [(view(5), True), (event(6), False), (event(7), False)])
    # a new socket: its view is at 10, the stream holds up to 7 and asks for the rest
    feed(stream, ws, [(view(10), True), (event(11), False), (event(8), False),
                      (event(9), False), (event(10), False), (view(11), False),
                      (event(12), False)])  # fmt: skip
    assert ws.sent == [{"type": "resync", "after": 7}]
    assert (stream.socket_gaps, stream.socket_dups, stream.socket_repeats) == (0, 0, 0)
    assert stream.check(12) == {"missing": 0, "missing_tail": 0, "duplicated": 0,
                                "socket_gaps": 0, "socket_dups": 0}  # fmt: skip


def test_a_gap_or_a_repeat_on_one_socket_still_counts():
    stream, ws = Stream(1, "ws://x", {}, False), FakeSocket()
    feed(stream, ws, [(view(5), True), (event(6), False), (event(8), False)])
    assert stream.socket_gaps == 1
    # the answer owes (6, 10] from 7 on: 9 first skips 7 and 8, and 7 after it is behind
    feed(stream, ws, [(view(10), True), (event(9), False), (event(7), False)])
    assert (stream.socket_gaps, stream.socket_dups) == (2, 1)
    feed(stream, ws, [(event(11), False), (event(11), False)])
    assert stream.socket_dups == 2 and stream.socket_repeats >= 1
