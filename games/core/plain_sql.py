"""Plain SQL for the statements of the command path (the models stay the schema). The ORM
compiles each query anew for every command; on the hot path that compiling, not PostgreSQL,
was most of a statement's cost (bench-load profiles, docs/PERFORMANCE.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection, transaction
from django.db.models import DateTimeField, JSONField, Model


def insert(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]], *,
           returning: str | Sequence[str] | None = None,
           ignore_conflicts: bool = False) -> list[Any]:  # fmt: skip
    """One multi-row INSERT of `rows` (values in the order of `fields`: foreign keys as ids,
    datetimes aware); returns the `returning` field's values, in the rows' order (a tuple of
    values per row when `returning` names several fields). `ignore_conflicts`: a row that
    breaks a unique constraint is left out (ON CONFLICT DO NOTHING; then what is returned is
    the rows inserted only). Without `returning`, in a command's transaction it is sent with
    the other writes (`command_transaction`)."""
    rows = list(rows)
    if not rows:
        return []
    sql, params = _insert_sql(model, fields, rows)
    if ignore_conflicts:
        sql += " ON CONFLICT DO NOTHING"
    if returning is None and _defer(sql, params):  # sent with the command's other writes
        return []
    if returning is not None:
        names = [returning] if isinstance(returning, str) else list(returning)
        columns = ", ".join(model._meta.get_field(name).column for name in names)
        sql += f" RETURNING {columns}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if returning is None:
            return []
        found = cursor.fetchall()
        return [row[0] for row in found] if isinstance(returning, str) else list(found)


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
    would give (JSON parsed, SQLite's datetimes aware): each column through its converters.
    Made once per model and fields (making it, a field lookup and its converters, was 6 % of
    a socket command's CPU in the web: issue 31's py-spy)."""
    return _reader(model, tuple(fields))


@cache
def _reader(model: type[Model], fields: tuple[str, ...]) -> Callable[[tuple], tuple]:
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
    """Run an UPDATE or DELETE; how many rows it changed. `wait=False`: the caller knows (it
    holds the rows' locks), so in a command's transaction the statement is sent with the
    other writes (`command_transaction`): None."""
    if not wait and _defer(sql, params):
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


# --- a command in two round trips ---------------------------------------------------------
# A command's transaction on PostgreSQL waits twice: BEGIN with the reads (`together`: one
# message of several statements, run by the server in order, each with its own snapshot, so a
# read after the lock sees what the last command on the game committed; psycopg would send
# BEGIN alone first, a third wait), and the writes with COMMIT (one message: the writes, whose
# results nobody reads, merged into one statement where they can be, then COMMIT). Several
# statements go in one message through a client-side-binding cursor (the simple query
# protocol); the service's own cursors bind on the server. SQLite (`make run`) runs the same
# statements one by one.


@dataclass(frozen=True)
class Read:
    """A read to send with others (`together`): its SQL, parameters, and what turns its rows
    into the value the caller wants."""

    sql: str
    params: Sequence[Any]
    then: Callable[[list[tuple]], Any] = list


def together(*reads: Read) -> list[Any]:
    """Send every read, then read each result: one round trip on PostgreSQL (with the
    transaction's BEGIN when they are its first statements), one per read elsewhere. Later
    reads see what earlier ones locked (the server runs them in order)."""
    if connection.vendor != "postgresql" or len(reads) == 1:
        out = []
        for read in reads:
            with connection.cursor() as cursor:
                cursor.execute(read.sql, read.params)
                out.append(read.then(cursor.fetchall()))
        return out
    with _several() as cursor, _begin_sent_with(cursor.cursor.connection) as begin:
        cursor.execute(begin + "; ".join(read.sql for read in reads),
                       [p for read in reads for p in read.params])  # fmt: skip
        if begin:
            cursor.cursor.nextset()  # past BEGIN's result, which has no rows
        out = [reads[0].then(cursor.fetchall())]
        for read in reads[1:]:
            cursor.cursor.nextset()
            out.append(read.then(cursor.fetchall()))
        return out


