"""Websockets under overload: when no PostgreSQL connection comes free within the pool's
timeout (settings: SEJMI_DB_POOL_*) while a socket connects, authenticates, resyncs or heals a
gap, the socket is closed with 1013 (RFC 6455, Try Again Later); its client reconnects with
back-off and resyncs from its last seq (docs/LIVE_STREAM.md), so nothing is lost. Without this
the consumer died with a traceback and the handshake got an HTTP 500. One log line per socket,
not a traceback: under overload, formatting tracebacks cost more CPU than the requests did.
(A command over the socket is answered `unavailable` instead: games.live.consumer.) The same
close answers a database that was lost under the socket (a primary that died, a failover under
way: games.core.db_health.database_away), a ticket that cannot be looked up while the
cache's Redis is away, and a channel layer whose Redis cannot be reached (issue 32: its
`new_channel` / `group_add` raised ConnectionError, and the handshake answered HTTP 500)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.core.db_health import database_away, database_unavailable
from games.live.tickets import CacheAway

log = logging.getLogger(__name__)

TRY_AGAIN_LATER = 1013


class OverloadGuard:
    """ASGI middleware around the websocket stack (the token lookup included)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def tracked(message):
            nonlocal accepted
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        try:
            return await self.app(scope, receive, tracked)
        except (DatabaseError, CacheAway, RedisConnectionError, RedisTimeoutError) as err:
            if isinstance(err, DatabaseError) and not database_unavailable(err):
                raise
            what = _what(err)
            log.warning("%s: socket %s closed 1013", what, scope.get("path"))
            if not accepted:  # a close before the handshake reaches the client as HTTP 403
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})


def _what(err: Exception) -> str:
    if isinstance(err, CacheAway):
        return "ticket cache unreachable"
    if isinstance(err, RedisConnectionError | RedisTimeoutError):
        return "channel layer's Redis unreachable"
    return "database unreachable" if database_away(err) else "database pool exhausted"


TOO_MANY = 4429  # a socket past the user's cap (API.md, Conventions: `too_many`)


class SocketCap:
    """ASGI middleware inside the auth stack: at most SEJMI_SOCKETS_PER_USER open sockets per
    signed-in user in this process (issue 32: 600 sockets on one token held 18.8 MB). One more
    is accepted and closed 4429 (a close before the handshake would reach the client as an
    HTTP 403); a socket's place is freed when it ends, however it ends. Per process, exact and
    with nothing to leak: with N web processes a user holds at most N × the cap."""

    def __init__(self, app) -> None:
        self.app = app
        self.open: dict[int, int] = {}

    async def __call__(self, scope, receive, send):
        user = scope.get("user")
        uid = user.pk if user is not None and user.is_authenticated else None
        if uid is None:
            return await self.app(scope, receive, send)
        if self.open.get(uid, 0) >= settings.SEJMI_SOCKETS_PER_USER:
            log.warning("user %s past %s sockets: socket %s closed %s", uid,
                        settings.SEJMI_SOCKETS_PER_USER, scope.get("path"), TOO_MANY)  # fmt: skip
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TOO_MANY})
            return None
        self.open[uid] = self.open.get(uid, 0) + 1
        try:
            return await self.app(scope, receive, send)
        finally:
            left = self.open[uid] - 1
            if left:
                self.open[uid] = left
            else:
                del self.open[uid]
