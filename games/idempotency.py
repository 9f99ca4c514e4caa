"""The first answer to a command sent with a key (an Idempotency-Key, or a socket command's id),
stored in the command's transaction; games.services returns it to every retry."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils import timezone

from games.models import IdempotentAnswer

FIELDS = ("user", "game", "key", "request_hash", "answer", "created_at")


def store(*, user, game_id: int, key: str, request_hash: str, answer: dict[str, Any]) -> None:
    """One plain INSERT (the model stays the schema; `objects.create` compiled it anew for
    every command and read back an id nobody uses). IntegrityError if the key was spent."""
    meta = IdempotentAnswer._meta
    values = (user.pk, game_id, key, request_hash, answer, timezone.now())
    fields = [meta.get_field(name) for name in FIELDS]
    params = [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]
    columns = ", ".join(f.column for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {meta.db_table} ({columns})"
                       f" VALUES ({', '.join(['%s'] * len(fields))})", params)  # fmt: skip
