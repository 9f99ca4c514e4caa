"""Deadlines without the worker (issue 9, hole 3; R21): a command that arrives after its
decision's deadline first applies the timeout, in the same transaction, and is then judged
against the new state — refused with stale_seq, since the timeout's events landed first, and
those stay committed. A read applies nothing: its `deadline` is simply in the past. No Celery
worker and no sweeper run in these tests (SEJMI_SEND_TASKS off): only the commands act."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from django.utils import timezone

from games.core.models import IdempotentAnswer
from tests.support.r19_window import PASS, PLAY, open_window_game

FAST = {"block_window_s": 1, "turn_deadline_s": 1}


@pytest.fixture
def no_worker(settings):
    settings.SEJMI_ALLOW_RIGGED = True
    settings.SEJMI_SEND_TASKS = False  # nothing is scheduled: no task, no sweep


def wait_past(deadline: str) -> None:
    due = datetime.fromisoformat(deadline)
    while timezone.now() <= due:
        time.sleep(0.05)


def types(events: list[dict]) -> list[tuple]:
    return [(e["type"], e["data"].get("seat")) for e in events]


def refused_as_stale(answer) -> None:
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"]["code"] == "stale_seq"


@pytest.mark.django_db(transaction=True)
def test_r21_a_pass_after_the_window_deadline_applies_the_timeout_first(no_worker):
    window = open_window_game(options={**FAST, "turn_deadline_s": 3600})
    played = window.send(0, PLAY).json()
    assert window.send(1, PASS, seq=played["seq"]).status_code == 200  # in time: sealed (R19)
    wait_past(played["view"]["deadline"])
    late_read = window.view(2)  # a read applies nothing: the deadline is just past
    assert late_read["seq"] == played["seq"] and late_read["phase"] == "block"

    late = window.send(2, PASS, seq=played["seq"], key="late-pass")

    refused_as_stale(late)
    told = window.events(None, played["seq"])
    assert types(told)[:5] == [("block_passed", 1), ("timed_out", None), ("block_passed", 2),
                               ("block_passed", 3), ("block_window_closed", None)]  # fmt: skip
    assert told[1]["data"] == {"phase": "block", "seats": [2, 3]}
    assert datetime.fromisoformat(told[1]["at"]) >= datetime.fromisoformat(
        played["view"]["deadline"])  # fmt: skip
    assert window.view(None)["phase"] == "play"  # the timeout stayed committed
    assert not IdempotentAnswer.objects.filter(game_id=window.gid).exists()  # refused: no answer


@pytest.mark.django_db(transaction=True)
def test_r21_a_play_after_the_turn_deadline_finds_the_bot_played_for_the_kostic(no_worker):
    window = open_window_game(options=FAST)
    before = window.view(0)
    wait_past(before["deadline"])

    late = window.send(0, PLAY, seq=before["seq"])

    refused_as_stale(late)
    told = window.events(None, before["seq"])
    assert told[0]["type"] == "timed_out" and told[0]["data"] == {"phase": "play", "seats": [0]}
    assert told[1]["type"] == "card_played" and told[1]["data"]["seat"] == 0  # R21: the bot's
    after = window.view(0)
    assert after["seq"] == told[-1]["seq"] and after["phase"] == "block"
    assert datetime.fromisoformat(after["deadline"]) > timezone.now()  # a new window, timed anew


@pytest.mark.django_db
def test_a_command_before_its_deadline_is_unaffected(no_worker):
    window = open_window_game(options={**FAST, "block_window_s": 3600})
    played = window.send(0, PLAY).json()
    passed = window.send(1, PASS, seq=played["seq"])
    assert passed.status_code == 200 and passed.json()["seq"] == played["seq"]
    closing = [window.send(seat, PASS, seq=played["seq"]) for seat in (2, 3)]
    assert [answer.status_code for answer in closing] == [200, 200]
    told = types(window.events(None, played["seq"]))
    assert told[:4] == [("block_passed", 1), ("block_passed", 2), ("block_passed", 3),
                        ("block_window_closed", None)]  # fmt: skip
    assert ("timed_out", None) not in told
