"""bench.scenarios.floor (issue 19): the floor replays what the command path sends, recorded at
run time. These tests keep that true: the recording is the same statement list a real command sends
(tests/table/test_query_counts.py pins its length), it leaves the database as it was, and a
bare psycopg connection sending it lands the move exactly as the service would have."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from psycopg.conninfo import make_conninfo

from bench.scenarios import floor
from games.core import event_store
from games.core.models import GameEvent, IdempotentAnswer
from games.table import commands, selectors
from tests.support.sockets import PLAY
from tests.support.statements import statements

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _followers_elsewhere(settings):
    """The followers are woken through Redis, as in production: nothing of theirs runs here."""
    settings.SEJMI_FOLLOW = "queue"


def _command(table, key: str):  # noqa: F811 (the fixture)
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = selectors.current(table.gid)[0].seq
    body = {"expected_seq": seq, **PLAY}
    return seq, lambda: commands.game_command(user=user, game_id=table.gid, body=body, key=key)


def _bare_conninfo() -> str:
    """The test database, reached as the bench reaches its own: psycopg alone."""
    s = connection.settings_dict
    extra = {"options": s["OPTIONS"]["options"]} if s["OPTIONS"].get("options") else {}
    return make_conninfo(dbname=s["NAME"], host=s["HOST"] or None, port=s["PORT"] or None,
                         user=s["USER"] or None, password=s["PASSWORD"] or None,
                         **extra)  # fmt: skip


def test_the_recording_is_what_a_real_command_sends_and_changes_nothing(table):  # noqa: F811
    seq, call = _command(table, "floor-1")
    recorded = floor.capture(call)
    assert selectors.current(table.gid)[0].seq == seq  # rolled back
    assert not GameEvent.objects.filter(game_id=table.gid, seq__gt=seq).exists()
    assert not IdempotentAnswer.objects.filter(key="floor-1").exists()

    _, call = _command(table, "floor-2")
    sent = statements(call)
    assert len(recorded) == len(sent), ([s for s, _ in recorded], sent)  # pinned: test_query_counts
    assert [floor.label(s) for s, _ in recorded] == [floor.label(s) for s in sent]
    assert "FOR UPDATE" in recorded[1][0].upper()  # the row lock, sent by psycopg as is


def test_a_bare_connection_sending_the_recording_lands_the_move(table):  # noqa: F811
    seq, call = _command(table, "floor-3")
    recorded = floor.capture(call)
    with floor.connect(_bare_conninfo()) as conn:
        floor.send(conn.cursor(), recorded)
    proj, state = selectors.current(table.gid)
    assert proj.seq > seq
    report = event_store.verify_chain(event_store.load(table.gid))
    assert report.ok and report.length == proj.seq and report.head_hash == proj.head_hash
    assert IdempotentAnswer.objects.get(key="floor-3").answer["seq"] == proj.seq
    # The next move is recorded from there, and in the command path's round trips it lands too.
    user = get_user_model().objects.get(username=table.seats[1].username)
    view = selectors.game_view(table.gid, state, user, seq=proj.seq, deadline=None)
    body = {"expected_seq": proj.seq, **view["legal"][0]}
    recorded = floor.capture(lambda: commands.game_command(user=user, game_id=table.gid,
                                                           body=body, key="floor-4"))  # fmt: skip
    with floor.connect(_bare_conninfo()) as conn:
        floor.send(conn.cursor(), recorded, way=floor.PATH)
    # (a pass in the open block window is sealed and moves no seq, R19: the answer shows it)
    assert IdempotentAnswer.objects.filter(key="floor-4").exists()


def test_the_path_s_round_trips_are_begin_with_the_reads_then_the_writes_with_commit(table):  # noqa: F811
    _, call = _command(table, "floor-5")
    parts = floor.groups(floor.capture(call))
    assert len(parts) == 2 and len(parts[0]) > 1, parts
    assert parts[0][0][0] == "BEGIN" and parts[-1][-1][0] == "COMMIT"
    assert all(sql.lstrip().upper().startswith("SELECT") for sql, _ in parts[0][1:]), parts[0]
    assert not any(sql.lstrip().upper().startswith("SELECT") for sql, _ in parts[1])


def test_a_call_that_opens_no_transaction_is_not_a_move():
    with pytest.raises(ValueError, match="no transaction"):
        floor.capture(lambda: None)


def test_statement_labels():
    assert floor.label('SELECT "a"."b" FROM "games_gameprojection" WHERE x FOR UPDATE') == (
        "SELECT games_gameprojection FOR UPDATE"
    )
    assert floor.label("INSERT INTO games_gameevent (game_id) VALUES (%s)") == (
        "INSERT games_gameevent"
    )
    assert floor.label("BEGIN") == "BEGIN"
