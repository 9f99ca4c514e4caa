"""Overload (issue 9, bench): with the PostgreSQL pool exhausted a request waited the pool's
10 s and answered 500. Now it waits at most the pool's short timeout and answers 503
`unavailable`, in the one error shape, with Retry-After: the client tries again later."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections
from django.test import Client

from games.engine.errors import Code

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_exhausted_pool_answers_503_unavailable_at_once_not_500(settings):
    pool_options = connection.settings_dict["OPTIONS"]["pool"]
    assert pool_options["timeout"] <= 3, "a request waits seconds at most for a connection"
    connection.close()  # this thread's connection back to the pool: the request will need one
    hold, held, release = pool_options["max_size"], threading.Semaphore(0), threading.Event()

    def holder() -> None:
        connections["default"].ensure_connection()  # this thread's own connection, from the pool
        held.release()
        release.wait(30)
        connections.close_all()

    threads = [threading.Thread(target=holder) for _ in range(hold)]
    for thread in threads:
        thread.start()
    try:
        for _ in threads:
            assert held.acquire(timeout=30), "every connection of the pool taken"
        started = time.monotonic()
        answer = Client(raise_request_exception=False).get("/api/games/")
        waited = time.monotonic() - started
    finally:
        release.set()
        for thread in threads:
            thread.join(30)
    assert answer.status_code == 503, answer.content
    assert answer.json()["error"]["code"] == Code.UNAVAILABLE
    assert int(answer["Retry-After"]) >= 1
    assert waited < pool_options["timeout"] + 2
