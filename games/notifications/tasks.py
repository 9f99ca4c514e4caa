"""Celery's thin notification tasks (games.notifications.runner does the work). Registered
by games.tasks, which Celery's autodiscovery imports."""

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from games.notifications import outbox, runner


@shared_task(name=runner.DERIVE_TASK, ignore_result=True, acks_late=True)
def derive(game_id: int) -> int:
    return runner.derive(game_id)


@shared_task(name=runner.REMIND_TASK, ignore_result=True, acks_late=True)
def remind(game_id: int, seq: int) -> int:
    return runner.remind(game_id, seq)


@shared_task(name=runner.MAIL_TASK, ignore_result=True)
def mail(mail_id: int) -> str:
    return outbox.send(mail_id)


@shared_task(name=runner.SWEEP_TASK, ignore_result=True)
def sweep() -> int:
    return runner.sweep()


@shared_task(name=runner.DIGEST_TASK, ignore_result=True)
def digest(day: str | None = None) -> int:
    """The daily digest (beat, just after midnight UTC): yesterday's, or `day` (YYYY-MM-DD)."""
    when = date.fromisoformat(day) if day else timezone.now().date() - timedelta(days=1)
    return runner.digest(when)
