"""Reads: views, event lists and lobby lists, always redacted for the caller (R23). Replays of
the past: replays/selectors.py. Reads are made from the public state; while a block window is
open, a caller who passed also sees his own sealed pass (games.sealing, R19). A read applies
no deadline: after one, the view's `deadline` is in the past until a worker or the next
command applies it (games.services)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games import event_store, sealing
from games.codec import state_from_json
from games.engine import GameState, redact_event, view_for
from games.errors import not_found
from games.models import GameEvent, GameProjection


def seat_of(state: GameState, user) -> int | None:
    """The caller's seat in this game, or None for a spectator."""
    if user is None or not user.is_authenticated:
        return None
    for seat, name in enumerate(state.names):
        if name == user.username and not state.bots[seat]:
            return seat
    return None


def seat_in(game_id: int, user) -> int | None:
    """The caller's seat in game `game_id` now (None: a spectator)."""
    return seat_of(current(game_id)[1], user)


def game_view(game_id: int, state: GameState, user, *, seq: int,
              deadline: datetime | None, replay: bool = False,
              reveal: bool = False) -> dict[str, Any]:  # fmt: skip
    """The caller's view of `state`, the public state at `seq` (a replay's: read-only)."""
    seat = seat_of(state, user)
    if not replay:  # R19: the caller's own sealed pass counts for him, nobody else's does
        state = sealing.seen_by(game_id, seq, state, seat)
    view = view_for(state, seat, reveal=reveal)
    if replay:  # a replay is read-only: nothing can be sent to the past
        view["legal"] = []
    return {"id": game_id, "seq": seq, **view,
            "deadline": event_store.iso(deadline) if deadline else None}  # fmt: skip


def current(game_id: int) -> tuple[GameProjection, GameState]:
    proj = GameProjection.objects.filter(game_id=game_id).first()
    if proj is None:
        raise not_found()
    return proj, state_from_json(proj.state)


def game_detail(game_id: int, user) -> dict[str, Any]:
    proj, state = current(game_id)
    return game_view(game_id, state, user, seq=proj.seq, deadline=proj.deadline_at)


def event_payload(row: GameEvent, state_now: GameState, viewer: Any) -> dict[str, Any]:
    data = redact_event(event_store.to_event(row), state_now, viewer)
    return {"seq": row.seq, "type": row.type, "at": event_store.iso(row.at), "data": data}


def game_events(game_id: int, user, *, after: int = 0) -> list[dict[str, Any]]:
    """Every event after `after`, redacted for the caller as the game is now. All of them: a
    client folds the list, so a silently cut one would be a wrong game (long games run to
    thousands of events). Read up to the seq of the state that redacts them: a row appended
    after that state was read would be judged against an older game (a pass that state
    does not know shows its seat while its window is open: R19)."""
    proj, state = current(game_id)
    viewer = seat_of(state, user)
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=after, seq__lte=proj.seq)
    rows = rows.order_by("seq")
    return [event_payload(row, state, viewer) for row in rows]


def lobby(status: str | None, *, variant: str | None = None,
          player: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The newest 200 games, filtered by status, variant and seated player."""
    rows = GameProjection.objects.order_by("-game_id")
    if status:
        rows = rows.filter(status=status)
    if variant:
        rows = rows.filter(variant=variant)
    if player:
        rows = rows.filter(game__seat_rows__user__username=player)
    return [
        {"id": p.game_id, "variant": p.variant, "seats": p.seats, "players": p.players,
         "status": p.status, "seq": p.seq, "winners": p.winners,
         "updated_at": event_store.iso(p.updated_at)}
        for p in rows[:200]
    ]  # fmt: skip
