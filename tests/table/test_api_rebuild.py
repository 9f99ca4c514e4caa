"""`manage.py rebuild_projections` drops every read model and rebuilds it from the events
alone; the result is identical to what the live path built (issue 3, projections)."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from tests.support.api import (
    open_table,
    play_to_end,
    step,
)
from tests.support.read_models import read_models


@pytest.mark.django_db
def test_rebuilding_the_projections_gives_identical_read_models(make_player, capsys):
    rnd = random.Random(8)
    finished = [open_table(make_player, n) for n in (2, 3)]
    for table in finished:
        play_to_end(table, rnd)
    midway = open_table(make_player, 4, "pairs_extreme")
    view = None
    for _ in range(25):
        view = step(midway, rnd, view)
    host = finished[0].seats[0]  # a winner or loser of an ended game also waits in a lobby
    host.post("/api/games/", {"seats": 3, "options": {"bots": [2]}}, format="json")

    live = read_models()
    assert len(live["projections"]) == 4
    assert live["snapshots"] and live["seats"] and live["stats"]
    assert {p["status"] for p in live["projections"]} == {"lobby", "active", "ended"}

    call_command("rebuild_projections")
    assert "rebuilt 4 games" in capsys.readouterr().out
    assert read_models() == live
