"""Websocket tickets: a short-lived, single-use secret for opening a socket (`?ticket=`).

A socket's URL (query string and all) ends up in access logs, proxies and browser history, so
it should carry a secret that dies on first use and after TICKET_TTL_S anyway, not the
long-lived API token (`?token=` still works: API.md promises it). Tickets live in the Django
cache, which must be shared by every web worker in production (CACHE_URL, a Redis); only their
SHA-256 is stored, so the cache's contents open no socket.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from django.contrib.auth import get_user_model
from django.core.cache import cache

TICKET_TTL_S = 30
TICKET = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)


def _key(ticket: str) -> str:
    return "ws-ticket:" + hashlib.sha256(ticket.encode()).hexdigest()


def ticket_issue(*, user) -> dict:
    """A new ticket for `user` (authenticated), good for one socket within TICKET_TTL_S."""
    ticket = secrets.token_urlsafe(32)
    cache.set(_key(ticket), user.pk, timeout=TICKET_TTL_S)
    return {"ticket": ticket, "expires_in": TICKET_TTL_S}


def ticket_redeem(ticket: str):
    """The active user the ticket was issued to, once; None for a malformed, unknown, expired
    or already used ticket."""
    if not TICKET.fullmatch(ticket):
        return None
    key = _key(ticket)
    user_id = cache.get(key)
    if user_id is None or not cache.delete(key):  # of two racing sockets, one deletes it
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()
