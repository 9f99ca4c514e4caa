"""A committed batch reaches a game socket as one write of frames serialised once per audience
(issue 19, games.live.wire) wherever uvicorn's `websockets` protocol has no extension; with
per-message deflate it goes frame by frame through ASGI. The clients must not tell: each
audience's two sockets receive the same messages, live and delayed (API.md "Live stream")."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader
from websockets.sync.client import connect

from games.live import wire
from tests.support.canary import token_of
from tests.support.loops import in_own_loop, own_loop

MOVES = 14
SEAT = "a seat (R23: his own hand)"


def _move(players: list, gid: int) -> bool:
    """One command by the first player who may act (R19: a pass may be sealed); False at the end."""
    for client in players:
        view = client.get(f"/api/games/{gid}/").json()
        if view["legal"]:
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
            assert answer.status_code == 200, answer.content
            return True
    return False


class Reading:
    """What one socket received, read up to the moment its audience's REST view shows.

    Read after every move, not once at the end: a sealed pass (R19) is told to the passer's
    sockets as a view of its own, and a socket that hears of it only after the next batch went
    out rightly leaves it out (the batch's view has the pass already). Two sockets read at the
    end could differ by that race alone, whatever their framing."""

    def __init__(self, sock) -> None:
        self.sock, self.got, self.last = sock, [], None

    def until(self, shown: dict) -> None:
        want = (shown["seq"], shown["awaiting"])
        while self.last != want:
            message = json.loads(self.sock.recv(timeout=30))
            self.got.append(message)
            if message["type"] == "view":
                self.last = (message["view"]["seq"], message["view"]["awaiting"])


@pytest.mark.parametrize("delay", [0, 3], ids=["live", "delayed"])
@pytest.mark.django_db(transaction=True)
def test_a_batch_in_one_write_reads_as_the_frames_asgi_sends(
    uvicorn_server, make_player, no_celery, delay
):
    players = [make_player() for _ in range(4)]
    body = {"seats": 4, "options": {"spectator_delay": delay}}
    gid = players[0].post("/api/games/", body, format="json").json()["id"]
    for client in players:
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    url = uvicorn_server.replace("http://", "ws://") + f"/ws/games/{gid}/"
    seat = {"Authorization": f"Token {token_of(players[0])}"}
    audiences = {"spectator": (APIClient(), {}), SEAT: (players[0], seat)}
    readings = {
        who: (
            Reading(connect(url, compression=None, additional_headers=headers, open_timeout=30)),
            Reading(connect(url, additional_headers=headers, open_timeout=30)),
        )  # fmt: skip
        for who, (_, headers) in audiences.items()
    }
    for whole, deflated in readings.values():
        assert "permessage-deflate" in deflated.sock.response.headers["Sec-WebSocket-Extensions"]
        assert "Sec-WebSocket-Extensions" not in whole.sock.response.headers
    for _ in range(MOVES):
        if not _move(players, gid):
            break
        for who, (client, _) in audiences.items():
            shown = client.get(f"/api/games/{gid}/").json()
            for reading in readings[who]:
                reading.until(shown)

    for who, (whole, deflated) in readings.items():
        assert whole.got == deflated.got, who
        assert sum(m["type"] == "event" for m in whole.got) >= 3, who  # batches were sent at all
        whole.sock.close()
        deflated.sock.close()


def test_serialised_frames_parse_back_as_the_texts_in_order():
    texts = ["a", "Kostič " * 30, "x" * 70_000]  # each length form: 7 bits, 16 bits, 64 bits
    reader = StreamReader()
    reader.feed_data(wire.serialised(texts))
    reader.feed_eof()
    frames = [_parsed(Frame.parse(reader.read_exact, mask=False)) for _ in texts]
    assert all(f.fin and f.opcode is Opcode.TEXT for f in frames)
    assert [f.data.decode() for f in frames] == texts
    assert not reader.buffer  # nothing after the last frame


def _parsed(parser) -> Frame:
    """websockets' generator parser, run on a buffer that holds the whole frame."""
    try:
        next(parser)
    except StopIteration as done:
        return done.value
    raise AssertionError("the buffer ended inside a frame")


def test_only_uvicorns_websockets_protocol_without_an_extension_is_written_to():
    from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol

    async def app(scope, receive, send):
        pass

    async def check() -> None:  # the protocols need a running loop
        config = Config(app=app, ws_per_message_deflate=False)
        plain = WebSocketProtocol(config=config, server_state=ServerState(), app_state={})
        assert wire.protocol_of({wire.SERVER_SEND: plain.asgi_send}) is None  # no handshake yet
        plain.handshake_completed_event.set()
        assert wire.protocol_of({wire.SERVER_SEND: plain.asgi_send}) is plain
        deflating = WebSocketProtocol(config=config, server_state=ServerState(), app_state={})
        deflating.handshake_completed_event.set()
        deflating.extensions = ["permessage-deflate"]  # as negotiated with a client asking it
        assert wire.protocol_of({wire.SERVER_SEND: deflating.asgi_send}) is None
        assert wire.protocol_of({wire.SERVER_SEND: app}) is None  # another server's send
        assert wire.protocol_of({}) is None

    in_own_loop(check())


@own_loop
async def test_a_batch_goes_at_once_only_while_the_transport_holds_nothing() -> None:
    """Issue 31: `write_now` may skip the drain only where no drain could wait; while the
    transport holds bytes a client has not taken, the batch is left to the outbox's timed path
    (games.live.outbox), or a client that never reads would pile batches up in memory unseen
    by the stuck-send bound."""
    held_open: list[asyncio.StreamWriter] = []
    server = await asyncio.start_server(lambda r, w: held_open.append(w), "127.0.0.1", 0)
    _, writer = await asyncio.open_connection(*server.sockets[0].getsockname()[:2])
    transport = writer.transport
    handshake_done = asyncio.Event()
    handshake_done.set()
    protocol = SimpleNamespace(
        state=State.OPEN,
        transport=transport,
        handshake_completed_event=handshake_done,
        closed_event=asyncio.Event(),
        transfer_data_task=asyncio.get_running_loop().create_future(),
    )
    try:
        assert wire.write_now(protocol, b"first")  # nothing held: written at once
        for _ in range(2_000):  # the peer never reads: the kernel's buffers fill, then ours
            if transport.get_write_buffer_size():
                break
            transport.write(b"x" * 65_536)
        held = transport.get_write_buffer_size()
        assert held
        assert not wire.write_now(protocol, b"second")
        assert transport.get_write_buffer_size() == held  # nothing written
        protocol.state = State.CLOSING
        assert not wire.write_now(protocol, b"third")
    finally:
        transport.abort()
        server.close()
