"""A command frame's answer (API.md, "Commands over the socket"): the REST command's service
call in a thread of the socket's pool (games.live.socket_db), with the frame's id as its
Idempotency-Key; `{"type": "ack", "id", "seq"}` once it committed, or `{"type": "error", "id",
"error"}` with the REST codes. The answer takes its place in the socket's outbox before the
call starts, so what the command commits reaches this socket after its ack
(docs/LIVE_STREAM.md), as frames queued before it go before it.

The ack is answered at COMMIT (games.table.commands' `landed`), while the command's thread goes
on with what follows it: the broadcast, the next deadline and the followers' wake-up, a Redis
round trip each (issue 31). The socket's next frame still waits for the whole call."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from django.db import DatabaseError

from games.core.db_health import database_away, forget_dead_connections, pool_exhausted
from games.core.errors import ApiError
from games.engine.errors import Code
from games.live.frames import frame_text
from games.live.incoming import SocketCommand
from games.live.outbox import Outbox
from games.live.socket_db import socket_db
from games.table import commands, selectors


class Asker(Protocol):
    """What a command's answer needs of its socket (games.live.consumer.GameConsumer)."""

    user: Any
    game_id: int
    outbox: Outbox

    async def send(self, text_data=None, bytes_data=None, close=False) -> None: ...


async def answer(sock: Asker, request: SocketCommand) -> None:
    """Run `request` and send its answer in the outbox's order (the ack as soon as the command
    committed). Raises what the call raised beyond the answers: the socket ends with it."""
    loop = asyncio.get_running_loop()
    reply: asyncio.Future[dict[str, Any]] = loop.create_future()

    def settle(payload: dict[str, Any]) -> None:
        if not reply.done():
            reply.set_result(payload)

    def landed(seq: int) -> None:  # in the command's thread, right after COMMIT
        loop.call_soon_threadsafe(settle, _ack(request, seq))

    async def send_reply() -> None:
        await sock.send(text_data=frame_text(await reply))

    sock.outbox.later(send_reply)
    try:
        settle(await socket_db(_command)(sock.user, sock.game_id, request, landed))
    except asyncio.CancelledError:
        reply.cancel()  # the socket ends: so does the answer's turn
        raise
    except Exception as err:
        if not reply.done():
            reply.set_exception(err)  # the socket ends with it, as its handler did
        raise


def _command(user, game_id: int, request: SocketCommand,
             landed: Callable[[int], None]) -> dict[str, Any]:  # fmt: skip
    """The service call and its answer; the events and view it commits reach every socket
    (this one too) through the hub, as any other command's do."""
    try:
        if not getattr(user, "is_authenticated", False):
            raise ApiError(Code.FORBIDDEN, "sign in and take a seat to send commands")
        answer = commands.game_command(user=user, game_id=game_id, body=request.body,
                                       key=request.id, view=False, landed=landed)  # fmt: skip
    except DatabaseError as err:  # overloaded (games.live.guard) or the database lost: the
        if pool_exhausted(err):  # socket stays, and the client sends the same id again later
            message = "the service is busy; retry shortly"
        elif database_away(err):
            forget_dead_connections()
            message = "the database is unreachable; retry shortly"
        else:
            raise
        return {"type": "error", "id": request.id, **ApiError(Code.UNAVAILABLE, message).body()}
    except ApiError as err:
        spectator = err.code is Code.NOT_YOUR_TURN and selectors.seat_in(game_id, user) is None
        if spectator:
            err = ApiError(Code.FORBIDDEN, "spectators cannot send commands")
        return {"type": "error", "id": request.id, **err.body()}
    return _ack(request, answer["seq"])


def _ack(request: SocketCommand, seq: int) -> dict[str, Any]:
    return {"type": "ack", "id": request.id, "seq": seq}  # the seq alone: no view
