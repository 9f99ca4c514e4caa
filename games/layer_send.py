"""Sending to a channel-layer group from synchronous code: the one way every broadcast goes
(committed batches, sealed passes, chat, notification pushes).

In a web process the sync code runs in a thread of the ASGI loop, and asgiref's async_to_sync
hands the send to that loop, whose layer connection stays open. Anywhere else (the deadline
runner, Celery workers, management commands) async_to_sync started a new thread with a new
event loop for every call, and channels_redis, whose connections belong to a loop, opened a
new Redis connection pool for each: a thread, a loop and a TCP connection per broadcast, a
tenth of the deadline runner's CPU in bench-load. There the sends go to one loop in one
daemon thread per process instead, which keeps its connection (started on first use, again
after a fork: Celery's prefork children).
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

SEND_TIMEOUT_S = 10.0  # a Redis that does not answer: the caller logs it, sockets resync by seq

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` and return once the layer has it (raises if it failed)."""
    layer = get_channel_layer()
    if _in_asgi_thread():
        async_to_sync(layer.group_send)(group, message)
        return
    done = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _sender_loop())
    try:
        done.result(SEND_TIMEOUT_S)
    except TimeoutError:
        done.cancel()
        raise


def _in_asgi_thread() -> bool:
    """True in a thread that asgiref's sync_to_async runs for a live event loop of this
    process (a web worker's request or socket thread)."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    return (loop is not None and getattr(local, "main_event_loop_pid", None) == os.getpid()
            and loop.is_running())  # fmt: skip


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="sejmi-layer-send",
                             daemon=True).start()  # fmt: skip
        return _loop
