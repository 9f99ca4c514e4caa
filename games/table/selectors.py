"""Reads: views, event lists and lobby lists, always redacted for the caller (R23); the state
at any seq is games.core.event_store's `state_at`. What a spectator of a delayed game may see of
them: games/table/spectating.py; replays of the past: replays/selectors.py. Reads are made from
the public state; while a block window is open, a caller who passed also sees his own sealed
pass (games.core.sealed_passes, R19). A read applies no deadline: after one, the view's
`deadline` is in the past until a worker or the next command applies it (games.table.commit)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.core import event_store, sealed_passes
from games.core.codec import iso, state_from_json
from games.core.errors import not_found
from games.core.models import GameEvent, GameProjection, HeadSignature
from games.engine import GameState, redact_event, view_for
from games.engine.state import ENDED
from games.table import duplicates, projections


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


LOOK_UP: Any = object()  # game_view's signed_head: read it (one statement)


def signed_head(seq: int, head_hash: str, row_signature: str) -> dict[str, Any]:
    """A view's `signed_head` (docs/INTEGRITY.md, issue 32): the service's Ed25519 signature
    of the bytes `sejmi-head:v1:<seq>:<hash>`, checkable by the key of GET /api/signing-key/."""
    key_id, _, signature = row_signature.partition(":")
    return {"seq": seq, "hash": head_hash, "key_id": key_id, "signature": signature}


def signed_head_at(game_id: int, seq: int) -> dict[str, Any] | None:
    """The latest head the service signed at or before `seq` (every batch's last row carries
    its signature; heads older than issue 32 a HeadSignature row); None: none yet."""
    memo = event_store.signed_here(game_id, seq)
    if memo is not None:
        return signed_head(*memo)
    row = (GameEvent.objects.filter(game_id=game_id, seq__lte=seq, head_signature__isnull=False)
           .order_by("-seq").values_list("seq", "hash", "head_signature").first())  # fmt: skip
    if row is not None and row[0] == seq:
        return signed_head(row[0], row[1], row[2] or "")
    old = (HeadSignature.objects.filter(game_id=game_id, seq__lte=seq).order_by("-seq")
           .values_list("seq", "head_hash", "key_id", "signature").first())  # fmt: skip
    if old is not None and (row is None or old[0] > row[0]):
        return signed_head(old[0], old[1], f"{old[2]}:{old[3]}")
    return signed_head(row[0], row[1], row[2] or "") if row is not None else None


def head_of(proj: GameProjection) -> dict[str, Any] | None | Any:
    """The signed head of a projection read by `current` (its head row's signature came with
    it: no statement), or LOOK_UP when that row carries none (a legacy or sealed head)."""
    _, row_signature = getattr(proj, "head_row", (None, None))
    if row_signature:
        return signed_head(proj.seq, proj.head_hash, row_signature)
    return LOOK_UP


def game_view(game_id: int, state: GameState, user, *, seq: int,
              deadline: datetime | None, replay: bool = False,
              reveal: bool = False, delayed: bool = False,
              signed_head: dict[str, Any] | None | Any = LOOK_UP) -> dict[str, Any]:  # fmt: skip
    """The caller's view of `state`, the public state at `seq` (a replay's: read-only;
    `delayed`: a spectator's view of the past, games.table.spectating). Its `signed_head` is
    the latest the service signed at or before `seq` (a caller that read it passes it)."""
    seat = seat_of(state, user)
    if not replay:  # R19: the caller's own sealed pass counts for him, nobody else's does
        state = sealed_passes.seen_by(game_id, seq, state, seat)
    view = view_for(state, seat, reveal=reveal)
    if (reveal or state.status == ENDED) and duplicates.deal_open(game_id):
        duplicates.hide_in_view(view)  # another table still plays this deal
    view["tournament"] = duplicates.tournament_of(game_id)
    if replay:  # a replay is read-only: nothing can be sent to the past
        view["legal"] = []
    if signed_head is LOOK_UP:
        signed_head = signed_head_at(game_id, seq)
    return {"id": game_id, "seq": seq, **view,
            "deadline": iso(deadline) if deadline else None,
            "delayed": delayed, "signed_head": signed_head}  # fmt: skip


def current(game_id: int) -> tuple[GameProjection, GameState]:
    """The projection and its state; the head row's signature comes in the same statement
    (`proj.head_row`: a view's `signed_head`, `head_of`)."""
    proj = projections.read_head(game_id)
    if proj is None:
        raise not_found()
    return proj, state_from_json(proj.state)


def event_payload(row: GameEvent, state_now: GameState, viewer: Any) -> dict[str, Any]:
    data = redact_event(event_store.to_event(row), state_now, viewer)
    return {"seq": row.seq, "type": row.type, "at": iso(row.at), "data": data}


def events_between(game_id: int, after: int, upto: int, state: GameState,
                   viewer: Any) -> list[dict[str, Any]]:  # fmt: skip
    """The events (after, upto], redacted for `viewer` as `state` (the game at `upto` or
    later) judges them."""
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=after, seq__lte=upto)
    if state.status == ENDED and duplicates.deal_open(game_id):
        state = duplicates.as_running(state)  # another table still plays this deal
    return duplicates.hide_in_events(
        game_id, [event_payload(row, state, viewer) for row in rows.order_by("seq")]
    )


def lobby_rows(status: str | None, *, variant: str | None = None,
               player: str | None = None) -> list[GameProjection]:  # fmt: skip
    """The newest 200 games, filtered by status, variant and seated player."""
    rows = GameProjection.objects.order_by("-game_id")
    if status:
        rows = rows.filter(status=status)
    if variant:
        rows = rows.filter(variant=variant)
    if player:
        rows = rows.filter(game__seat_rows__user__username=player)
    return list(rows[:200])


def summary(p: GameProjection, *, seq: int | None = None,
            updated_at: datetime | None = None) -> dict[str, Any]:  # fmt: skip
    """A game in a list: at its present, or at `seq` (of `updated_at`) for a delayed caller."""
    return {"id": p.game_id, "variant": p.variant, "seats": p.seats, "players": p.players,
            "status": p.status, "seq": p.seq if seq is None else seq, "winners": p.winners,
            "updated_at": iso(updated_at or p.updated_at)}  # fmt: skip
