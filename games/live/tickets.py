"""Websocket tickets: a short-lived, single-use secret for opening a socket (`?ticket=`).

A socket's URL (query string and all) ends up in access logs, proxies and browser history, so
it should carry a secret that dies on first use and after TICKET_TTL_S anyway, not the
long-lived API token (`?token=` still works: API.md promises it). Tickets live in the Django
cache, which must be shared by every web worker in production (CACHE_URL, a Redis); only their
SHA-256 is stored, so the cache's contents open no socket. While the cache cannot be reached no
ticket is issued (503 `unavailable` with Retry-After; `?token=` still opens a socket) and none
is redeemed (the socket is closed 1013, Try Again Later, as under overload).
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets

from django.contrib.auth import get_user_model
from django.core.cache import cache

from games.core.errors import ApiError
from games.engine.errors import Code

log = logging.getLogger(__name__)

TICKET_TTL_S = 30


class CacheAway(Exception):
    """A ticket could not be looked up: the cache cannot be reached (not the ticket's fault)."""


TICKET = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)


def _key(ticket: str) -> str:
    return "ws-ticket:" + hashlib.sha256(ticket.encode()).hexdigest()


def ticket_issue(*, user) -> dict:
    """A new ticket for `user` (authenticated), good for one socket within TICKET_TTL_S."""
    ticket = secrets.token_urlsafe(32)
    try:
        cache.set(_key(ticket), user.pk, timeout=TICKET_TTL_S)
    except Exception as err:  # the cache's Redis is away: no ticket, and no 500
        log.warning("no websocket ticket: the cache is unreachable (%s)", err)
        raise ApiError(Code.UNAVAILABLE, "tickets are unavailable for a moment; retry shortly "
                       "(or open the socket with ?token=)") from None  # fmt: skip
    return {"ticket": ticket, "expires_in": TICKET_TTL_S}


def ticket_redeem(ticket: str):
    """The active user the ticket was issued to, once; None for a malformed, unknown, expired
    or already used ticket."""
    if not TICKET.fullmatch(ticket):
        return None
    key = _key(ticket)
    try:
        user_id = cache.get(key)
        if user_id is None or not cache.delete(key):  # of two racing sockets, one deletes it
            return None
    except Exception as err:  # the cache's Redis is away
        raise CacheAway(str(err)) from None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()
