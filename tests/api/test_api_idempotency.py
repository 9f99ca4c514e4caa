"""Idempotency-Key (API.md): a retried command returns its first answer and appends nothing;
the same key with another body is refused; keys belong to one user and one game."""

from __future__ import annotations

import pytest

from games.core.models import IdempotentAnswer
from tests.support.api import (
    Table,
    event_count,
    open_table,
    send,
)


def kostic_and_play(table) -> tuple[int, dict]:
    """The Kostič's seat and a legal play body with the current expected_seq."""
    kostic = table.seats[0].get(table.url()).json()["kostic"]
    mine = table.seats[kostic].get(table.url()).json()
    return kostic, {"expected_seq": mine["seq"], **mine["legal"][0]}


@pytest.mark.django_db
def test_a_retry_with_the_same_key_returns_the_first_answer_and_appends_nothing(make_player):
    table = open_table(make_player, 3)
    kostic, body = kostic_and_play(table)
    first = send(table.seats[kostic], table.gid, body, key="k-1")
    assert first.status_code == 200, first.content
    count = event_count(table.gid)
    again = send(table.seats[kostic], table.gid, body, key="k-1")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert event_count(table.gid) == count == first.json()["seq"]


@pytest.mark.django_db
def test_a_retry_after_the_game_moved_on_still_gets_the_first_answer(make_player):
    table = open_table(make_player, 3)
    kostic, body = kostic_and_play(table)
    first = send(table.seats[kostic], table.gid, body, key="late")
    seq = first.json()["seq"]
    for other in first.json()["view"]["awaiting"]:  # both pass: the window closes (R19)
        passed = send(table.seats[other], table.gid, {"expected_seq": seq, "type": "pass"})
        assert passed.status_code == 200, passed.content
    count = event_count(table.gid)
    assert count > seq  # the game moved on
    late = send(table.seats[kostic], table.gid, body, key="late")
    assert late.status_code == 200, late.content  # not stale_seq: it is the same request
    assert late.json() == first.json()
    assert event_count(table.gid) == count


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_an_idempotency_mismatch(make_player):
    table = open_table(make_player, 3)
    kostic, body = kostic_and_play(table)
    assert send(table.seats[kostic], table.gid, body, key="once").status_code == 200
    count = event_count(table.gid)
    for changed in ({**body, "expected_seq": body["expected_seq"] + 1},
                    {"expected_seq": event_count(table.gid), "type": "pass"}):  # fmt: skip
        answer = send(table.seats[kostic], table.gid, changed, key="once")
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "idempotency_mismatch"
    assert event_count(table.gid) == count


@pytest.mark.django_db
def test_a_key_reused_for_a_command_that_would_land_is_a_mismatch_and_appends_nothing(make_player):
    """The unique (user, game, key) row is the guard, not a read before the command: a body
    that is legal now, under a key already spent, is refused and leaves nothing behind."""
    table = open_table(make_player, 2)
    kostic, body = kostic_and_play(table)
    assert send(table.seats[kostic], table.gid, body, key="spent").status_code == 200
    for _ in range(60):
        view = table.seats[0].get(table.url()).json()
        assert view["status"] == "active"
        seat = next(s for s in view["awaiting"]
                    if table.seats[s].get(table.url()).json()["legal"])  # fmt: skip
        mine = table.seats[seat].get(table.url()).json()
        again = {"expected_seq": mine["seq"], **mine["legal"][0]}
        if seat == kostic:
            count = event_count(table.gid)
            answer = send(table.seats[kostic], table.gid, again, key="spent")
            assert answer.status_code == 422, answer.content
            assert answer.json()["error"]["code"] == "idempotency_mismatch"
            assert event_count(table.gid) == count
            assert table.seats[kostic].get(table.url()).json()["legal"] == mine["legal"]
            assert send(table.seats[kostic], table.gid, again, key="fresh").status_code == 200
            return
        assert send(table.seats[seat], table.gid, again).status_code == 200
    raise AssertionError("the first player was never asked again")


@pytest.mark.django_db
def test_keys_belong_to_one_user(make_player):
    """Another seat's command under the same key is its own command, not the first answer."""
    table = open_table(make_player, 3)
    kostic, body = kostic_and_play(table)
    first = send(table.seats[kostic], table.gid, body, key="shared").json()
    other = next(seat for seat in first["view"]["awaiting"] if seat != kostic)
    mine = send(table.seats[other], table.gid, {"expected_seq": first["seq"], "type": "pass"},
                key="shared")  # fmt: skip
    assert mine.status_code == 200, mine.content
    assert mine.json()["view"]["you"] == other and mine.json()["view"]["legal"] == []
    assert mine.json()["seq"] == first["seq"]  # a pass that leaves the window open is sealed
    assert IdempotentAnswer.objects.filter(game_id=table.gid, key="shared").count() == 2


@pytest.mark.django_db
def test_keys_belong_to_one_game(make_player, settings):
    settings.SEJMI_ALLOW_RIGGED = True
    alice, bob = make_player(), make_player()
    tables = []
    for _ in range(2):  # the same two players at two tables, alice the first Kostič of both
        created = alice.post("/api/games/", {"seats": 2, "rig": {"first": 0}}, format="json")
        table = Table(created.json()["id"], [alice, bob])
        for client in table.seats:
            assert client.post(table.url("join/"), {}, format="json").status_code == 200
        tables.append(table)
    answers = []
    for table in tables:
        _, body = kostic_and_play(table)
        answers.append(send(alice, table.gid, body, key="everywhere"))
    assert [a.status_code for a in answers] == [200, 200]
    assert [a.json()["view"]["id"] for a in answers] == [t.gid for t in tables]
    assert [event_count(t.gid) for t in tables] == [a.json()["seq"] for a in answers]


@pytest.mark.django_db
def test_a_refused_command_is_not_remembered(make_player):
    """Only a command that landed is stored: a refusal under a key stores no answer."""
    table = open_table(make_player, 2)
    kostic, body = kostic_and_play(table)
    stale = {**body, "expected_seq": body["expected_seq"] - 1}
    refused = send(table.seats[kostic], table.gid, stale, key="try")
    assert refused.json()["error"]["code"] == "stale_seq"
    assert not IdempotentAnswer.objects.filter(game_id=table.gid).exists()
