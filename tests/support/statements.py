"""What a call sends to PostgreSQL, counted as the server counts it: statements, and round trips."""

from __future__ import annotations

import tempfile

import sqlparse
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg import pq


def statements(call) -> list[str]:
    """The SQL statements `call` sends, a message of several counted statement by statement."""
    with CaptureQueriesContext(connection) as captured:
        call()
    sent = [str(s).strip().rstrip(";") for q in captured.captured_queries
            for s in sqlparse.split(q["sql"]) if s.strip()]  # fmt: skip
    # Django logs its own BEGIN and COMMIT. Its COMMIT finds the transaction already committed
    # by the writes' message and sends nothing; its BEGIN is not sent alone when the reads'
    # message carries it (games.core.plain_sql.together). round_trips counts what is sent.
    return [s for i, s in enumerate(sent)
            if not (s in ("BEGIN", "COMMIT") and sent[i - 1 : i] == [s])]  # fmt: skip


def round_trips(call) -> int:
    """How many times this process's connection waited for PostgreSQL during `call`: the turns
    from the client's messages to the server's in libpq's protocol trace."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            call()
        finally:
            pgconn.untrace()
        trace.seek(0)
        sides = [line[0] for line in trace.read().splitlines() if line[:1] in ("F", "B")]
    return sum(1 for a, b in zip(sides, sides[1:], strict=False) if (a, b) == ("F", "B"))
