"""Fixtures for service tests: real PostgreSQL (make test), API clients per user."""

from __future__ import annotations

import itertools

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

_names = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()  # throttle counters live in the cache
    yield


def register(client: APIClient | None = None, name: str | None = None) -> APIClient:
    client = client or APIClient()
    name = name or f"player{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username = name  # type: ignore[attr-defined]
    return client


@pytest.fixture
def player(db) -> APIClient:
    return register()


@pytest.fixture
def make_player(db):
    return lambda name=None: register(name=name)


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
        import time

        give_up = time.monotonic() + timeout
        while task_id not in self.done:
            assert time.monotonic() < give_up, f"the worker did not run task {task_id}"
            time.sleep(0.02)
        return self.done[task_id]


@pytest.fixture
def rigged(settings):
    """Rigged games allowed (SEJMI_ALLOW_RIGGED): decks and hands the test chooses."""
    settings.SEJMI_ALLOW_RIGGED = True


@pytest.fixture
def trio(make_player):
    return make_player("alice"), make_player("bob"), make_player("carol")


@pytest.fixture
def celery_deadline_worker(transactional_db, settings):
    """A real Celery worker consuming the Redis broker in a thread of this process (so it sees
    committed data only: use it with django_db(transaction=True)). Yields a TaskProbe; fails
    the test if any task raised."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_failure, task_postrun
    from kombu.asynchronous import set_event_loop

    from sejmi.celery import app

    if not settings.SEJMI_SEND_TASKS:
        pytest.fail("deadline tests need REDIS_URL set and SEJMI_INPROCESS_RUNNER off (make test)")
    app.control.purge()  # tasks left by earlier tests that ran without a worker
    probe = TaskProbe()
    task_postrun.connect(probe.finished, weak=False)
    task_failure.connect(probe.failed, weak=False)
    # kombu keeps one event loop per process; a stopped worker's loop still drives that
    # worker's timer, so a new worker would never fire its ETA tasks: give it a fresh loop.
    set_event_loop(None)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
            yield probe
    finally:
        task_postrun.disconnect(probe.finished)
        task_failure.disconnect(probe.failed)
        set_event_loop(None)
    assert not probe.failures, probe.failures
