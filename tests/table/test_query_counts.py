"""The SQL statements of the hot paths, pinned (issue 11: a regression must fail a test, not only
a benchmark). Each number is written out statement by statement; a change that adds one must
say here why it is worth it."""

from __future__ import annotations

import tempfile

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg import pq

from games.table import commands
from tests.support.sockets import PLAY

pytestmark = pytest.mark.django_db(transaction=True)

# The token is looked up on every request: remembering it per process would let a revoked
# token or a removed staff flag act on for a while (docs/PERFORMANCE.md, the lean write path).
VIEW = ["token and user", "projection"]
# A command reads what it may need at once, then writes (issue 19: games.table.commit, in
# psycopg's pipeline mode, games.core.plain_sql.pipeline): 13 statements in 4 round trips
# where it was 11 in 11.
COMMAND = [  # no read of stored answers first: the unique row guards a spent key (services)
    "BEGIN",  # its own round trip: psycopg waits to learn the transaction began
    # The reads, one round trip: the lock first, so the others see the last commit.
    "projection, FOR UPDATE",
    "the passes sealed at the game's seq (a block window's, R19)",
    "the seated players' standing orders (a play opens a block window: issue 10)",
    "the notification cursor, FOR UPDATE",
    "the seated players' accounts, mail preferences and presence",
    # The writes, one round trip: nothing waits for their results before COMMIT.
    "INSERT the events",
    "UPDATE the projection",
    # The notifications are told in the command's own transaction (games.notifications.derive
    # .at_commit), not by a Celery task per move that re-read the log.
    "UPDATE the notification cursor",
    "INSERT the notifications",
    "INSERT the decision's deadline_soon reminder",
    "INSERT the idempotent answer (what was appended, not a rendered view)",
    "COMMIT",  # its own round trip
]
COMMAND_ROUND_TRIPS = 4
REST_COMMAND = ["token and user", *COMMAND]


def statements(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries]


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


def test_a_rest_view_is_two_statements(table):
    sql = statements(lambda: table.seats[0].get(f"/api/games/{table.gid}/"))
    assert len(sql) == len(VIEW), sql


def test_a_rest_command_is_fourteen_statements_and_one_transaction(table):
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    answer = None

    def post() -> None:
        nonlocal answer
        answer = table.seats[0].post(f"/api/games/{table.gid}/commands/",
                                     {"expected_seq": seq, **PLAY}, format="json",
                                     HTTP_IDEMPOTENCY_KEY="q1")  # fmt: skip

    sql = statements(post)
    assert answer is not None and answer.status_code == 200, answer.content
    assert len(sql) == len(REST_COMMAND), sql
    assert [s for s in sql if s in ("BEGIN", "COMMIT")] == ["BEGIN", "COMMIT"]


def test_a_socket_command_is_the_service_call_alone(table):
    """Over the socket the user was authenticated once, at connect: the command is the service
    call alone (games.live.consumer.GameConsumer._command), as a REST command with its token's
    user remembered."""
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    body = {"expected_seq": seq, **PLAY}
    sql = statements(lambda: commands.game_command(user=user, game_id=table.gid, body=body,
                                                   key="s1", view=False))  # fmt: skip
    assert len(sql) == len(COMMAND), sql


def test_a_socket_command_is_four_round_trips(table):
    """Issue 19: BEGIN, the reads, the writes, COMMIT. The play opens a block window and
    tells both other players (two notifications, a reminder): the usual move."""
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    body = {"expected_seq": seq, **PLAY}
    trips = round_trips(lambda: commands.game_command(user=user, game_id=table.gid, body=body,
                                                      key="s2", view=False))  # fmt: skip
    assert trips == COMMAND_ROUND_TRIPS


def test_a_pass_that_stays_sealed_is_four_round_trips_too(table):
    """R19: a pass that leaves the window open is sealed, nothing appended: its sealed pass
    and the idempotent answer are the only writes, in the same four round trips (the window's
    sealed passes were read with the lock)."""
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    commands.game_command(user=user, game_id=table.gid, key="p0", view=False,
                          body={"expected_seq": seq, **PLAY})  # fmt: skip
    passer = get_user_model().objects.get(username=table.seats[1].username)
    seq = table.seats[1].get(f"/api/games/{table.gid}/").json()["seq"]
    sql: list[str] = []
    trips = round_trips(lambda: sql.extend(statements(lambda: commands.game_command(
        user=passer, game_id=table.gid, key="p1", view=False,
        body={"expected_seq": seq, "type": "pass"}))))  # fmt: skip
    writes = [s.split(" (")[0] for s in sql if s.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == ["INSERT INTO games_sealedpass", "INSERT INTO games_idempotentanswer"], sql
    assert trips == COMMAND_ROUND_TRIPS, sql


def test_a_deleted_token_or_a_deactivated_user_is_refused_at_once(table):
    """No process goes on trusting a token it has seen (the reason the token costs a query)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    url = f"/api/games/{table.gid}/"
    keys = [Token.objects.get(user__username=c.username).key for c in table.seats[:2]]
    clients = []
    for key in keys:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert client.get(url).json()["you"] is not None
        clients.append(client)
    Token.objects.filter(key=keys[0]).first().delete()
    assert clients[0].get(url).status_code == 401
    Token.objects.get(key=keys[1]).user.__class__.objects.filter(auth_token__key=keys[1]).update(
        is_active=False
    )  # no signal: a bulk change
    assert clients[1].get(url).status_code == 401
