"""Celery's thin deadline tasks (games.clock.runner does the work). Registered by games.tasks,
which Celery's autodiscovery imports; their names are the ones queued tasks already carry."""

from celery import shared_task

from games.clock import runner
from games.table.deadline import ADVANCE_TASK


@shared_task(name=ADVANCE_TASK, ignore_result=True, acks_late=True)
def advance(game_id: int, seq: int) -> str:
    """Act on game `game_id` if it still stands at `seq` and its deadline has passed."""
    return runner.advance(game_id, seq)


@shared_task(name="games.tasks.sweep", ignore_result=True)
def sweep() -> int:
    """Act on every overdue deadline (the only path for deadlines beyond the horizon)."""
    return runner.sweep()
