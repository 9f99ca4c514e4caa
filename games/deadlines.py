"""R21 in time: act when a pending decision's deadline passes, or when a bot is awaited.

`advance(game, seq)` is idempotent: it acts only if the game still stands at `seq` and the
deadline has passed, so a duplicate or late Celery delivery changes nothing, and an early one
only asks to come back when due. `sweep()` finds every overdue game; celery beat runs it
(deadlines beyond the broker's visibility timeout rely on it), and `make run` runs it in a
thread instead of Celery.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections
from django.utils import timezone

from games import notify
from games.errors import ApiError
from games.models import GameProjection

log = logging.getLogger(__name__)

ACTED, MOVED_ON, NOT_DUE = "acted", "moved_on", "not_due"


def advance(game_id: int, seq: int) -> str:
    """Apply the pending decision's timeout (R21) or the awaited bots' moves, if game
    `game_id` still stands at `seq` and its deadline has passed. Returns ACTED, MOVED_ON
    (no such game, another seq, nothing pending, or someone acted first) or NOT_DUE (early:
    the task is scheduled again for the deadline). Never raises for a stale or early call."""
    from games.services import game_bot_moves, game_timeout

    proj = GameProjection.objects.filter(game_id=game_id).only(
        "seq", "deadline_at", "deadline_kind").first()  # fmt: skip
    if proj is None or proj.seq != seq or proj.deadline_at is None:
        return MOVED_ON
    if proj.deadline_at > timezone.now():
        notify.schedule(game_id, proj)  # a no-op without Celery or beyond its horizon
        return NOT_DUE
    try:
        if proj.deadline_kind == "bot":
            game_bot_moves(game_id=game_id, expected_seq=seq)
        else:
            game_timeout(game_id=game_id, expected_seq=seq)
    except ApiError as err:  # someone acted first: nothing to do
        if err.code in ("stale_seq", "not_your_turn", "game_over", "illegal_move"):
            return MOVED_ON
        raise
    return ACTED


def sweep(limit: int = 200) -> int:
    """Advance every game whose deadline has passed; returns how many acted."""
    due = list(
        GameProjection.objects.filter(status="active", deadline_at__lte=timezone.now())
        .order_by("deadline_at")
        .values_list("game_id", "seq")[:limit]
    )
    return sum(advance(game_id, seq) == ACTED for game_id, seq in due)


def start_runner(interval: float = 0.2) -> threading.Thread:
    """The embedded deadline runner of `make run`: sweeps in a daemon thread."""

    def loop() -> None:
        while True:
            try:
                close_old_connections()
                while sweep():  # bots answer each other at once
                    pass
            except Exception:
                log.exception("deadline sweep failed")
            time.sleep(interval)

    thread = threading.Thread(target=loop, name="sejmi-deadlines", daemon=True)
    thread.start()
    return thread
