"""Each seat's odds turn by turn for a finished game (issue 30; API.md, "Play on from a
moment, notes and odds"): the engine's playouts (games/engine/odds.py), computed once by a
task, never on the request path. The first GET of an ended game's odds inserts a pending row
and sends the task after COMMIT (202 pending until it is done); later GETs read the row. A
pending row older than RESEND_AFTER (a worker lost the task) is sent again. Without Celery
(`make run`) the task runs in a thread of the web process instead."""

from __future__ import annotations

import logging
import random
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.core import event_store, task_queue
from games.core.errors import ApiError
from games.engine.errors import Code
from games.engine.odds import PLAYOUTS, turn_odds
from games.engine.state import ENDED
from games.odds.models import GameOdds
from games.table import selectors

log = logging.getLogger(__name__)

ODDS_TASK = "games.tasks.odds"
RESEND_AFTER = timedelta(minutes=10)
PENDING = {"status": "pending"}


def odds_get(game_id: int) -> tuple[int, dict[str, Any]]:
    """(status, body) for GET /api/games/{id}/odds/: 200 the odds, 202 pending; 404 for an
    unknown game, 409 game_not_over while it runs."""
    proj, _ = selectors.current(game_id)
    if proj.status != ENDED:
        raise ApiError(Code.GAME_NOT_OVER, "odds are computed once the game has ended")
    row = GameOdds.objects.filter(game_id=game_id).first()
    if row is not None and row.points is not None:
        return 200, {"playouts": row.playouts, "points": row.points}
    now = timezone.now()
    if row is None or now - row.requested_at > RESEND_AFTER:
        with transaction.atomic():
            GameOdds.objects.update_or_create(game_id=game_id, defaults={
                "requested_at": now, "playouts": PLAYOUTS})  # fmt: skip
            transaction.on_commit(lambda: _send(game_id))
    return 202, dict(PENDING)


def _send(game_id: int) -> None:
    if settings.SEJMI_SEND_TASKS:
        task_queue.send(ODDS_TASK, game_id)
        return
    # `make run`: no Celery; the playouts run beside the requests, in a thread of their own.
    threading.Thread(target=_in_thread, args=(game_id,), daemon=True, name="odds").start()


def _in_thread(game_id: int) -> None:
    try:
        compute(game_id)
    except Exception:
        log.exception("the odds of game %s failed", game_id)
    finally:
        connection.close()  # this thread's own connection: the thread ends here


def compute(game_id: int) -> str:
    """The task's work: the playouts of an ended game's every turn, stored (idempotent: a
    computed row is left as it is)."""
    row = GameOdds.objects.filter(game_id=game_id).first()
    if row is None or row.points is not None:
        return "done"
    events = [event_store.to_event(r) for r in event_store.load(game_id)]
    started = time.process_time()
    points = turn_odds(events, row.playouts, random.Random(f"odds:{game_id}"))
    cpu = time.process_time() - started
    GameOdds.objects.filter(game_id=game_id, points__isnull=True).update(
        points=points, cpu_seconds=round(cpu, 3), computed_at=timezone.now())  # fmt: skip
    return "computed"
