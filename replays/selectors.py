"""Reads of the past: a game as it stood after any of its events, redacted for the caller."""

from __future__ import annotations

from typing import Any

from games.core.errors import ApiError
from games.core.event_store import state_at
from games.engine.errors import Code
from games.table.selectors import game_view
from games.table.spectating import last_seq_for

__all__ = ["replay", "state_at"]


def replay(game_id: int, user, *, at: int) -> dict[str, Any]:
    """The caller's view of the game right after event `at` (read-only: no `legal`).
    ApiError not_found for an unknown game, invalid for an `at` outside 1..the last seq the
    caller may see (a spectator of a delayed game: its shown seq, games.table.spectating)."""
    last, _, now = last_seq_for(game_id, user)
    if not 1 <= at <= last:
        raise ApiError(Code.INVALID, f"at must be a seq from 1 to {last}")
    state = state_at(game_id, at)
    assert state is not None  # None only before the first event, and at >= 1
    return game_view(
        game_id, state, user, seq=at, deadline=None, replay=True, reveal=now.status == "ended"
    )  # R23: after the end, all is public
