"""Play on from a moment of a finished game (issue 30; API.md, "Play on from a moment, notes
and odds"): a fork is created as any new game is (games.table.commands.game_create_from), its
first event `forked` made by the engine (games/engine/fork.py) from the source's state at `at`."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core import event_store
from games.core.codec import iso
from games.core.errors import ApiError
from games.core.models import GameEvent
from games.engine import IllegalCommand, new_seed
from games.engine.errors import Code
from games.engine.fork import BOT, DEALS, can_fork, fork_game
from games.engine.state import ENDED
from games.forks.models import Fork
from games.table import commands, selectors
from games.table.commit import Committed

ME, SEAT_BOT, OPEN = "me", "bot", "open"
SEAT_KINDS = (ME, SEAT_BOT, OPEN)


def not_over() -> ApiError:
    return ApiError(Code.GAME_NOT_OVER, "the game is still being played")


def fork_create(*, user, game_id: int, at: Any, seats: Any, deal: Any) -> Committed:
    """POST /api/games/{id}/forks/: a new game from the source's state right after event
    `at`. 404 for an unknown game; 409 game_not_over while it runs (for everyone: no one may
    learn a live game's future this way); 400 invalid for a bad `at`, seat list or deal."""
    proj, now = selectors.current(game_id)
    if now.status != ENDED:
        raise not_over()
    if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= proj.seq:
        raise ApiError(Code.INVALID, f"at is a seq from 1 to {proj.seq}")
    if not isinstance(seats, list) or len(seats) != now.n:
        raise ApiError(Code.INVALID, f"seats lists one of me, bot, open for each of {now.n} seats")
    if any(not isinstance(kind, str) or kind not in SEAT_KINDS for kind in seats):
        raise ApiError(Code.INVALID, "a seat is me, bot or open")
    if seats.count(ME) > 1:
        raise ApiError(Code.INVALID, "you take one seat of a fork (me at most once)")
    if deal not in DEALS:
        raise ApiError(Code.INVALID, "deal is same or fresh")
    there = event_store.state_at(game_id, at)
    if there is None or not can_fork(there):
        raise ApiError(Code.INVALID, "at must be a moment where the game was being played")
    head = GameEvent.objects.values_list("hash", flat=True).get(game_id=game_id, seq=at)
    players = [user.username if kind == ME else BOT if kind == SEAT_BOT else None
               for kind in seats]  # fmt: skip
    seed = new_seed()
    try:
        events, state = fork_game(there, seed=seed, players=players, deal=deal,
                                  origin={"game": game_id, "at": at, "hash": head})  # fmt: skip
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    with transaction.atomic():
        done = commands.game_create_from(user=user, seed=seed, events=events, state=state)
        Fork.objects.create(game_id=done.game_id, source_id=game_id, at=at, deal=deal,
                            created_by=user, created_at=timezone.now())  # fmt: skip
    return done


def fork_list(game_id: int) -> list[dict[str, Any]]:
    """GET /api/games/{id}/forks/: the game's forks, oldest first (404 for an unknown game)."""
    selectors.current(game_id)
    rows = Fork.objects.filter(source_id=game_id).select_related("game__projection",
                                                                 "created_by")  # fmt: skip
    return [{"game": row.game_id, "at": row.at, "deal": row.deal,
             "by": row.created_by.username, "created_at": iso(row.created_at),
             "status": row.game.projection.status, "players": row.game.projection.players}
            for row in rows.order_by("game_id")]  # fmt: skip
