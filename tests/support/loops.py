"""A coroutine run to its end on an event loop of its own, in a thread of its own.

In the full suite the browser tests' Playwright leaves its loop marked running in the main
thread, where asyncio.run and pytest-asyncio's runner then refuse to start (tests that run
after them, as pytest-django orders tests without a database last, met "Runner.run() cannot be
called from a running event loop")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def in_own_loop(coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coro).result(timeout=timeout)


def own_loop(test: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """A test written as a coroutine function, run by `in_own_loop` (it takes no fixtures)."""

    def run() -> None:
        in_own_loop(test())

    run.__name__, run.__qualname__, run.__doc__ = test.__name__, test.__qualname__, test.__doc__
    run.__module__ = test.__module__
    return run
