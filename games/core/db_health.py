"""Whether a database error means the database is away or overloaded, not a bug: the REST
handlers answer such a request 503 `unavailable` (games.api.handlers), and the sockets close
1013 or answer their command `unavailable` (games.live): both ask the same functions here."""

from __future__ import annotations

import psycopg
from django.db import connection
from psycopg_pool import PoolTimeout, TooManyRequests


def pool_exhausted(exc: BaseException | None) -> bool:
    """psycopg_pool's PoolTimeout or TooManyRequests, however Django wrapped it."""
    for _ in range(8):  # a short chain; never loop on a cycle
        if exc is None:
            return False
        if isinstance(exc, PoolTimeout | TooManyRequests):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


# A server going or gone: admin_shutdown (its postmaster died, or it is being stopped),
# crash_shutdown, cannot_connect_now; and class 08, connection exceptions. psycopg's own
# "server closed the connection unexpectedly" / "the connection is lost" carry no SQLSTATE.
AWAY_SQLSTATES = frozenset({"57P01", "57P02", "57P03"})


def database_away(exc: BaseException | None) -> bool:
    """The connection to PostgreSQL was lost or refused under the request: a primary that
    died, or a failover under way (docs/RELIABILITY.md, "Failover drill"). The client was
    told of no commit, so it is the overload's answer: come back with the same key (a commit
    that did happen answers the retry with its stored answer)."""
    for _ in range(8):
        if exc is None:
            return False
        if isinstance(exc, psycopg.OperationalError):
            state = exc.sqlstate
            return state is None or state in AWAY_SQLSTATES or state.startswith("08")
        exc = exc.__cause__ or exc.__context__
    return False


def database_unavailable(exc: BaseException | None) -> bool:
    """No database to serve the request now (pool exhausted, or the server lost)."""
    return pool_exhausted(exc) or database_away(exc)


def forget_dead_connections() -> None:
    """After a lost connection, check this process's idle pooled connections and drop the dead
    ones (one empty query each): they lead to the same dead server, and each would fail one
    more request. (A check on every checkout would cost every request a round trip.)"""
    pool = getattr(connection, "pool", None)
    if pool is not None:
        try:
            pool.check()
        except psycopg.Error:
            pass
