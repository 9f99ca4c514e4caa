"""Plain SQL for the statements of the command path (the models stay the schema). The ORM
compiles each query anew for every command; on the hot path that compiling, not PostgreSQL,
was most of a statement's cost (bench-load profiles, docs/PERFORMANCE.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, JSONField, Model


def insert(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]], *,
           returning: str | None = None) -> list[Any]:  # fmt: skip
    """One multi-row INSERT of `rows` (values in the order of `fields`: foreign keys as ids,
    datetimes aware); returns the `returning` field's values, in the rows' order."""
    rows = list(rows)
    if not rows:
        return []
    meta = model._meta
    prepared = [meta.get_field(name) for name in fields]
    # The driver adapts numbers, text and booleans itself; JSON and datetimes are adapted as
    # their fields do (SQLite stores datetimes as naive UTC text), and nothing else:
    # get_db_prep_save for every value was a third of the cost.
    adapt = {i: _adapter(f) for i, f in enumerate(prepared)
             if isinstance(f, JSONField | DateTimeField)}  # fmt: skip
    params = [adapt[i](value) if i in adapt else value
              for row in rows for i, value in enumerate(row)]  # fmt: skip
    one = f"({', '.join(['%s'] * len(prepared))})"
    sql = (f"INSERT INTO {meta.db_table} ({', '.join(f.column for f in prepared)})"
           f" VALUES {', '.join([one] * len(rows))}")  # fmt: skip
    if returning is not None:
        sql += f" RETURNING {meta.get_field(returning).column}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()] if returning is not None else []


def _adapter(field: JSONField | DateTimeField) -> Callable[[Any], Any]:
    if isinstance(field, JSONField):
        return lambda value: connection.ops.adapt_json_value(value, field.encoder)
    return connection.ops.adapt_datetimefield_value


def marks(values: Sequence[Any]) -> str:
    """`%s, %s, …` for an IN list (`= ANY(%s)` is PostgreSQL's alone; `make run` is SQLite)."""
    return ", ".join(["%s"] * len(values))


def reader(model: type[Model], fields: Sequence[str]) -> Callable[[tuple], tuple]:
    """Turns a row of these fields' columns, as `rows` returns it, into the values the ORM
    would give (JSON parsed, SQLite's datetimes aware): each column through its converters."""
    meta, steps = model._meta, []
    for name in fields:
        field = meta.get_field(name)
        col = field.get_col(meta.db_table)
        converters = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        steps.append((col, converters))

    def read(row: tuple) -> tuple:
        out = []
        for value, (col, converters) in zip(row, steps, strict=True):
            for convert in converters:
                value = convert(value, col, connection)
            out.append(value)
        return tuple(out)

    return read


def rows(sql: str, params: Sequence[Any]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def changed(sql: str, params: Sequence[Any]) -> int:
    """Run an UPDATE or DELETE; how many rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
