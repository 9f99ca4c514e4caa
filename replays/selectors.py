"""Reads of the past: a game as it stood after any of its events, redacted for the caller."""

from __future__ import annotations

from typing import Any

from games.codec import state_from_json
from games.engine import Event, GameState, fold
from games.engine.errors import Code
from games.errors import ApiError
from games.models import GameEvent, GameSnapshot
from games.selectors import current, game_view


def state_at(game_id: int, seq: int) -> GameState:
    """The state right after event `seq`: the nearest snapshot, then the events after it.
    Both are read as plain values, not model instances (a third faster; replays fold up to
    SNAPSHOT_EVERY - 1 events per request)."""
    snap = (GameSnapshot.objects.filter(game_id=game_id, seq__lte=seq).order_by("-seq")
            .values_list("seq", "state").first())  # fmt: skip
    start, base = (snap[0], state_from_json(snap[1])) if snap else (0, None)
    rows = (GameEvent.objects.filter(game_id=game_id, seq__gt=start, seq__lte=seq)
            .order_by("seq").values_list("type", "data", "v"))  # fmt: skip
    return fold([Event(type_, data, v) for type_, data, v in rows], base)


def replay(game_id: int, user, *, at: int) -> dict[str, Any]:
    """The caller's view of the game right after event `at` (read-only: no `legal`).
    ApiError not_found for an unknown game, invalid for an `at` outside 1..seq."""
    proj, now = current(game_id)
    if not 1 <= at <= proj.seq:
        raise ApiError(Code.INVALID, f"at must be a seq from 1 to {proj.seq}")
    state = state_at(game_id, at)
    return game_view(
        game_id, state, user, seq=at, deadline=None, replay=True, reveal=now.status == "ended"
    )  # R23: after the end, all is public
