"""(0) The floor (issue 19): a move's minimum database work, sent by a bare psycopg script.

Each move is first played by the real command path (`games.table.commands.game_command`, a
human seat's command from its `legal` list, a fresh Idempotency-Key) inside an outer
transaction that is rolled back, with every statement it sends recorded as psycopg receives
it (SQL text and parameters, through Django's execute_wrapper). The command's own transaction
is then a savepoint; its SAVEPOINT and RELEASE are recorded as the BEGIN and COMMIT it sends
when it runs on its own. A plain psycopg 3 connection (no Django; server-side binding and no
prepared statements, as sejmi.settings configures the service's) then sends those statements,
BEGIN and COMMIT included, and commits: the move lands as the service would have landed it
(same events and hash chain, projection, notifications, stored answer), and the next move is
recorded from there. So the statement list is the code's own in every run; it cannot drift.

The command path sends several statements in one message (games.core.plain_sql); each is
recorded here as the single statements it holds, their parameters bound in (psycopg's
client-side binding, as the path's own messages are). Three ways of sending, in turn move by
move so load hits each alike:
- one round trip per statement (how the command path sent them before issue 19);
- grouped as the command path now sends them (games.core.plain_sql.command_transaction):
  BEGIN with every statement before the first write in one message (the lock and the reads),
  then the writes with COMMIT in one: two round trips (the floor; three until issue 31 sent
  BEGIN with the reads);
- all of them in one psycopg pipeline: one round trip for the whole move (the limit).

Timed per move from BEGIN to COMMIT's answer; CPU is this process's thread time inside those
windows plus the PostgreSQL backend's user + system time over the whole run (it does nothing
else). synchronous_commit and fsync are read from the server and reported (both on).

    python -m bench.run --only floor [--floor-moves 600]
"""

from __future__ import annotations

import random
import re
import statistics
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

Statement = tuple[str, Any]  # (sql, params) as handed to psycopg's cursor.execute

_SAVEPOINT = re.compile(r'^SAVEPOINT "?([^"]+)"?$')
_RELEASE = re.compile(r'^RELEASE SAVEPOINT "?([^"]+)"?$')


class _RolledBack(Exception):
    """Leaves the outer transaction of `capture` without committing anything."""


def capture(call: Callable[[], Any]) -> list[Statement]:
    """The statements `call` (one command) sends, BEGIN to COMMIT, recorded inside an outer
    transaction that is rolled back: the database, and what runs after COMMIT (broadcast,
    deadline, mail), are left as they were. ValueError if the command did not commit."""
    from django.db import connection, transaction

    seen: list[Statement] = []

    def record(execute, sql, params, many, context):
        seen.append((sql, params))
        return execute(sql, params, many, context)

    try:
        with transaction.atomic(), connection.execute_wrapper(record):
            call()
            bound = [_single(connection.connection, sql, params) for sql, params in seen]
            raise _RolledBack
    except _RolledBack:
        pass
    return _as_sent([one for message in bound for one in message])


def _single(conn, sql: str, params: Any) -> list[Statement]:
    """The statements of one message, their parameters bound in as a client-side-binding
    cursor binds them."""
    import psycopg
    import sqlparse

    if params:
        sql = psycopg.ClientCursor(conn).mogrify(sql, params)
    return [(str(one).strip().rstrip(";"), None) for one in sqlparse.split(sql) if one.strip()]


def _as_sent(seen: list[Statement]) -> list[Statement]:
    """The outermost savepoint, as the command sends it alone: BEGIN ... COMMIT."""
    if not seen or not (first := _SAVEPOINT.match(seen[0][0].strip())):
        raise ValueError(f"the command opened no transaction: {[s for s, _ in seen][:3]}")
    name, out = first.group(1), [("BEGIN", None)]
    for sql, params in seen[1:]:
        released = _RELEASE.match(sql.strip())
        if released and released.group(1) == name:
            return out + [("COMMIT", None)]
        if "ROLLBACK TO SAVEPOINT" in sql and name in sql:
            raise ValueError("the command was refused")
        out.append((sql, params))
    raise ValueError("the command's transaction was not released")


def label(sql: str) -> str:
    """A short name for a statement: its verb and first table (for the per-statement times)."""
    s = " ".join(sql.split())
    verb = s.split(" ", 1)[0].upper()
    table = re.search(r'(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', s, re.IGNORECASE)
    lock = " FOR UPDATE" if "FOR UPDATE" in s.upper() else ""
    return f"{verb} {table.group(1)}{lock}" if table else verb


ONE, PATH, PIPELINE = "one per statement", "as the command path", "one pipeline"
_WRITES = ("INSERT", "UPDATE", "DELETE", "WITH")


def send(cursor, statements: Sequence[Statement], *, way: str = ONE,
         each: list[float] | None = None) -> None:  # fmt: skip
    """Send the statements on `cursor`'s autocommit connection, reading every result as
    Django does (`ONE`; `each`: the time of each, appended); `PIPELINE`: all in one round
    trip; `PATH`: in the command path's two round trips (`groups`), a message each."""
    if way == PIPELINE:
        with cursor.connection.pipeline():
            for sql, params in statements:
                cursor.execute(sql, params)
        return
    if way == PATH:
        import psycopg

        several = psycopg.ClientCursor(cursor.connection)
        for group in groups(statements):
            several.execute("; ".join(sql for sql, _ in group))
            while several.nextset():
                pass
        return
    for sql, params in statements:
        started = time.perf_counter()
        cursor.execute(sql, params)
        if cursor.description is not None:
            cursor.fetchall()
        if each is not None:
            each.append(time.perf_counter() - started)


