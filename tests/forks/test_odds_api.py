"""Odds turn by turn (issue 30; API.md, "Play on from a moment, notes and odds"): only of an
ended game (409 game_not_over before), 202 pending until the background task has computed
them, then the stored answer: a point at the start of every turn, each seat's chance 0..1."""

from __future__ import annotations

from django.test import TestCase
from rest_framework.test import APIClient

from games.core.models import GameEvent
from games.engine.odds import PLAYOUTS
from games.odds import services
from games.odds.models import GameOdds
from tests.support.api import open_table


def test_odds_of_a_running_game_are_refused_and_nothing_is_stored(make_player):
    table = open_table(make_player, seats=3)
    answer = APIClient().get(table.url("odds/"))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_not_over"
    assert GameOdds.objects.count() == 0
    assert APIClient().get("/api/games/999999/odds/").status_code == 404


def test_the_first_read_sends_the_task_then_the_computed_odds_are_served(finished_trio):
    table = finished_trio
    with TestCase.captureOnCommitCallbacks(execute=False) as sent:
        first = APIClient().get(table.url("odds/"))
    assert first.status_code == 202 and first.json() == {"status": "pending"}
    assert len(sent) == 1  # the task goes after COMMIT, never on the request path
    assert APIClient().get(table.url("odds/")).status_code == 202  # not sent twice
    assert services.compute(table.gid) == "computed"  # what the task does
    answer = APIClient().get(table.url("odds/"))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["playouts"] == PLAYOUTS >= 100
    turns = list(GameEvent.objects.filter(game_id=table.gid, type="turn_started")
                 .order_by("seq").values_list("seq", flat=True))  # fmt: skip
    assert [p["seq"] for p in body["points"]] == turns
    for point in body["points"]:
        assert len(point["win"]) == 3 and all(0 <= p <= 1 for p in point["win"])
    assert sum(body["points"][0]["win"]) >= 0.99  # somebody wins every playout
    row = GameOdds.objects.get(game_id=table.gid)
    assert row.cpu_seconds is not None and row.cpu_seconds > 0
    assert services.compute(table.gid) == "done"  # computed once
