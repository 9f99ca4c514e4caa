"""A committed batch's frames written to a game socket as one buffer, serialised once (issue 19).

Through ASGI each text frame of a batch took Channels' send, its session wrapper, our guard,
uvicorn's `asgi_send`, then the websockets library, which encodes the text, builds the frame
header and writes it to the transport: a system call per frame, ~3 frames a batch. With 2,000
spectators that was most of the web workers' CPU (docs/PERFORMANCE.md, "Issue 19: the fan-out").
The frames of a batch are now serialised once per audience (the same bytes for every socket
that shares them: server frames are not masked) and each socket writes them with one call, then
waits for its transport to drain as the library's own send does, so a client that stops
reading still holds its socket in a send (games.live.pacing closes it 1013).

Only under uvicorn's `websockets` implementation without an extension (compose's server has
`--ws-per-message-deflate false`): with per-message deflate every frame is compressed per socket,
and another server's protocol is not ours to write to; there a batch goes frame by frame through
ASGI as before. The clients receive the same messages either way (API.md "Live stream")."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterable
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import State

SERVER_SEND = "sejmi.server_send"  # the scope key of the server's own `send` (ServerSend)
# Looked up, not imported: loaded only where uvicorn serves with it (and deprecated in websockets).
UVICORN_WEBSOCKETS = "uvicorn.protocols.websockets.websockets_impl"


def serialised(texts: Iterable[str]) -> bytes:
    """Text frames as they go on the wire from the server (unmasked, no extension)."""
    return b"".join(Frame(Opcode.TEXT, t.encode()).serialize(mask=False) for t in texts)


class ServerSend:
    """ASGI middleware, outermost on the websocket stack: keeps the server's `send` in the scope,
    before the middlewares inside wrap it, so a game socket can find uvicorn's protocol."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        return await self.app({**scope, SERVER_SEND: send}, receive, send)


def protocol_of(scope: dict) -> Any | None:
    """uvicorn's protocol of this socket when serialised frames may be written to it as they
    are: its `websockets` implementation, the handshake done (it negotiates the extensions)
    and no extension taken; None otherwise."""
    protocol = getattr(scope.get(SERVER_SEND), "__self__", None)
    uvicorn_websockets = sys.modules.get(UVICORN_WEBSOCKETS)
    if uvicorn_websockets is None or not isinstance(protocol, uvicorn_websockets.WebSocketProtocol):
        return None
    if not protocol.handshake_completed_event.is_set() or protocol.extensions:
        return None
    return protocol


async def write(protocol: Any, data: bytes) -> bool:
    """Write serialised frames, then wait as the library's send does while the client's buffer
    is full. False, and nothing written, unless the connection is open: the caller then sends
    frame by frame through ASGI and meets the closed socket as it always did."""
    if not _open(protocol):
        return False
    protocol.transport.write(data)
    try:
        await protocol.drain()
    except ConnectionClosed as gone:  # what uvicorn's asgi_send raises for it
        raise ClientDisconnected from gone
    return True


def write_now(protocol: Any, data: bytes) -> bool:
    """Write serialised frames without waiting, when waiting could not be needed: the
    connection open and everything written before taken by the kernel (the transport holds
    nothing). False, and nothing written, otherwise: the caller then writes through `write`,
    which waits for the drain and is timed (games.live.outbox), so a client that stops reading
    is still found."""
    transport = protocol.transport
    if not _open(protocol) or transport.is_closing() or transport.get_write_buffer_size():
        return False
    transport.write(data)
    return True


def _open(protocol: Any) -> bool:
    """The connection accepted and open: frames written now reach the client in turn."""
    accepted = protocol.handshake_completed_event.is_set() and not protocol.closed_event.is_set()
    return accepted and protocol.state is State.OPEN and not protocol.transfer_data_task.done()


async def ping(protocol: Any) -> asyncio.Future | None:
    """A ping; the future of its pong (None if the connection is not open)."""
    if protocol.state is not State.OPEN:
        return None
    try:
        pong = await protocol.ping()
    except ConnectionClosed as gone:
        raise ClientDisconnected from gone
    # A socket closed before its pong fails this future; nobody may await it then, and an
    # unretrieved failure would print a traceback per closed socket at its collection.
    pong.add_done_callback(lambda done: done.cancelled() or done.exception())
    return pong


def fail(protocol: Any, code: int) -> None:
    """Close with `code` without waiting: the close frame goes after what is buffered, and the
    library aborts the transport if the client does not answer within its close timeout."""
    if protocol.state is State.OPEN:
        protocol.fail_connection(code)
