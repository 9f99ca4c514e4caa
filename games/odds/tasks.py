"""Celery's odds task (games.odds.services does the work); registered by games.tasks."""

from celery import shared_task

from games.odds import services
from games.odds.services import ODDS_TASK


@shared_task(name=ODDS_TASK, ignore_result=True, acks_late=True)
def odds(game_id: int) -> str:
    """Compute a finished game's odds, once."""
    return services.compute(game_id)
