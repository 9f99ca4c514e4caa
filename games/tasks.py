"""How deadlines run: Celery's tasks, and the thread of `make run`. Thin: each calls
games.table.deadline with the service layer's `ACTIONS`; this is the one module that imports both
(games.table.deadline sits below games.table.commands: see its docstring).

`advance` is scheduled at commit with an ETA at the deadline (games.table.deadline.schedule); `sweep`
runs from celery beat (settings.CELERY_BEAT_SCHEDULE) and is the guarantee behind it.
"""

import threading

from celery import shared_task

from games.table import away
from games.table import deadline
from games.table import commands
from games.table import vacations
from games.notifications import runner as notifications
from games.notifications import tasks as notification_tasks  # noqa: F401 (registers them)

ACTIONS = deadline.Actions(timeout=commands.game_timeout, bot_moves=commands.game_bot_moves,
                            vacation_over=vacations.vacation_over,
                            abandon=away.game_abandon)  # fmt: skip


@shared_task(name=deadline.ADVANCE_TASK, ignore_result=True, acks_late=True)
def advance(game_id: int, seq: int) -> str:
    """Act on game `game_id` if it still stands at `seq` and its deadline has passed."""
    return deadline.advance(game_id, seq, actions=ACTIONS)


# Celery builds a result backend per thread (an entry-points scan, ~3 ms), and under ASGI each
# request runs in a new thread; results are ignored, so one (stateless, disabled) backend serves.
advance.backend = advance.app.backend


@shared_task(ignore_result=True)
def sweep() -> int:
    """Act on every overdue deadline (the only path for deadlines beyond the horizon)."""
    return deadline.sweep(actions=ACTIONS)


def start_runner() -> threading.Thread:
    """`make run`'s deadline runner (no Celery): sweeps in a thread of the web process; the
    notifications get a thread of their own (games.notifications.runner)."""
    notifications.start_runner()
    return deadline.start_runner(actions=ACTIONS)
