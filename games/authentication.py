"""DRF's token authentication without a query per request: each web process remembers a
token's user for TOKEN_MEMORY_S (issue 11: the token lookup was a fixed cost of every move).

A token deleted, or a user saved (deactivated, say), is forgotten at once in the process that
did it (signals below); other processes notice within TOKEN_MEMORY_S. The README says so."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

TOKEN_MEMORY_S = 30.0
MAX_REMEMBERED = 20_000  # tokens per process; past it the memory starts afresh

_remembered: dict[str, tuple[tuple[Any, Token], float]] = {}


class RememberedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        now = time.monotonic()
        hit = _remembered.get(key)
        if hit is not None and hit[1] > now:
            return hit[0]
        answer = super().authenticate_credentials(key)  # raises for unknown or inactive
        if len(_remembered) >= MAX_REMEMBERED:
            _remembered.clear()
        _remembered[key] = (answer, now + TOKEN_MEMORY_S)
        return answer


def forget(*, key: str | None = None, user_id: int | None = None) -> None:
    if key is not None:
        _remembered.pop(key, None)
    if user_id is not None:
        for k in [k for k, ((user, _), _) in _remembered.items() if user.pk == user_id]:
            _remembered.pop(k, None)


@receiver(post_delete, sender=Token)
def _token_deleted(sender, instance: Token, **kwargs) -> None:
    forget(key=instance.key)


@receiver(post_save, sender=get_user_model())
def _user_saved(sender, instance, **kwargs) -> None:
    forget(user_id=instance.pk)
