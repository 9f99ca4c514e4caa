"""When `make run`'s one loop must look next, so that it sleeps while nothing is due instead of
polling (issue 19: idle under 1 % of a core). It looks at once after a commit that had a task
for Celery (there is none in `make run`: games.core.task_queue tells the alarm instead), at
that task's eta, at the next deadline or reminder the database holds, and at least every
IDLE_LOOK_S (what another process may have written, and the housekeeping)."""

from __future__ import annotations

import threading
import time
from datetime import datetime

from django.db.models import Min
from django.utils import timezone

from games.core.models import GameProjection
from games.notifications.models import DeadlineReminder

IDLE_LOOK_S = 10.0
STOP_LOOK_S = 1.0  # how soon a set `stop` is seen: a wake-up with no query


class Alarm:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._rung_at = float("inf")  # monotonic time of the earliest ring since `clear`

    def ring(self, eta: datetime | None = None) -> None:
        """Look at `eta` (now if None or past). Safe from any thread."""
        delay = 0.0 if eta is None else max(0.0, (eta - timezone.now()).total_seconds())
        with self._changed:
            self._rung_at = min(self._rung_at, time.monotonic() + delay)
            self._changed.notify()

    def clear(self) -> None:
        """Forget the rings so far: the loop is about to look (a ring during the look stays)."""
        with self._changed:
            self._rung_at = float("inf")

    def sleep(self, stop: threading.Event) -> None:
        """Until a ring is due, the database's next due time, IDLE_LOOK_S, or `stop`."""
        until = time.monotonic() + min(IDLE_LOOK_S, _seconds_to_next_due())
        with self._changed:
            while not stop.is_set():
                left = min(until, self._rung_at) - time.monotonic()
                if left <= 0:
                    return
                self._changed.wait(min(left, STOP_LOOK_S))


def _seconds_to_next_due() -> float:
    """Seconds to the earliest deadline of an active game or reminder not yet sent."""
    due = [
        GameProjection.objects.filter(status="active", deadline_at__isnull=False)
        .aggregate(at=Min("deadline_at"))["at"],
        DeadlineReminder.objects.filter(done=False).aggregate(at=Min("remind_at"))["at"],
    ]
    now = timezone.now()
    return min([max(0.0, (at - now).total_seconds()) for at in due if at is not None],
               default=IDLE_LOOK_S)  # fmt: skip
