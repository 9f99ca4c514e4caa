"""When `make run`'s one loop must look next, so that it sleeps while nothing is due instead of
polling (issue 19: idle under 1 % of a core). It looks at once after a commit that had a task
for Celery (there is none in `make run`: games.core.task_queue tells the alarm instead), at
that task's eta, at the next deadline or reminder the database holds (the loop reads it at each
look: games.clock.runner.next_due), and at least every IDLE_LOOK_S (what another process may
have written, and the housekeeping). A task asked for at once (no eta: a notification's derive
or mail) also asks for the notification chores; one with an eta (a deadline, a bot's move, a
reminder) only for a look at it."""

from __future__ import annotations

import threading
import time
from datetime import datetime

from django.utils import timezone

IDLE_LOOK_S = 10.0
STOP_LOOK_S = 1.0  # how soon a set `stop` is seen: a wake-up with no query


class Alarm:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._rung_at = float("inf")  # monotonic time of the earliest ring since `clear`
        self._chores = False  # a ring without an eta since `clear`

    def ring(self, eta: datetime | None = None) -> None:
        """Look at `eta` (now if None or past; None also asks for the chores). Safe from any
        thread."""
        delay = 0.0 if eta is None else max(0.0, (eta - timezone.now()).total_seconds())
        with self._changed:
            self._rung_at = min(self._rung_at, time.monotonic() + delay)
            self._chores = self._chores or eta is None
            self._changed.notify()

    def clear(self) -> bool:
        """Forget the rings so far: the loop is about to look (a ring during the look stays).
        Returns whether one of them asked for the chores."""
        with self._changed:
            chores, self._rung_at, self._chores = self._chores, float("inf"), False
            return chores

    def sleep(self, stop: threading.Event, seconds: float) -> None:
        """Until a ring is due, `seconds` from now (the next due time), IDLE_LOOK_S, or `stop`."""
        until = time.monotonic() + min(IDLE_LOOK_S, seconds)
        with self._changed:
            while not stop.is_set():
                left = min(until, self._rung_at) - time.monotonic()
                if left <= 0:
                    return
                self._changed.wait(min(left, STOP_LOOK_S))
