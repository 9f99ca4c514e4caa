"""Who an API token names (`Authorization: Token …`, a socket's `?token=`): one plain statement
per request, the token and its user together. DRF's TokenAuthentication compiled the same ORM
query anew at every request (two thirds of its cost: issue 31's py-spy of `make run`). Nothing
is remembered between requests: a revoked token stops at once (docs/CHOICES.md, the lean write
path)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from games.core import plain_sql


def user_for_key(key: str) -> tuple[Any, Token] | None:
    """The token `key` and its user (whether active or not), or None for no such token."""
    alias = router.db_for_read(Token)  # the primary's: a token made a moment ago counts
    with connections[alias].cursor() as cursor:
        cursor.execute(_sql(), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    model, (created, *values) = get_user_model(), row
    fields = model._meta.concrete_fields
    read_user = plain_sql.reader(model, [f.name for f in fields])
    # Rows of `alias`, as the ORM makes them (`from_db`): linking them asks the router nothing.
    user = model.from_db(alias, [f.attname for f in fields], read_user(tuple(values)))
    (created,) = plain_sql.reader(Token, ["created"])((created,))
    token = Token.from_db(alias, ["key", "user_id", "created"], [key, user.pk, created])
    token.user = user
    return user, token


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's, with the token and its user read by `user_for_key` (the same answers)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = user_for_key(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, token = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token


@cache
def _sql() -> str:
    user, token = get_user_model()._meta, Token._meta
    columns = ", ".join(f"u.{f.column}" for f in user.concrete_fields)
    return (f"SELECT t.{token.get_field('created').column}, {columns}"
            f" FROM {token.db_table} t JOIN {user.db_table} u"
            f" ON u.{user.pk.column} = t.{token.get_field('user').column}"
            f" WHERE t.{token.pk.column} = %s")  # fmt: skip