def groups(statements: Sequence[Statement]) -> list[list[Statement]]:
    """BEGIN with the statements before the first write | the rest with COMMIT."""
    body = list(statements[1:-1])
    first_write = next((i for i, (sql, _) in enumerate(body)
                        if sql.lstrip().upper().startswith(_WRITES)), len(body))  # fmt: skip
    parts = [[statements[0], *body[:first_write]], body[first_write:] + [statements[-1]]]
    return [part for part in parts if part]


def connect(conninfo: str):
    """A bare connection as the service's: psycopg's server-side binding (the plain Cursor),
    no prepared statements (prepare_threshold None), autocommit so BEGIN and COMMIT are sent
    as the statements they are."""
    import psycopg

    return psycopg.connect(conninfo, autocommit=True, prepare_threshold=None)


@dataclass
class Way:
    """One way of sending the moves: its latencies (s) and CPU (s)."""

    way: str
    times: list[float] = field(default_factory=list)
    client_cpu_s: float = 0.0
    backend_cpu_s: float = 0.0
    per_statement: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def summary(self) -> dict:
        from bench.harness.env import percentile

        ms = [t * 1000 for t in self.times] or [float("nan")]
        n = max(len(self.times), 1)
        return {
            "moves": len(self.times),
            "p50_ms": round(percentile(ms, 50), 3), "p90_ms": round(percentile(ms, 90), 3),
            "p99_ms": round(percentile(ms, 99), 3), "max_ms": round(max(ms), 2),
            "cpu_ms_per_move": {"client": round(self.client_cpu_s * 1000 / n, 3),
                                "postgres": round(self.backend_cpu_s * 1000 / n, 3)},
            "statement_ms_median": {k: round(statistics.median(v) * 1000, 3)
                                    for k, v in self.per_statement.items()},
        }  # fmt: skip


def _players(count: int) -> list:
    from django.contrib.auth import get_user_model

    return [get_user_model().objects.create(username=f"bench-floor-{uuid.uuid4().hex[:10]}")
            for _ in range(count)]  # fmt: skip


def _next_move(game: int, users: list, rnd: random.Random) -> tuple[Any, dict] | None:
    """A human seat with something legal and one command from it (None: the game ended)."""
    from games.table import selectors

    proj, state = selectors.current(game)
    if state.status != "active":
        return None
    for seat in state.awaiting:  # R19: who passed stays listed until the window closes
        view = selectors.game_view(game, state, users[seat], seq=proj.seq, deadline=None)
        if view["legal"]:
            return users[seat], {"expected_seq": proj.seq, **rnd.choice(view["legal"])}
    raise RuntimeError(f"game {game}: nobody awaited has a legal command")


def run(conninfo: str, moves: int = 600, seed: int = 19) -> dict:
    """`moves` real moves of 2-, 3- and 4-seat games, sent each of the three ways in turn;
    returns the figures for the report."""
    import games.tasks  # noqa: F401 (registers the tasks the commits name, as the web does)
    from bench.harness.env import cpu_s, load
    from games.table import commands

    users, rnd = _players(4), random.Random(seed)
    ways = [Way(ONE), Way(PATH), Way(PIPELINE)]
    trips: Counter = Counter()  # statements (= round trips, one by one) per move
    shapes: Counter = Counter()
    seats, game, games = 2, None, 0
    conns = [connect(conninfo) for _ in ways]
    try:
        info = conns[0].execute("SELECT current_setting('synchronous_commit'),"
                                " current_setting('fsync'), version()").fetchone()  # fmt: skip
        cursors = [c.cursor() for c in conns]
        cpu_before = [cpu_s(c.info.backend_pid) for c in conns]
        while sum(len(way.times) for way in ways) < moves:
            move = _next_move(game, users, rnd) if game is not None else None
            if move is None:  # a new table, 2 to 4 seats in turn
                seats = 2 + (seats - 1) % 3 if game is not None else 2
                game = commands.game_create(user=users[0], seats=seats).game_id
                for user in users[:seats]:
                    commands.game_join(user=user, game_id=game)
                games += 1
                continue
            user, body = move
            key = uuid.uuid4().hex
            statements = capture(partial(commands.game_command, user=user, game_id=game,
                                          body=body, key=key, view=False))  # fmt: skip
            shape = tuple(label(sql) for sql, _ in statements)
            trips[len(statements)] += 1
            shapes[shape] += 1
            i = sum(len(way.times) for way in ways) % len(ways)
            way, cursor = ways[i], cursors[i]
            each: list[float] = []
            cpu, started = time.thread_time(), time.perf_counter()
            send(cursor, statements, way=way.way, each=each)
            way.times.append(time.perf_counter() - started)
            way.client_cpu_s += time.thread_time() - cpu
            for name, t in zip(shape, each, strict=False):
                way.per_statement[name].append(t)
        for way, conn, before in zip(ways, conns, cpu_before, strict=True):
            way.backend_cpu_s = cpu_s(conn.info.backend_pid) - before
    finally:
        for conn in conns:
            conn.close()
    ((common, common_count),) = shapes.most_common(1)
    return {
        "moves": moves, "games": games,
        "synchronous_commit": info[0], "fsync": info[1], "server": info[2].split(",")[0],
        "round_trips": {"per_move": dict(sorted(trips.items())),
                        "median": statistics.median(trips.elements()),
                        "common_move": list(common), "common_moves": common_count},
        "one_per_statement": ways[0].summary(), "as_the_path": ways[1].summary(),
        "pipelined": ways[2].summary(),
        "load": load(),
    }  # fmt: skip
