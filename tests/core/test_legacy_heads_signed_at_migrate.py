"""Issue 32, item 5: a running game recorded before every batch was signed (its head row has no
signature, and no HeadSignature row covers it) stops as `game_tampered` at its next command
unless `manage.py sign_heads` ran after migrating. Nobody has to remember it now: the migration
games/0021_holes_sign_legacy_heads signs such heads (games.core.legacy_heads), idempotently.

Before: no such migration (the first test's lookup fails), and the game stopped (409)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from games.core.legacy_heads import unsigned_heads
from games.core.models import GameEvent, GameProjection
from tests.support.db_roles import as_owner
from tests.support.sockets import PLAY

MIGRATION = ("games", "0021_holes_sign_legacy_heads")


def _as_before_issue_32(gid: int) -> None:
    """The owner takes the head row's signature away: the row as an older release wrote it."""
    seq = GameProjection.objects.get(game_id=gid).seq
    with as_owner(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only")
        cursor.execute("UPDATE games_gameevent SET head_signature = NULL"
                       " WHERE game_id = %s AND seq = %s", [gid, seq])  # fmt: skip
        cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_event_append_only")
    assert GameEvent.objects.get(game_id=gid, seq=seq).head_signature is None


def _migrate_forward() -> None:
    """The migration's own operation, as `manage.py migrate` runs it."""
    assert MIGRATION in MigrationLoader(connection).disk_migrations, "no such migration"
    module = importlib.import_module("games.migrations." + MIGRATION[1])
    (operation,) = module.Migration.operations
    operation.code(django_apps, SimpleNamespace(connection=connection))  # as a schema editor


def _play(table, seq: int):
    return table.seats[0].post(f"/api/games/{table.gid}/commands/",
                               {"expected_seq": seq, **PLAY}, format="json")  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_migration_signs_an_unsigned_running_head_and_the_game_plays_on(table):
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    _as_before_issue_32(table.gid)
    assert unsigned_heads() == [table.gid]
    from games.core import event_store

    event_store._SIGNED.clear()  # another process: nothing remembered of this head
    _migrate_forward()
    assert unsigned_heads() == []
    answer = _play(table, seq)
    assert answer.status_code == 200, answer.content
    _migrate_forward()  # idempotent: nothing to do, nothing signed twice
    assert unsigned_heads() == []


@pytest.mark.django_db(transaction=True)
def test_on_a_new_database_it_has_nothing_to_do():
    """A fresh database (compose: before `grant_service_role`) is not read through the
    service's connection at all."""
    assert unsigned_heads() == []
    _migrate_forward()


@pytest.mark.django_db(transaction=True)
def test_without_it_the_game_stops_tampered(table):
    """What the migration saves a deployment from (the reason it exists)."""
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    _as_before_issue_32(table.gid)
    from games.core import event_store

    event_store._SIGNED.clear()
    answer = _play(table, seq)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_tampered"
