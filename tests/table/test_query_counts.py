"""The SQL statements of the hot paths, pinned (issue 11: a regression must fail a test, not only
a benchmark). Each number is written out statement by statement; a change that adds one must
say here why it is worth it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.core import followers
from games.table import commands
from tests.support.sockets import PLAY
from tests.support.statements import round_trips, statements

pytestmark = pytest.mark.django_db(transaction=True)

# The token is looked up on every request: remembering it per process would let a revoked
# token or a removed staff flag act on for a while (docs/PERFORMANCE.md, the lean write path).
VIEW = ["token and user", "projection"]
# A command writes the game's own rows alone: what spans games follows the log after COMMIT
# (games.core.followers). It reads what it may need at once, then sends its writes, merged into
# one statement, with COMMIT (games.core.plain_sql.command_transaction): 6 statements in 2
# round trips where it was 13 in 4.
COMMAND = [  # no read of stored answers first: the unique row guards a spent key (services)
    # BEGIN and the reads, one message (psycopg would send BEGIN alone, a round trip of its
    # own: games.core.plain_sql.together); the lock first, so the others see the last commit.
    "BEGIN",
    "projection, FOR UPDATE",
    "the passes sealed at the game's seq (a block window's, R19)",
    "the seated players' standing orders (a play opens a block window)",
    # The writes, one statement (data-modifying CTEs), and COMMIT in the same message.
    "INSERT the events, UPDATE the projection, INSERT the idempotent answer",
    "COMMIT",
]
COMMAND_ROUND_TRIPS = 2
WRITES = ("INSERT", "UPDATE", "DELETE", "WITH")
REST_COMMAND = ["token and user", *COMMAND]


@pytest.fixture(autouse=True)
def _followers_elsewhere(settings):
    """The followers are woken through Redis, as in production: nothing of theirs runs here."""
    settings.SEJMI_FOLLOW = "queue"


def test_a_rest_view_is_two_statements(table):
    sql = statements(lambda: table.seats[0].get(f"/api/games/{table.gid}/"))
    assert len(sql) == len(VIEW), sql


def test_a_rest_command_is_seven_statements_and_one_transaction(table):
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    answer = None

    def post() -> None:
        nonlocal answer
        answer = table.seats[0].post(f"/api/games/{table.gid}/commands/",
                                     {"expected_seq": seq, **PLAY}, format="json",
                                     HTTP_IDEMPOTENCY_KEY="q1")  # fmt: skip

    sql = statements(post)
    assert answer is not None and answer.status_code == 200, answer.content
    assert len(sql) == len(REST_COMMAND), [s[:90] for s in sql]
    assert [s for s in sql if s in ("BEGIN", "COMMIT")] == ["BEGIN", "COMMIT"]
    writes = [s for s in sql if s.startswith(WRITES)]
    assert len(writes) == 1 and writes[0].startswith("WITH"), writes


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


def test_a_socket_command_is_two_round_trips(table):
    """BEGIN with the reads, the writes with COMMIT. The play opens a block window: the usual
    move."""
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    body = {"expected_seq": seq, **PLAY}
    trips = round_trips(lambda: commands.game_command(user=user, game_id=table.gid, body=body,
                                                      key="s2", view=False))  # fmt: skip
    assert trips == COMMAND_ROUND_TRIPS


def test_a_pass_that_stays_sealed_is_two_round_trips_too(table):
    """R19: a pass that leaves the window open is sealed, nothing appended: its sealed pass
    and the idempotent answer are the only writes (one statement), in the same two round
    trips (the window's sealed passes were read with the lock)."""
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
    writes = [s for s in sql if s.startswith(WRITES)]
    assert len(writes) == 1, sql
    assert "INSERT INTO games_sealedpass" in writes[0], writes
    assert "INSERT INTO games_idempotentanswer" in writes[0], writes
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


# After a usual move the followers (games.core.followers, in their own process in production)
# catch the game up in one transaction; every statement here is per move (issue 31: they cost
# more CPU than the telling did inside the command).
FOLLOW = [
    "BEGIN",
    "the cursors, FOR UPDATE (their rows exist since the game's first move)",
    "the events past the lowest cursor",
    "the notifications' savepoint",
    "the head projection (the state and the deadline)",
    "the passes sealed in the window the play opened (R19: who has answered is not asked)",
    "the told seats' accounts, mail preferences and presence",
    "INSERT the notifications ON CONFLICT DO NOTHING",
    "INSERT the reminder ON CONFLICT DO NOTHING",
    "release the savepoint",
    "UPDATE the moved cursors",
    "COMMIT",
]


def test_a_moves_followers_are_one_transaction_of_few_statements(table):
    """No get_or_create per notification (a savepoint, a SELECT and an INSERT each), no second
    read of the projection nor of the mail preferences, one read of the cursors (issue 31)."""
    followers.follow(table.gid)  # the game's start: the cursors' rows are made
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    answer = table.seats[0].post(f"/api/games/{table.gid}/commands/",
                                 {"expected_seq": seq, **PLAY}, format="json",
                                 HTTP_IDEMPOTENCY_KEY="f1")  # fmt: skip
    assert answer.status_code == 200, answer.content
    sql = statements(lambda: followers.follow(table.gid))
    assert len(sql) == len(FOLLOW), "\n".join(s[:110] for s in sql)
