"""The first answer to a command sent with a key (an Idempotency-Key, or a socket command's id),
stored in the command's transaction; games.table.commands returns it to every retry."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.core import plain_sql
from games.core.models import IdempotentAnswer

FIELDS = ("user", "game", "key", "request_hash", "answer", "created_at")


def store(*, user, game_id: int, key: str, request_hash: str, answer: dict[str, Any]) -> None:
    """One plain INSERT (`objects.create` compiled it anew for every command and read back an
    id nobody uses). IntegrityError if the key was spent."""
    plain_sql.insert(IdempotentAnswer, FIELDS,
                     [(user.pk, game_id, key, request_hash, answer, timezone.now())])  # fmt: skip
