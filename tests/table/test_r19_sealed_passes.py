"""R19 (issue 9, hole 2): how a sealed pass ends — the window closes the moment the last asked
player has passed, or at its deadline (R21), and then the sealed passes are appended as ordinary
events, in the order received, ahead of what closed the window, in one broadcast. A sealed pass
is final (R26), its retry gets its first answer, and bots answer a window at once, unseen."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.clock import runner
from games.core.models import GameProjection, SealedPass
from games.table import deadline, projections, publish
from replays.verification import verify_game
from tests.support.r19_window import HANDS, PASS, PLAY, open_window_game

NO_GREEN = [["C33", "C34", "C35"], ["C36", "C37", "C38"]]  # cannot block a green play


@pytest.fixture
def broadcasts(monkeypatch, django_capture_on_commit_callbacks):
    """Run each command's after-commit work here: every broadcast batch's (seq, type, seat)."""
    sent: list[list[tuple]] = []

    def record(game_id, rows, proj, sealed=()) -> None:
        sent.append([(r.seq, r.type, r.data.get("seat")) for r in rows])

    monkeypatch.setattr(publish, "broadcast", record)
    monkeypatch.setattr(deadline, "schedule", lambda game_id, proj: False)  # no worker here

    def committing(command):
        with django_capture_on_commit_callbacks(execute=True):
            return command()

    return sent, committing


def at(event: dict) -> datetime:
    return datetime.fromisoformat(event["at"])


def tail(window, after: int) -> list[tuple]:
    return [(e["type"], e["data"].get("seat")) for e in window.events(None, after)]


@pytest.mark.django_db
def test_r19_the_window_closes_as_soon_as_every_asked_player_passed(rigged, broadcasts):
    sent, committing = broadcasts
    window = open_window_game()
    opened = committing(lambda: window.send(0, PLAY)).json()["seq"]
    for seat in (1, 2):
        answer = committing(lambda seat=seat: window.send(seat, PASS, seq=opened))
        assert answer.status_code == 200 and answer.json()["seq"] == opened
    assert len(sent) == 1 and window.view(None)["seq"] == opened  # nothing told yet

    closed = committing(lambda: window.send(3, PASS, seq=opened))

    assert closed.status_code == 200 and closed.json()["view"]["phase"] == "play"
    told = window.events(None, opened)
    assert [(e["type"], e["data"].get("seat")) for e in told[:4]] == [
        ("block_passed", 1), ("block_passed", 2), ("block_passed", 3),
        ("block_window_closed", None)]  # fmt: skip
    assert at(told[0]) < at(told[1]) < at(told[2]) == at(told[3])  # each keeps when it came
    assert len(sent) == 2 and [seq for seq, *_ in sent[1]] == [e["seq"] for e in told]
    assert verify_game(window.gid).ok  # chain, rules: the log reads as it always did


@pytest.mark.django_db
def test_r21_the_deadline_appends_the_sealed_passes_then_the_timeout(rigged, broadcasts):
    sent, committing = broadcasts
    window = open_window_game()
    opened = committing(lambda: window.send(0, PLAY)).json()["seq"]
    committing(lambda: window.send(1, PASS, seq=opened))
    GameProjection.objects.filter(game_id=window.gid).update(
        deadline_at=timezone.now() - timedelta(seconds=1))  # fmt: skip

    acted = committing(lambda: runner.advance(window.gid, opened))

    assert acted == runner.ACTED
    told = window.events(None, opened)
    assert tail(window, opened)[:5] == [
        ("block_passed", 1), ("timed_out", None), ("block_passed", 2), ("block_passed", 3),
        ("block_window_closed", None)]  # fmt: skip
    assert told[1]["data"] == {"phase": "block", "seats": [2, 3]}  # seat 1 had answered
    assert at(told[0]) < at(told[1])
    assert len(sent) == 2 and len(sent[1]) == len(told)  # one broadcast, the pass in it
    assert verify_game(window.gid).ok


@pytest.mark.django_db
def test_r26_a_sealed_pass_is_final_and_its_retry_gets_the_first_answer(rigged):
    window = open_window_game()
    opened = window.send(0, PLAY).json()["seq"]
    first = window.send(1, PASS, seq=opened, key="pass-once")
    assert first.status_code == 200 and first.json()["view"]["legal"] == []

    retry = window.send(1, PASS, seq=opened, key="pass-once")
    again = window.send(1, PASS, seq=opened)
    block = window.send(1, {"type": "block", "card": "C26"}, seq=opened)

    assert retry.status_code == 200 and retry.json() == first.json()
    for refused in (again, block):
        assert refused.status_code == 409, refused.content
        assert refused.json()["error"]["code"] == "not_your_turn"  # R26, R35
    assert SealedPass.objects.filter(game_id=window.gid).count() == 1
    assert window.view(1)["legal"] == [] and window.view(2)["legal"][0] == PASS


@pytest.mark.django_db
def test_r19_bots_answer_a_window_at_once_and_unseen(rigged, broadcasts):
    sent, committing = broadcasts
    window = open_window_game(bots=(2, 3), hands=[*HANDS[:2], *NO_GREEN])
    played = committing(lambda: window.send(0, PLAY)).json()

    assert [types for _, types, _ in sent[-1]] == ["card_played"]  # no bot batch follows
    spectator = window.view(None)
    assert spectator["awaiting"] == [1, 2, 3] and spectator["seq"] == played["seq"]
    proj = GameProjection.objects.get(game_id=window.gid)
    assert proj.deadline_kind == "block"  # the bots have answered: only seat 1 is timed
    assert sorted(SealedPass.objects.filter(game_id=window.gid).values_list("seat", flat=True)) \
        == [2, 3]  # fmt: skip
    projections.rebuild_game(window.gid)  # a rebuild keeps the sealed passes and the deadline
    rebuilt = GameProjection.objects.get(game_id=window.gid)
    assert (rebuilt.deadline_kind, rebuilt.deadline_at) == ("block", proj.deadline_at)

    committing(lambda: window.send(1, PASS, seq=played["seq"]))

    told = window.events(None, played["seq"])
    assert tail(window, played["seq"])[:4] == [
        ("block_passed", 2), ("block_passed", 3), ("block_passed", 1),
        ("block_window_closed", None)]  # fmt: skip
    card = window.events(None, played["seq"] - 1)[0]
    assert at(told[0]) == at(told[1]) == at(card)  # the bots answered with the play itself
    assert verify_game(window.gid).ok
