"""Celery tasks: thin wrappers over games.deadlines (idempotent by seq)."""

from celery import shared_task

from games import deadlines


@shared_task(ignore_result=True, acks_late=True)
def advance(game_id: int, seq: int) -> str:
    return deadlines.advance(game_id, seq)


@shared_task(ignore_result=True)
def sweep() -> int:
    return deadlines.sweep()
