"""The one way the service sends a Celery task: by its registered name, so the sender needs no
import of the task's module (the tasks sit above what sends them), and never from inside an
open transaction (callers send after COMMIT). A task that cannot be sent is logged and left to
the sweepers (games.clock.runner, celery beat): every fast path has one behind it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from sejmi.celery import app

log = logging.getLogger(__name__)

VISIBILITY_TIMEOUT_S = 3600  # kombu's default for Redis (broker_transport_options)

# Told of each task not sent because there is no Celery, with its eta: `make run`'s loop
# wakes for it instead of polling (games.clock.alarm). The loop registers; core stays below it.
_not_sent_hooks: list[Callable[[datetime | None], None]] = []


def when_not_sent(hook: Callable[[datetime | None], None]) -> None:
    _not_sent_hooks.append(hook)


def horizon() -> timedelta:
    """How far ahead a task may be scheduled: half the broker's visibility timeout. Celery on
    Redis re-delivers an ETA task that waits longer, so one beyond is left to the sweepers."""
    options = app.conf.broker_transport_options or {}
    return timedelta(seconds=options.get("visibility_timeout", VISIBILITY_TIMEOUT_S) / 2)


def send(name: str, *args: Any, eta: datetime | None = None, queue: str | None = None) -> bool:
    """Send task `name` with `args` (at `eta`); returns whether it was sent. Nothing is sent
    without Celery (SEJMI_SEND_TASKS off: `make run`, the runner's own process) or past the
    horizon; a failure to send is logged, never raised."""
    if not settings.SEJMI_SEND_TASKS:
        for hook in _not_sent_hooks:
            hook(eta)
        return False
    if eta is not None and eta - datetime.now(eta.tzinfo) > horizon():
        return False
    try:
        app.send_task(name, args, eta=eta, queue=queue)
    except Exception:
        log.exception("sending %s%s failed; the sweeper will do it", name, args)
        return False
    return True
