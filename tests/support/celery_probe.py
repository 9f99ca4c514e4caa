"""What the embedded Celery worker of `celery_deadline_worker` (tests/django_fixtures.py) did."""

from __future__ import annotations

import time


class TaskProbe:
    """What the embedded Celery worker finished: task id → return value, and any failures."""

    def __init__(self) -> None:
        self.done: dict[str, object] = {}
        self.failures: list[str] = []

    def finished(self, task_id=None, retval=None, **_) -> None:
        from django.db import connections

        connections.close_all()  # the worker thread's own connections: none outlives a task
        self.done[task_id] = retval

    def failed(self, task_id=None, exception=None, **_) -> None:
        self.failures.append(f"{task_id}: {exception!r}")

    def outcome(self, task_id: str, timeout: float = 15.0) -> object:
        """The return value of task `task_id` once the worker has run it (bounded wait)."""
        give_up = time.monotonic() + timeout
        while task_id not in self.done:
            assert time.monotonic() < give_up, f"the worker did not run task {task_id}"
            time.sleep(0.02)
        return self.done[task_id]
