"""The event log is append-only and hash-chained: an edited row is found by the chain check
(with the first bad seq), and PostgreSQL refuses UPDATE and DELETE outright."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from rest_framework.test import APIClient

from games.core import event_store
from games.core.models import GameEvent
from games.engine import Event
from replays.verification import verify_game
from tests.support.db_roles import as_owner

# Two players with one life each: once seat 1 lets it pass, seat 0's red LOSE_1 on all
# ends the game at once (R17).
RIG = {"lives": [1, 1], "hands": [["C06", "C02", "C03"], ["C07", "C08", "C09"]], "first": 0}
TRIGGER = "games_event_append_only"


@pytest.fixture
def ended_game(make_player, settings) -> int:
    settings.SEJMI_ALLOW_RIGGED = True
    alice, bob = make_player(), make_player()
    gid = alice.post("/api/games/", {"seats": 2, "rig": RIG}, format="json").json()["id"]
    for client in (alice, bob):
        client.post(f"/api/games/{gid}/join/", {}, format="json")
    view = alice.get(f"/api/games/{gid}/").json()
    play = {"type": "play", "card": "C06", "effect": 1, "scope": "all", "target": None}
    answer = alice.post(f"/api/games/{gid}/commands/", {"expected_seq": view["seq"], **play},
                        format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    body = {"expected_seq": answer.json()["seq"], "type": "pass"}
    passed = bob.post(f"/api/games/{gid}/commands/", body, format="json")
    assert passed.json()["view"]["status"] == "ended"
    return gid


def sql(statement: str, params: list | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def tamper(statements: list[tuple[str, list]]) -> None:
    """Edit the log the way only the tables' owner could: with the trigger switched off."""
    with as_owner():
        sql("SET CONSTRAINTS ALL IMMEDIATE")  # the test's open transaction has deferred FKs
        sql(f"ALTER TABLE games_gameevent DISABLE TRIGGER {TRIGGER}")
        try:
            for statement, params in statements:
                sql(statement, params)
        finally:
            sql(f"ALTER TABLE games_gameevent ENABLE TRIGGER {TRIGGER}")
            sql("SET CONSTRAINTS ALL DEFERRED")


def first_bad(gid: int) -> int | None:
    report = event_store.verify_chain(event_store.load(gid))
    assert report.ok == (report.first_bad_seq is None)
    return report.first_bad_seq


def audit(gid: int) -> dict:
    return APIClient().get(f"/api/games/{gid}/audit/").json()


def where(gid: int, seq: int) -> str:
    return f"WHERE game_id = {int(gid)} AND seq = {int(seq)}"


@pytest.mark.django_db
def test_an_untouched_log_passes_the_chain_check(ended_game):
    assert first_bad(ended_game) is None
    report = audit(ended_game)
    assert report["chain_ok"] and report["replay_ok"] and report["seed_ok"] and report["rules_ok"]
    assert report["head_hash"] == GameEvent.objects.filter(game_id=ended_game).last().hash


@pytest.mark.django_db
def test_edited_data_is_found_at_its_seq(ended_game):
    tamper([(f"UPDATE games_gameevent SET data = %s {where(ended_game, 4)}",
             ['{"hands": [[], []], "draw": [], "lives": [6, 6], "shuffle": null}'])])  # fmt: skip
    assert first_bad(ended_game) == 4
    report = audit(ended_game)
    assert not report["chain_ok"] and report["first_bad_seq"] == 4
    assert not report["replay_ok"]  # the edit changes the game, too...
    assert not report["rules_ok"] and report["rules_first_bad_seq"] == 4  # ...against the seed


@pytest.mark.django_db
def test_the_report_names_each_failing_check_with_its_seq(ended_game):
    assert verify_game(ended_game).ok
    tamper([(f"DELETE FROM games_gameevent {where(ended_game, 6)}", [])])
    report = verify_game(ended_game)
    assert not report.ok
    assert [c.name for c in report.checks if not c.ok] == ["chain", "rederive", "rules", "replay"]
    assert "chain fails at seq 6: an event is missing" in report.summary()


@pytest.mark.django_db
def test_an_edited_hash_is_found_at_its_seq(ended_game):
    tamper([(f"UPDATE games_gameevent SET hash = %s {where(ended_game, 5)}", ["f" * 64])])
    assert first_bad(ended_game) == 5
    report = audit(ended_game)
    assert report["first_bad_seq"] == 5
    assert report["replay_ok"] and report["rules_ok"]  # the game itself is untouched