@contextmanager
def _begin_sent_with(raw: Any) -> Iterator[str]:
    """psycopg sends a transaction's BEGIN alone, a round trip of its own, before the first
    statement (issue 31: 0.2 ms of a command's ~2.3 ms floor). When the statements about to go
    are the transaction's first, yields "BEGIN; " to send in their message, with psycopg told
    not to send its own for as long (its autocommit flag, private: a public setter refuses
    while a transaction is open); else "". Only the plain BEGIN psycopg would send, so never
    with an isolation level, read-only or deferrable set on the connection."""
    from psycopg.pq import TransactionStatus

    fresh = (
        connection.in_atomic_block
        and not raw.autocommit
        and raw.info.transaction_status == TransactionStatus.IDLE
        and raw.isolation_level is None
        and raw.read_only is None
        and raw.deferrable is None
    )
    if not fresh:
        yield ""
        return
    raw._autocommit = True
    try:
        yield "BEGIN; "
    finally:
        raw._autocommit = False


@contextmanager
def command_transaction() -> Iterator[Callable[[], None]]:
    """A transaction whose plain writes (`insert`, `changed(wait=False)`) wait and travel
    together: with COMMIT in one message at its end, when it is the outermost transaction,
    else at its end or when another statement runs (the order of statements is kept). Yields
    `sync`: send the writes waiting now (at the end of a savepoint that must catch their
    errors). Errors come out as Django's (IntegrityError for a spent unique key)."""
    if connection.vendor != "postgresql":
        with transaction.atomic():
            yield lambda: None
        return
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        outer, _state.deferred = getattr(_state, "deferred", None), []
        try:
            with connection.execute_wrapper(_writes_first):
                yield _flush
                _flush(commit=outermost)
        finally:
            _state.deferred = outer


_state = threading.local()  # the command's writes not sent yet; whether they are being sent


def _defer(sql: str, params: Sequence[Any]) -> bool:
    deferred = getattr(_state, "deferred", None)
    if deferred is None:
        return False
    deferred.append((sql, list(params)))
    return True


def _writes_first(execute, sql, params, many, context):
    """Any other statement of the transaction runs after the writes made before it."""
    if not getattr(_state, "sending", False):
        _flush()
    return execute(sql, params, many, context)


def _flush(commit: bool = False) -> None:
    """Send the writes waiting (and COMMIT: Django's commit then finds the transaction over
    and sends nothing; its on-commit callbacks run as usual)."""
    writes, _state.deferred = _state.deferred, []
    statements = merged(writes)
    if commit:
        statements.append(("COMMIT", []))
    if not statements:
        return
    _state.sending = True
    try:
        with _several() as cursor:
            cursor.execute("; ".join(sql for sql, _ in statements),
                           [p for _, params in statements for p in params])  # fmt: skip
    finally:
        _state.sending = False


def merged(writes: list[tuple[str, list]]) -> list[tuple[str, list]]:
    """The writes as few statements as PostgreSQL allows: INSERT, UPDATE and DELETE chained as
    data-modifying CTEs (`WITH w0 AS (…), w1 AS (…) …`: one statement, one snapshot), a new
    statement where a write would touch a table an UPDATE or DELETE of the chain touches (two
    changes of one row in one statement are not both applied)."""
    out: list[tuple[str, list]] = []
    chain: list[tuple[str, list]] = []
    changed_tables: set[str] = set()

    def close() -> None:
        if not chain:
            return
        *first, (last_sql, last_params) = chain
        if first:
            ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
            out.append((f"WITH {ctes} {last_sql}",
                        [p for _, params in first for p in params] + last_params))  # fmt: skip
        else:
            out.append((last_sql, last_params))
        chain.clear()
        changed_tables.clear()

    for sql, params in writes:
        verb, table = _target(sql)
        if table in changed_tables or (verb != "INSERT" and any(
                _target(s)[1] == table for s, _ in chain)):  # fmt: skip
            close()
        chain.append((sql, params))
        if verb != "INSERT":
            changed_tables.add(table)
    close()
    return out


def _target(sql: str) -> tuple[str, str]:
    """(INSERT | UPDATE | DELETE, the table) of a plain write."""
    words = sql.split(None, 3)
    verb = words[0].upper()
    return verb, (words[1] if verb == "UPDATE" else words[2])


@contextmanager
def _several() -> Iterator[Any]:
    """A cursor that sends several statements in one message: psycopg's client-side binding,
    wrapped as Django wraps its own (logged, execute wrappers, errors as Django's)."""
    import psycopg

    connection.ensure_connection()
    cursor = connection._prepare_cursor(psycopg.ClientCursor(connection.connection))
    try:
        yield cursor
    finally:
        cursor.close()
