"""Plain SQL for the statements of the command path (the models stay the schema). The ORM
compiles each query anew for every command; on the hot path that compiling, not PostgreSQL,
was most of a statement's cost (bench-load profiles, docs/PERFORMANCE.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import JSONField, Model


def insert(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]], *,
           returning: str | None = None) -> list[Any]:  # fmt: skip
    """One multi-row INSERT of `rows` (values in the order of `fields`: foreign keys as ids,
    datetimes aware); returns the `returning` field's values, in the rows' order."""
    rows = list(rows)
    if not rows:
        return []
    meta = model._meta
    prepared = [meta.get_field(name) for name in fields]
    # The driver adapts numbers, text, booleans and aware datetimes itself; a JSON value is
    # encoded as its field does (get_db_prep_save for every value was a third of the cost).
    json = {i: f.encoder for i, f in enumerate(prepared) if isinstance(f, JSONField)}
    params = [connection.ops.adapt_json_value(value, json[i]) if i in json else value
              for row in rows for i, value in enumerate(row)]  # fmt: skip
    one = f"({', '.join(['%s'] * len(prepared))})"
    sql = (f"INSERT INTO {meta.db_table} ({', '.join(f.column for f in prepared)})"
           f" VALUES {', '.join([one] * len(rows))}")  # fmt: skip
    if returning is not None:
        sql += f" RETURNING {meta.get_field(returning).column}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()] if returning is not None else []


def marks(values: Sequence[Any]) -> str:
    """`%s, %s, …` for an IN list (`= ANY(%s)` is PostgreSQL's alone; `make run` is SQLite)."""
    return ", ".join(["%s"] * len(values))


def rows(sql: str, params: Sequence[Any]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def changed(sql: str, params: Sequence[Any]) -> int:
    """Run an UPDATE or DELETE; how many rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