@pytest.mark.django_db
def test_an_edit_with_a_recomputed_hash_breaks_the_next_link(ended_game):
    row = GameEvent.objects.get(game_id=ended_game, seq=3)
    forged = {**row.data, "name": "mallory"}
    new_hash = event_store.event_hash(row.prev_hash, row.seq, row.type, row.v, forged, row.at)
    tamper([(f"UPDATE games_gameevent SET data = %s, hash = %s {where(ended_game, 3)}",
             [event_store.canonical_json(forged), new_hash])])  # fmt: skip
    assert first_bad(ended_game) == 4
    report = audit(ended_game)
    assert report["first_bad_seq"] == 4
    assert not report["replay_ok"]  # the stored game has another player in that seat


@pytest.mark.django_db
def test_a_deleted_row_is_found_at_its_seq(ended_game):
    tamper([(f"DELETE FROM games_gameevent {where(ended_game, 6)}", [])])
    assert first_bad(ended_game) == 6
    report = audit(ended_game)
    assert report["reason"] == "an event is missing" and report["first_bad_seq"] == 6
    assert not report["rules_ok"] and report["rules_first_bad_seq"] == 6


@pytest.mark.django_db
def test_two_swapped_seqs_are_found_at_the_first(ended_game):
    tamper([
        (f"UPDATE games_gameevent SET seq = 0 {where(ended_game, 7)}", []),
        (f"UPDATE games_gameevent SET seq = 7 {where(ended_game, 8)}", []),
        (f"UPDATE games_gameevent SET seq = 8 {where(ended_game, 0)}", []),
    ])  # fmt: skip
    assert first_bad(ended_game) == 7
    assert audit(ended_game)["rules_first_bad_seq"] == 7


@pytest.mark.django_db
def test_a_cut_off_tail_fails_the_replay_check_and_the_signed_end(ended_game):
    last = GameEvent.objects.filter(game_id=ended_game).count()
    tamper([(f"DELETE FROM games_gameevent {where(ended_game, last)}", [])])
    report = audit(ended_game)
    assert not report["replay_ok"]  # the stored game no longer follows from it, and a chain
    # alone cannot know its end, but the service signed it (issue 21): the signed head is gone
    assert not report["signature_ok"] and not report["chain_ok"]
    assert report["first_bad_seq"] == last


REFUSED = {
    "orm update": lambda gid: GameEvent.objects.filter(game_id=gid).update(type="x"),
    "orm save": lambda gid: _resave(GameEvent.objects.get(game_id=gid, seq=1)),
    "orm delete": lambda gid: GameEvent.objects.get(game_id=gid, seq=1).delete(),
    "orm queryset delete": lambda gid: GameEvent.objects.filter(game_id=gid).delete(),
    "raw update": lambda gid: sql(f"UPDATE games_gameevent SET v = 2 {where(gid, 2)}"),
    "raw delete": lambda gid: sql(f"DELETE FROM games_gameevent {where(gid, 2)}"),
}


def _resave(row: GameEvent) -> None:
    row.data = {"forged": True}
    row.save()


@pytest.mark.django_db
@pytest.mark.parametrize("how", list(REFUSED))
def test_postgresql_refuses_update_and_delete(ended_game, how):
    before = [(r.seq, r.type, r.data, r.hash) for r in event_store.load(ended_game)]
    with pytest.raises(DatabaseError, match="append-only"), as_owner(), transaction.atomic():
        REFUSED[how](ended_game)  # the triggers bind the owner too (the service has no grant)
    assert [(r.seq, r.type, r.data, r.hash) for r in event_store.load(ended_game)] == before


@pytest.mark.django_db
def test_appending_still_works_and_a_taken_seq_is_refused(ended_game):
    """The unique (game, seq) key is the final guard of optimistic concurrency."""
    head = GameEvent.objects.filter(game_id=ended_game).last()
    late = [Event("timed_out", {"phase": None, "seats": []})]
    with pytest.raises(IntegrityError), transaction.atomic():
        event_store.append(game_id=ended_game, head_seq=head.seq - 1, head_hash=head.prev_hash,
                           events=late, at=head.at)  # fmt: skip
    rows = event_store.append(game_id=ended_game, head_seq=head.seq, head_hash=head.hash,
                              events=late, at=head.at)  # fmt: skip
    assert rows[0].seq == head.seq + 1 and first_bad(ended_game) is None


@pytest.mark.django_db
def test_a_running_game_is_audited_by_staff_only(make_player):
    alice, bob = make_player(), make_player()
    gid = alice.post("/api/games/", {"seats": 2}, format="json").json()["id"]
    for client in (alice, bob):
        client.post(f"/api/games/{gid}/join/", {}, format="json")
    assert alice.get(f"/api/games/{gid}/audit/").status_code == 403  # R22: the seed is secret
    get_user_model().objects.filter(username=bob.username).update(is_staff=True)
    report = bob.get(f"/api/games/{gid}/audit/").json()
    assert report["chain_ok"] and report["replay_ok"] and report["rules_ok"]
