"""The reads that may lag: a view, or a part of one, run with replicas allowed.

Under `read_lagging` the request's reads go to one replica judged fresh (the same one for the
whole read, so it never sees the past after the present), until it writes or opens a
transaction: from there on the primary. A replica may only say yes: if its read fails (the
replica died mid-request, a query cancelled by replay) or answers "no such thing" (an ApiError,
a 404: the replica may not have it yet), the whole read runs again on the primary, whose
answer stands. Reads only: a view that writes must not be run twice.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import Http404

from games.core.errors import ApiError
from games.core.replicas import health

log = logging.getLogger(__name__)
T = TypeVar("T")

# A replica's "no" is asked again of the primary; its failure too.
ASK_THE_PRIMARY = (DatabaseError, ApiError, Http404, ObjectDoesNotExist)


@dataclass
class _Lagging:
    """One read allowed to lag: the replica it uses (picked at its first query)."""

    replica: str | None = None
    picked: bool = False
    served: bool = False  # the replica has been handed a query
    on_primary: bool = False  # it wrote, or no replica was fresh: the rest on the primary


_LAGGING: ContextVar[_Lagging | None] = ContextVar("sejmi_lagging_read", default=None)


def configured() -> bool:
    return bool(settings.DATABASE_REPLICAS)


def read_lagging(read: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`read(*args, **kwargs)` with its reads on a fresh replica, if any (see the module)."""
    if not configured() or _LAGGING.get() is not None:
        return read(*args, **kwargs)
    lagging = _Lagging()
    token = _LAGGING.set(lagging)
    try:
        return read(*args, **kwargs)
    except ASK_THE_PRIMARY as error:
        if not lagging.served:
            raise
        if isinstance(error, DatabaseError):
            health.mark_down(lagging.replica, error)
    finally:
        _LAGGING.reset(token)
    return read(*args, **kwargs)  # the primary's answer stands


def lagging_reads_ok(view: Callable[..., T]) -> Callable[..., T]:
    """Decorate a view (a function of the request, or an APIView's handler) whose every read
    may lag. Who is asking is read first, on the primary: a session or token made a moment
    ago must count (read-your-writes)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        for arg in args[:2]:  # (request, ...) or (self, request, ...)
            if hasattr(arg, "user") and hasattr(arg, "method"):
                arg.user.is_authenticated  # noqa: B018 -- resolves the lazy user here
        return read_lagging(view, *args, **kwargs)

    return wrapper


def replica_for_read() -> str | None:
    """The router's question: the replica this read goes to, or None (the primary)."""
    lagging = _LAGGING.get()
    if lagging is None or lagging.on_primary:
        return None
    if connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return None  # a transaction reads what it writes
    if not lagging.picked:
        lagging.replica, lagging.picked = health.pick(), True
        lagging.on_primary = lagging.replica is None
    if lagging.replica is not None:
        lagging.served = True
    return lagging.replica


def noted_write() -> None:
    """The router saw a write: the rest of this read reads it on the primary."""
    lagging = _LAGGING.get()
    if lagging is not None:
        lagging.on_primary = True
