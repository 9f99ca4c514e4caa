"""Issue 32, item 10: `next_due` answers the earliest deadline of all active games. The runner's
tests had one game each, so `MAX(deadline_at)` for `MIN(deadline_at)` passed them all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.clock.runner import next_due
from games.core.models import GameProjection
from games.table import commands


@pytest.mark.django_db
def test_next_due_is_the_earliest_deadline_of_several_games():
    """Mutant: MIN → MAX in next_due's statement → the latest deadline (fails here)."""
    host = get_user_model().objects.create_user("host")
    games = [commands.game_create(user=host, seats=2, options={"bots": [1]}).game_id
             for _ in range(3)]  # fmt: skip
    now = timezone.now()
    for minutes, gid in zip((30, 5, 90), games, strict=True):
        GameProjection.objects.filter(game_id=gid).update(
            status="active", deadline_at=now + timedelta(minutes=minutes), deadline_kind="turn"
        )
    GameProjection.objects.filter(game_id=games[2]).update(status="ended")  # not counted
    assert next_due().deadline == now + timedelta(minutes=5)
