"""The live sockets of this process, per event loop (a web worker has one; tests make many),
with one step over all of them every few seconds: one statement per process per step, not
one per socket. Presence renews its rows this way (games.notifications.presence), and sockets
behind a lost broadcast are found this way (games.live.catch_up)."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any


class EachLoop:
    """`enter(key, item)` / `leave(key)` from a socket's own coroutines; `step(items)` runs every
    `every` seconds in each loop that has had a socket (an exception only skips that round)."""

    def __init__(self, every: float, step: Callable[[dict[str, Any]], Awaitable[object]]):
        self.every, self.step = every, step
        self._live: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Any]] = (
            weakref.WeakKeyDictionary()
        )
        self._tasks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task] = (
            weakref.WeakKeyDictionary()
        )

    def enter(self, key: str, item: Any) -> None:
        loop = asyncio.get_running_loop()
        live = self._live.setdefault(loop, {})
        live[key] = item
        if loop not in self._tasks or self._tasks[loop].done():
            self._tasks[loop] = loop.create_task(self._forever(live))

    def leave(self, key: str) -> None:
        self._live.get(asyncio.get_running_loop(), {}).pop(key, None)

    def live(self) -> dict[str, Any]:
        """This loop's live sockets."""
        return self._live.get(asyncio.get_running_loop(), {})

    async def _forever(self, live: dict[str, Any]) -> None:
        while True:
            await asyncio.sleep(self.every)
            with contextlib.suppress(Exception):
                await self.step(live)
