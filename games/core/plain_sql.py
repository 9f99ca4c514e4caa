"""Plain SQL for the statements of the command path (the models stay the schema). The ORM
compiles each query anew for every command; on the hot path that compiling, not PostgreSQL,
was most of a statement's cost (bench-load profiles, docs/PERFORMANCE.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
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
    sql, params = _insert_sql(model, fields, rows)
    if returning is not None:
        sql += f" RETURNING {model._meta.get_field(returning).column}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()] if returning is not None else []


def _insert_sql(model: type[Model], fields: Sequence[str],
                rows: Sequence[Sequence[Any]]) -> tuple[str, list[Any]]:  # fmt: skip
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
    return sql, params


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


def for_update(of: str | None = None) -> str:
    """` FOR UPDATE [OF of]` where the database has it (SQLite, `make run`: nothing)."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    return f" FOR UPDATE OF {of}" if of and features.has_select_for_update_of else " FOR UPDATE"


def rows(sql: str, params: Sequence[Any]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def changed(sql: str, params: Sequence[Any], *, wait: bool = True) -> int | None:
    """Run an UPDATE or DELETE; how many rows it changed. `wait=False`: the caller knows
    (it holds the rows' locks), so in a pipeline the statement need not wait: None."""
    _state.uncounted = not wait
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount if wait or not _in_pipeline() else None
    finally:
        _state.uncounted = False


# --- fewer round trips (issue 19) ---------------------------------------------------------
# A command's transaction used to wait for the server after each of its ~11 statements. On
# PostgreSQL psycopg's pipeline mode sends a statement at once and waits only where a result
# is read: the command path reads what it may need in one round trip (`together`), and its
# writes, whose results nobody reads before COMMIT, travel in the round trip that ends the
# pipeline (`pipeline`). SQLite (`make run`) runs the same statements one by one.


@contextmanager
def pipeline() -> Iterator[Callable[[], None]]:
    """Inside a transaction: statements are sent as they are made and only a read of a result
    waits. Yields `sync`: send what is queued and wait for it, so a queued write's error
    surfaces there (at the end of a savepoint that must catch it); the pipeline's end syncs
    too. Errors come out as Django's (IntegrityError for a spent unique key). An UPDATE or
    DELETE waits for its row count (the ORM's `update()` and `save()` read it), unless sent
    by `changed(..., wait=False)`."""
    if connection.vendor != "postgresql":
        yield lambda: None
        return
    connection.ensure_connection()
    with (connection.wrap_database_errors, connection.connection.pipeline() as pipe,
          connection.execute_wrapper(_counted)):  # fmt: skip

        def sync() -> None:
            with connection.wrap_database_errors:
                pipe.sync()

        outer, _state.sync = getattr(_state, "sync", None), sync
        try:
            yield sync
        finally:
            _state.sync = outer


_state = threading.local()  # the pipeline's sync, and whether a statement needs no count


def _counted(execute, sql, params, many, context):
    """In a pipeline, an UPDATE or DELETE waits for its result: its caller reads the count."""
    done = execute(sql, params, many, context)
    if not getattr(_state, "uncounted", False) and sql.lstrip()[:6].upper() in _COUNTED:
        _state.sync()
    return done


_COUNTED = ("UPDATE", "DELETE")


@dataclass(frozen=True)
class Read:
    """A read to send with others (`together`): its SQL, parameters, and what turns its rows
    into the value the caller wants."""

    sql: str
    params: Sequence[Any]
    then: Callable[[list[tuple]], Any] = list


def together(*reads: Read) -> list[Any]:
    """Send every read, then read each result: one round trip in a pipeline, one per read
    elsewhere. Later reads see what earlier ones locked (the server runs them in order)."""
    cursors = []
    try:
        for read in reads:
            cursor = connection.cursor()
            cursors.append(cursor)
            cursor.execute(read.sql, read.params)
        return [read.then(cursor.fetchall()) for read, cursor in zip(reads, cursors, strict=True)]
    finally:
        for cursor in cursors:
            cursor.close()


def insert_later(model: type[Model], fields: Sequence[str], rows: Sequence[Sequence[Any]], *,
                 returning: str) -> Callable[[], list[Any]]:  # fmt: skip
    """`insert` whose RETURNING values are read when first asked for (after COMMIT, for rows
    pushed then): in a pipeline the statement travels with the other writes instead of
    waiting on its own. Elsewhere they are read at once."""
    if not rows:
        return list
    cursor = connection.cursor()
    sql, params = _insert_sql(model, fields, rows)
    cursor.execute(f"{sql} RETURNING {model._meta.get_field(returning).column}", params)
    if not _in_pipeline():
        values = [row[0] for row in cursor.fetchall()]
        cursor.close()
        return lambda: values
    got: list[list[Any]] = []

    def values() -> list[Any]:
        if not got:
            got.append([row[0] for row in cursor.fetchall()])
            cursor.close()
        return got[0]

    return values


def _in_pipeline() -> bool:
    return connection.vendor == "postgresql" and bool(connection.connection.pgconn.pipeline_status)
