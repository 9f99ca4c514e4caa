"""The append-only guard: game events and dispute notes can be read and
appended, never rewritten.

- Everyone, the tables' owner too: UPDATE and DELETE (row trigger) and TRUNCATE (statement
  trigger, also reached by CASCADE) are refused.
- The service's own role (manage.py grant_service_role, as production runs it) may SELECT and
  INSERT them and nothing more: it is refused UPDATE, DELETE and TRUNCATE by its privileges,
  and it cannot switch a trigger off (only an owner may ALTER a table). Yet it runs a whole
  game and a dispute: the grants are enough for the service.

The test database is owned by the connecting user (make test); each test becomes the service
role with SET LOCAL ROLE inside its own transaction, which ends with the test.
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from games.core.models import GameEvent
from games.table.models import PlayerSeat
from replays.disputes.services import dispute_note_add, dispute_open
from tests.support.db_roles import as_owner
from tests.support.ended_game import ended_game
from tests.support.players import register as player

SERVICE_ROLE = "sejmi_app"
EVENTS, NOTES = "games_gameevent", "replays_disputenote"


def sql(statement: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def become_service() -> None:
    """The rest of this test's transaction runs as the service's role."""
    call_command("grant_service_role", database="default", role=SERVICE_ROLE, stdout=io.StringIO())
    sql(f"SET LOCAL ROLE {SERVICE_ROLE}")
    assert sql("SELECT current_user") == [(SERVICE_ROLE,)]


@pytest.fixture
def game(db, settings) -> int:
    settings.SEJMI_ALLOW_RIGGED = True
    return ended_game(player(), player())


@pytest.fixture
def note(game):
    """A dispute on the game (by a seated player) with one staff note, made by the owner."""
    staff = get_user_model().objects.create_user("staff-guard", is_staff=True)
    opener = PlayerSeat.objects.filter(game_id=game).first().user
    dispute = dispute_open(user=opener, game_id=game, reason="seat 1 never had a chance")
    return dispute_note_add(dispute=dispute, author=staff, text="looked at it")


def refused(statement: str, match: str) -> None:
    """`statement` fails with a message matching `match` and changes nothing."""
    with pytest.raises(DatabaseError, match=match), transaction.atomic():
        sql("SET CONSTRAINTS ALL IMMEDIATE")  # TRUNCATE waits for no deferred FK check
        sql(statement)


def rows(table: str) -> list[tuple]:
    return sql(f"SELECT * FROM {table} ORDER BY id")


# Everyone, the owner included: the triggers


@pytest.mark.django_db
@pytest.mark.parametrize("table", [EVENTS, NOTES])
@pytest.mark.parametrize("statement", ["UPDATE {t} SET id = id", "DELETE FROM {t}",
                                       "TRUNCATE {t}", "TRUNCATE {t} CASCADE"])  # fmt: skip
def test_the_owner_is_refused_update_delete_and_truncate_by_the_triggers(note, table, statement):
    before = rows(table)
    assert before
    with as_owner():
        refused(statement.format(t=table),
                f"{table} is append-only: (UPDATE|DELETE|TRUNCATE) refused")  # fmt: skip
    assert rows(table) == before


@pytest.mark.django_db
def test_truncate_by_cascade_from_the_games_table_is_refused(note):
    before = rows(EVENTS)
    with as_owner():
        refused("TRUNCATE games_game CASCADE", f"{EVENTS} is append-only: TRUNCATE refused")
    assert rows(EVENTS) == before


# The service's role: its privileges


@pytest.mark.django_db
def test_the_service_role_runs_a_whole_game_and_a_dispute(settings):
    """The grants are enough: accounts, games, commands, projections, idempotency, audits,
    disputes — all as the role that may only append events."""
    settings.SEJMI_ALLOW_RIGGED = True
    become_service()
    alice, bob = player(), player()
    gid = ended_game(alice, bob)
    assert GameEvent.objects.filter(game_id=gid).count() > 5
    audit = alice.get(f"/api/games/{gid}/audit/").json()
    assert audit["chain_ok"] and audit["rules_ok"] and audit["replay_ok"]
    answer = alice.post(f"/api/games/{gid}/disputes/", {"reason": "why"}, format="json")
    assert answer.status_code == 201, answer.content


@pytest.mark.django_db
@pytest.mark.parametrize("table", [EVENTS, NOTES])
@pytest.mark.parametrize("statement", ["UPDATE {t} SET id = id", "DELETE FROM {t}",
                                       "TRUNCATE {t}"])  # fmt: skip
def test_the_service_role_may_not_update_delete_or_truncate(note, table, statement):
    before = rows(table)
    become_service()
    refused(statement.format(t=table), f"permission denied for table {table}")
    assert rows(table) == before


WAYS_AROUND = {
    "disable the trigger": (f"ALTER TABLE {EVENTS} DISABLE TRIGGER games_event_append_only",
                            f"must be owner of table {EVENTS}"),
    "disable every trigger": (f"ALTER TABLE {EVENTS} DISABLE TRIGGER ALL",
                              f"must be owner of table {EVENTS}"),
    "drop the trigger": (f"DROP TRIGGER games_event_no_truncate ON {EVENTS}",
                         f"must be owner of (table|relation) {EVENTS}"),
    "replace its function": ("CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS "
                             "trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql",
                             "permission denied for schema public|must be owner of function"),
    "replication mode": ("SET session_replication_role = replica",
                         'permission denied to set parameter "session_replication_role"'),
    # A grant without the grant option only warns ("no privileges were granted"): UPDATE then.
    "grant itself more": (f"GRANT UPDATE ON {EVENTS} TO {SERVICE_ROLE}; "
                          f"UPDATE {EVENTS} SET id = id", f"permission denied for table {EVENTS}"),
}  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("how", list(WAYS_AROUND))
def test_the_service_role_cannot_switch_the_guard_off(game, how):
    statement, match = WAYS_AROUND[how]
    become_service()
    refused(statement, match)
    sql("RESET ROLE")
    assert {name for (name,) in sql(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND tgenabled = 'O' "
        "AND NOT tgisinternal", [EVENTS]
    )} == {"games_event_append_only", "games_event_no_truncate"}  # fmt: skip


@pytest.mark.django_db
def test_the_service_role_may_select_and_insert(note):
    become_service()
    head = GameEvent.objects.filter(game_id=note.dispute.game_id).last()
    assert head is not None and head.type == "game_ended"
    late = GameEvent.objects.create(
        game_id=head.game_id,
        seq=head.seq + 1,
        type="timed_out",
        v=1,
        data={},
        at=head.at,
        prev_hash=head.hash,
        hash="0" * 64,
    )
    assert GameEvent.objects.filter(pk=late.pk).exists()
    staff = get_user_model().objects.get(username="staff-guard")
    again = dispute_note_add(dispute=note.dispute, author=staff, text="a second look")
    assert list(note.dispute.notes.values_list("text", flat=True)) == ["looked at it",
                                                                      "a second look"]  # fmt: skip
    assert again.pk
