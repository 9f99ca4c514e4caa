"""Issue 32, item 3: the service keeps an append-only witness of every signed end outside
PostgreSQL (a file per node, SEJMI_WITNESS_DIR), and the audit compares the record against it:
the owner's rollback of a finished game (triggers off, the events after a batch boundary and
the end's signature deleted, the projection rebuilt) was green before; now it is named."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.core import witness
from games.core.models import GameEvent, HeadSignature
from games.table import commands
from games.table.projections import rebuild_game
from replays.verification import audit_report
from tests.support.db_roles import as_owner


@pytest.fixture
def witness_dir(settings, tmp_path):
    settings.SEJMI_WITNESS_DIR = str(tmp_path / "witness")
    return tmp_path / "witness"


def _ended_bot_game() -> int:
    host = get_user_model().objects.create_user("host")
    done = commands.game_create(user=host, seats=2, options={"bots": [0, 1]})
    while done.state.status != "ended":
        done = commands.game_bot_moves(game_id=done.game_id, expected_seq=done.seq)
    return done.game_id


@pytest.mark.django_db(transaction=True)
def test_the_owners_rollback_of_a_finished_game_is_flagged_by_the_witness(witness_dir):
    """Mutant: no witness written at the end (or not compared) → the rolled-back record's
    audit is all green."""
    gid = _ended_bot_game()
    end = GameEvent.objects.filter(game_id=gid).order_by("-seq").first()
    assert witness.ends(gid) == [(end.seq, end.hash)]
    assert audit_report(gid)["witness_ok"] is True
    heads = [r.seq for r in GameEvent.objects.filter(game_id=gid, head_signature__isnull=False)]
    boundary = [s for s in heads if s < end.seq - 3][-1]  # a batch head well before the end
    with as_owner(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only")
        cursor.execute("ALTER TABLE games_headsignature DISABLE TRIGGER "
                       "games_head_signature_append_only")  # fmt: skip
        cursor.execute("DELETE FROM games_gameevent WHERE game_id = %s AND seq > %s",
                       [gid, boundary])  # fmt: skip
        cursor.execute("DELETE FROM games_headsignature WHERE game_id = %s AND seq > %s",
                       [gid, boundary])  # fmt: skip
        cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_event_append_only")
        cursor.execute("ALTER TABLE games_headsignature ENABLE TRIGGER "
                       "games_head_signature_append_only")  # fmt: skip
    rebuild_game(gid)
    assert not HeadSignature.objects.filter(game_id=gid, seq__gt=boundary).exists()
    audit = audit_report(gid)
    assert audit["signature_ok"] is True  # every remaining head is one the service signed
    assert audit["witness_ok"] is False
    assert audit["witness_first_bad_seq"] == boundary + 1
