"""Every read model as plain data, to compare the live path's with a rebuild's (the rebuild and
away tests)."""

from __future__ import annotations

from django.forms.models import model_to_dict

from games.core.models import GameProjection, GameSnapshot
from games.table.models import PlayerSeat, PlayerStats


def read_models() -> dict:
    """Every projection row, without the surrogate ids a rebuild may renumber."""
    return {
        "projections": [model_to_dict(p) for p in GameProjection.objects.order_by("game_id")],
        "snapshots": [
            (s.game_id, s.seq, s.state) for s in GameSnapshot.objects.order_by("game_id", "seq")
        ],
        "seats": sorted(PlayerSeat.objects.values_list("game_id", "seat", "user_id")),
        "stats": sorted(PlayerStats.objects.values_list("user_id", "games", "wins")),
    }
