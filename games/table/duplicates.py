"""Duplicate deals (API.md, Tournaments: `duplicate_deals`): games that share a deal (the same
seed, `GameContext.deal`) keep it secret while any of them still plays. An ended game of such a
group shows no seed and no hands (view, replay, events, socket) and refuses its audit, export
and transcript until the last game of its deal has ended; then all is public, as any ended
game's (R22, R23).

`context(game_id)` is what a game is part of (a tournament's round), cached per process: it is
written in the transaction that creates the game and never changes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core.errors import ApiError
from games.core.models import GameProjection
from games.engine import GameState
from games.engine.errors import Code
from games.engine.events import GAME_ENDED
from games.engine.state import ACTIVE
from games.table.models import GameContext


@lru_cache(maxsize=8192)
def context(game_id: int) -> tuple[int, str, int, str | None] | None:
    """(tournament id, its name, round, deal) of game `game_id`, or None."""
    row = (GameContext.objects.filter(game_id=game_id)
           .values_list("tournament_id", "tournament_name", "round", "deal").first())  # fmt: skip
    return tuple(row) if row else None  # type: ignore[return-value]


def tournament_of(game_id: int) -> dict[str, Any] | None:
    """The view's `"tournament"`: {"id", "name", "round"} or None."""
    found = context(game_id)
    return {"id": found[0], "name": found[1], "round": found[2]} if found else None


def deal_open(game_id: int) -> bool:
    """Whether another game of this game's deal still plays."""
    found = context(game_id)
    if found is None or found[3] is None:
        return False
    siblings = GameContext.objects.filter(deal=found[3]).exclude(game_id=game_id)
    return (GameProjection.objects.filter(game_id__in=siblings.values("game_id"))
            .exclude(status="ended").exists())  # fmt: skip


def as_running(state: GameState) -> GameState:
    """The ended state judged as if still played: event redaction then hides what a running
    game hides (the deal's hands and draw pile, others' draws: R23)."""
    copy = state.copy()
    copy.status = ACTIVE
    return copy


def hide_in_view(view: dict[str, Any]) -> dict[str, Any]:
    view["seed"] = None
    view["hands"] = None
    return view


def hide_in_events(game_id: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with the game_ended's seed blanked while the deal is still played."""
    if not any(e.get("type") == GAME_ENDED for e in events) or not deal_open(game_id):
        return events
    return [{**e, "data": {**e["data"], "seed": None}} if e.get("type") == GAME_ENDED else e
            for e in events]  # fmt: skip


def refuse_while_open(game_id: int) -> None:
    """Audit, export, transcript: refused (forbidden) while the deal is still played."""
    if deal_open(game_id):
        raise ApiError(
            Code.FORBIDDEN,
            "this game's deal is still played at another table of its tournament: "
            "its record opens when that ends",
        )
