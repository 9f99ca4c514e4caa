"""The lobby list (GET /api/games/, the pages' lists): every caller's, with a delayed game a
caller only watches listed at its shown seq (games.table.spectating)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.core.models import GameEvent, GameProjection
from games.engine.state import ACTIVE
from games.table import selectors
from games.table.spectating import game_starts, shown_behind


def lobby(status: str | None, user, *, variant: str | None = None,
          player: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """GET /api/games/: a delayed game a caller only watches is listed at its shown seq (and
    that event's time), so the list does not tell more than the game's own view."""
    rows = selectors.lobby_rows(status, variant=variant, player=player)
    delayed = {p.game_id: p for p in rows if _delayed_row(p, user)}
    if not delayed:
        return [selectors.summary(p) for p in rows]
    ends = game_starts(list(delayed))
    seqs = {g: shown_behind(p.seq, _row_delay(p), ends.get(g)) for g, p in delayed.items()}
    ats = _event_times(seqs)
    return [selectors.summary(p, seq=seqs.get(p.game_id), updated_at=ats.get(p.game_id))
            for p in rows]  # fmt: skip


def _row_delay(p: GameProjection) -> int:
    options = p.state.get("options") or {}
    return options.get("spectator_delay", 0)  # a state stored before the option: 0 (live)


def _delayed_row(p: GameProjection, user) -> bool:
    if p.status != ACTIVE or _row_delay(p) == 0:
        return False
    if user is not None and user.is_authenticated:
        return not user.is_staff and user.username not in p.players  # "bot" is reserved
    return True


def _event_times(seqs: dict[int, int]) -> dict[int, datetime]:
    if not seqs:
        return {}
    rows = GameEvent.objects.filter(game_id__in=list(seqs), seq__in=set(seqs.values()))
    return {g: at for g, seq, at in rows.values_list("game_id", "seq", "at") if seqs[g] == seq}
