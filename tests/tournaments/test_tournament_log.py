"""A tournament's log is a game's kind of log: hash-chained from GENESIS with the games' own
hash, (tournament, seq) unique, append-only for the service's role (UPDATE, DELETE and TRUNCATE
refused), served at /api/tournaments/{id}/events/."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games.core.event_store import GENESIS, event_hash
from games.tournaments import store
from games.tournaments.models import TournamentEvent

pytestmark = pytest.mark.django_db


def _tournament(make_player) -> int:
    organiser = make_player()
    tid = organiser.post("/api/tournaments/", {"name": "Log", "rounds": 1},
                         format="json").json()["id"]  # fmt: skip
    for _ in range(2):
        assert make_player().post(f"/api/tournaments/{tid}/join/").status_code == 200
    return tid


def test_the_log_is_chained_and_served_after_a_seq(make_player, client):
    tid = _tournament(make_player)
    events = client.get(f"/api/tournaments/{tid}/events/").json()["events"]
    assert [e["type"] for e in events] == ["tournament_created", "player_joined", "player_joined"]
    prev = GENESIS
    for row in TournamentEvent.objects.filter(tournament_id=tid).order_by("seq"):
        assert row.prev_hash == prev
        assert row.hash == event_hash(prev, row.seq, row.type, row.v, row.data, row.at)
        prev = row.hash
    assert store.verify(tid)
    after = client.get(f"/api/tournaments/{tid}/events/?after=2").json()["events"]
    assert [e["seq"] for e in after] == [3]
    assert client.get(f"/api/tournaments/{tid}/events/?after=x").status_code == 400
    assert client.get("/api/tournaments/999999/events/").status_code == 404


@pytest.mark.parametrize("statement", ["UPDATE games_tournamentevent SET type = 'forged'",
                                       "DELETE FROM games_tournamentevent",
                                       "TRUNCATE games_tournamentevent CASCADE"])  # fmt: skip
def test_the_service_role_may_not_rewrite_the_log(make_player, statement):
    tid = _tournament(make_player)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert TournamentEvent.objects.filter(tournament_id=tid).count() == 3
    assert store.verify(tid)
