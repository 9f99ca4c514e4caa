"""The SQL statements of the hot paths, pinned (issue 11: a regression must fail a test, not only
a benchmark). Each number is written out statement by statement; a change that adds one must
say here why it is worth it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.table import commands
from tests.service.test_websockets import PLAY, table  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

# The token is looked up on every request: remembering it per process would let a revoked
# token or a removed staff flag act on for a while (docs/PERFORMANCE.md, the lean write path).
VIEW = ["token and user", "projection"]
COMMAND = [  # no read of stored answers first: the unique row guards a spent key (services)
    "BEGIN",
    "projection, FOR UPDATE",
    "the asked players' standing orders (the play opens a block window: issue 10)",
    "INSERT the events",
    "UPDATE the projection",
    # The notifications are told in the command's own transaction (games.notifications.derive
    # .at_commit): four statements here instead of a Celery task per move that re-read the log
    # and ran 15-20 statements of its own (bench-load: 10-20 ms of worker CPU per move).
    "UPDATE the notification cursor",
    "the told players' accounts and mail preferences",
    "INSERT the notifications",
    "INSERT the decision's deadline_soon reminder",
    "INSERT the idempotent answer",
    "COMMIT",
]
REST_COMMAND = ["token and user", *COMMAND]


def statements(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries]


def test_a_rest_view_is_two_statements(table):
    sql = statements(lambda: table.seats[0].get(f"/api/games/{table.gid}/"))
    assert len(sql) == len(VIEW), sql


def test_a_rest_command_is_twelve_statements_and_one_transaction(table):
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
                                                   key="s1"))  # fmt: skip
    assert len(sql) == len(COMMAND), sql


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
    Token.objects.get(key=keys[1]).user.__class__.objects.filter(
        auth_token__key=keys[1]).update(is_active=False)  # no signal: a bulk change
    assert clients[1].get(url).status_code == 401
