"""Websockets under overload: when no PostgreSQL connection comes free within the pool's
timeout (settings: SEJMI_DB_POOL_*) while a socket connects, authenticates, resyncs or heals a
gap, the socket is closed with 1013 (RFC 6455, Try Again Later); its client reconnects with
back-off and resyncs from its last seq (docs/LIVE_STREAM.md), so nothing is lost. Without this
the consumer died with a traceback and the handshake got an HTTP 500. One log line per socket,
not a traceback: under overload, formatting tracebacks cost more CPU than the requests did.
(A command over the socket is answered `unavailable` instead: games.live.consumer.) The same
close answers a database that was lost under the socket (a primary that died, a failover under
way: games.core.db_health.database_away), and a ticket that cannot be looked up while the
cache's Redis is away."""

from __future__ import annotations

import logging

from django.db import DatabaseError

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
        except (DatabaseError, CacheAway) as err:
            if isinstance(err, DatabaseError) and not database_unavailable(err):
                raise
            away = isinstance(err, CacheAway)
            what = ("ticket cache unreachable" if away else "database unreachable"
                    if database_away(err) else "database pool exhausted")  # fmt: skip
            log.warning("%s: socket %s closed 1013", what, scope.get("path"))
            if not accepted:  # a close before the handshake reaches the client as HTTP 403
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
