"""Websocket auth: a single-use `?ticket=` (games/live/tickets.py, the recommended way), a DRF
token as `?token=` or an `Authorization: Token` header, or the session (AuthMiddlewareStack).
A ticket or token that does not open the socket for a user connects it as a spectator."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from django.contrib.auth.models import AnonymousUser

from games.accounts import tokens
from games.live.socket_db import socket_db
from games.live.tickets import ticket_redeem

TOKEN = re.compile(r"[0-9a-f]{40}")


@socket_db
def _user_for_token(key: str):
    found = tokens.user_for_key(key)
    return found[0] if found and found[0].is_active else None


class TokenAuthMiddleware:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if query.get("ticket"):
            user = await socket_db(ticket_redeem)(query["ticket"][0])
            scope = dict(scope, user=user or AnonymousUser())
        elif key := _token_from(scope, query):
            scope = dict(scope, user=await _user_for_token(key) or AnonymousUser())
        return await self.app(scope, receive, send)


def _token_from(scope, query: dict[str, list[str]]) -> str | None:
    """A well-formed DRF token (40 hex digits) or None; anything else is a spectator."""
    key = query["token"][0] if query.get("token") else None
    for name, value in scope.get("headers", []):
        if key is None and name == b"authorization" and value.lower().startswith(b"token "):
            key = value[6:].decode("latin-1").strip()
    return key if key and TOKEN.fullmatch(key) else None


def TokenAuthMiddlewareStack(app):  # noqa: N802 (named like Channels' stacks)
    return AuthMiddlewareStack(TokenAuthMiddleware(app))
