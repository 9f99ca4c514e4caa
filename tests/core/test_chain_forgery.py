"""What the hash chain proves about a game's past (issue 9, hole 7).

An edit made afterwards (by someone who switched the append-only trigger off, as only the
tables' owner can) is found at its seq. A forger who re-hashes every row after the edit makes a
consistent chain; what still gives him away is `game_ended`'s `chain_head`, the hash of the
event before it, sealed into the last event's content when the game ended: re-hash everything
but leave it, and the chain check refuses the game at that seq. Re-seal it too, and the head
no longer matches what a player kept at the end (the last test).
"""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.core import event_store
from games.core.codec import canonical_json
from games.core.models import GameEvent
from games.engine import events as ev
from replays.verification import verify_game
from tests.support.db_roles import as_owner
from tests.support.ended_game import ended_game
from tests.support.players import register as player

TRIGGER = "games_event_append_only"


@pytest.fixture
def game(db, settings) -> int:
    settings.SEJMI_ALLOW_RIGGED = True
    return ended_game(player(), player())


def rewrite(rows: list[GameEvent]) -> None:
    """Store `rows` over the game's rows, the way only the owner could: trigger off (the tests
    run the service as its role: this steps out of it, and back)."""
    with as_owner(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE games_gameevent DISABLE TRIGGER {TRIGGER}")
        try:
            for r in rows:
                cursor.execute(
                    "UPDATE games_gameevent SET data = %s, prev_hash = %s, hash = %s "
                    "WHERE game_id = %s AND seq = %s",
                    [canonical_json(r.data), r.prev_hash, r.hash, r.game_id, r.seq],
                )
        finally:
            cursor.execute(f"ALTER TABLE games_gameevent ENABLE TRIGGER {TRIGGER}")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def forged(gid: int, *, seq: int, reseal: bool) -> list[GameEvent]:
    """The game's rows with event `seq`'s player renamed and every hash from there on
    recomputed: a consistent chain. `reseal` also rewrites game_ended's chain_head."""
    rows = event_store.load(gid)
    prev = rows[seq - 2].hash
    for r in rows[seq - 1 :]:
        if r.seq == seq:
            r.data = {**r.data, "name": "mallory"}
        if r.type == ev.GAME_ENDED and reseal:
            r.data = {**r.data, "chain_head": prev}
        r.prev_hash, r.hash = prev, event_store.event_hash(prev, r.seq, r.type, r.v, r.data, r.at)
        prev = r.hash
    return rows


def chain(gid: int):
    return verify_game(gid).check("chain")


def seat_taken_seq(gid: int) -> int:
    return GameEvent.objects.filter(game_id=gid, type=ev.SEAT_TAKEN).first().seq


@pytest.mark.django_db
def test_an_edit_made_afterwards_is_found_at_its_seq(game):
    rows = event_store.load(game)
    seq = seat_taken_seq(game)
    rows[seq - 1].data = {**rows[seq - 1].data, "name": "mallory"}
    rewrite([rows[seq - 1]])
    found = chain(game)
    assert not found.ok and found.first_bad_seq == seq
    assert found.reason == "content does not match its hash"


@pytest.mark.django_db
def test_every_row_rehashed_but_the_sealed_head_left_is_refused_at_game_ended(game):
    """The forgery the chain_head check exists for (event_store.verify_chain): every link is
    consistent, only the head sealed into game_ended still names the true chain."""
    rows = forged(game, seq=seat_taken_seq(game), reseal=False)
    rewrite(rows)
    last = rows[-1]
    assert last.type == ev.GAME_ENDED
    assert all(b.prev_hash == a.hash for a, b in zip(rows, rows[1:], strict=False))
    found = chain(game)
    assert not found.ok and found.first_bad_seq == last.seq
    assert found.reason == "the sealed chain head does not match"
    audit = APIClient().get(f"/api/games/{game}/audit/").json()
    assert not audit["chain_ok"] and audit["first_bad_seq"] == last.seq


@pytest.mark.django_db
def test_a_resealed_forgery_passes_the_chain_but_not_the_signature_nor_the_kept_head(game):
    """A chain checks itself only: rewritten whole, it is consistent again. What gives it away
    is what its forger cannot make: the service's signature of the end (issue 21: the audit
    then said chain_ok), and the head each player got with game_ended (docs/REPLAYS.md)."""
    kept = GameEvent.objects.filter(game_id=game).order_by("seq").last().data["chain_head"]
    rewrite(forged(game, seq=seat_taken_seq(game), reseal=True))
    assert chain(game).ok
    last = GameEvent.objects.filter(game_id=game).order_by("seq").last()
    assert last.data["chain_head"] != kept
    signature = verify_game(game).check("signature")
    assert not signature.ok and signature.first_bad_seq == last.seq
    audit = APIClient().get(f"/api/games/{game}/audit/").json()
    assert not audit["chain_ok"] and not audit["signature_ok"]
