"""Celery tasks: thin wrappers over games.deadlines (idempotent by seq).

`advance` is scheduled at commit with an ETA at the deadline (games.notify.schedule); `sweep`
runs from celery beat (settings.CELERY_BEAT_SCHEDULE) and is the guarantee behind it.
"""

from celery import shared_task

from games import deadlines


@shared_task(ignore_result=True, acks_late=True)
def advance(game_id: int, seq: int) -> str:
    """Act on game `game_id` if it still stands at `seq` and its deadline has passed."""
    return deadlines.advance(game_id, seq)


# Celery builds a result backend per thread (an entry-points scan, ~3 ms), and under ASGI each
# request runs in a new thread; results are ignored, so one (stateless, disabled) backend serves.
advance.backend = advance.app.backend


@shared_task(ignore_result=True)
def sweep() -> int:
    """Act on every overdue deadline (the only path for deadlines beyond the horizon)."""
    return deadlines.sweep()
