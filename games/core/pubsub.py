"""The channel layer of the live stream: channels_redis's pub/sub layer with two changes, both
for the cost of a broadcast (bench-load, docs/PERFORMANCE.md).

- One decode per received message per process. A process subscribes to a game's group once
  and channels_redis hands the same received bytes to every socket of the group in that
  process, but each socket's `receive` decoded them again: a committed batch carries the
  game's whole state (games.table.publish), so a game with five sockets in a process unpacked it
  five
  times (8.7 % of the web workers' CPU). The sockets of one process now share one decoded
  message; handlers therefore must not mutate the message they are given (none does:
  games.live.consumer, games.live.me_consumer).
- A blocking `group_send` for synchronous code (`group_send` below). The layer's own is a
  coroutine bound to an event loop: from a web request thread async_to_sync handed it to the
  worker's one loop (7 % of the web workers' CPU, all on the loop that serves every socket),
  and from the deadline runner or Celery it made a thread, a loop and a Redis connection per
  broadcast. `publish` sends the same bytes to the same Redis channel as the layer's
  group_send (channels_redis 4.3: `<prefix>__group__<group>`) with redis-py's thread-safe
  client, from the calling thread, on the same host: with several hosts (settings'
  CHANNEL_REDIS_URLS) channels_redis subscribes a group on the host its `_consistent_hash`
  of that channel name picks from the hosts in their order, and `host_index` picks the same.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import OrderedDict
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer, _consistent_hash
from channels_redis.utils import decode_hosts
from django.conf import settings

KEPT = 256  # decoded messages remembered: a batch reaches its sockets within a few loop turns


class PubSubLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, hosts: Any = None, prefix: str = "asgi",
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(*args, hosts=hosts, prefix=prefix, **kwargs)
        self._prefix = prefix
        self._hosts = [host["address"] for host in decode_hosts(hosts)]
        self._clients: tuple[int, list[redis.Redis]] | None = None  # (pid, one per host)
        # id(bytes) -> (the bytes, decoded): the entry holds the bytes object, so its id cannot
        # be reused by another message while the entry lives; the `is` check makes sure.
        self._decoded: OrderedDict[int, tuple[bytes, dict]] = OrderedDict()
        self._lock = threading.Lock()  # the web loop decodes; other threads' loops may too

    def deserialize(self, message: bytes) -> dict:
        key = id(message)
        with self._lock:
            hit = self._decoded.get(key)
            if hit is not None and hit[0] is message:
                return hit[1]
        decoded = super().deserialize(message)
        with self._lock:
            self._decoded[key] = (message, decoded)
            while len(self._decoded) > KEPT:
                self._decoded.popitem(last=False)
        return decoded

    def publish(self, group: str, message: dict[str, Any]) -> None:
        """The layer's group_send, blocking, from any thread."""
        channel = f"{self._prefix}__group__{group}"
        self._redis_clients()[self.host_index(group)].publish(channel, self.serialize(message))

    def host_index(self, group: str) -> int:
        """Which of the hosts carries `group`: the shard channels_redis's receiving side
        subscribes it on (RedisPubSubLoopLayer._get_shard of the group's channel name)."""
        return _consistent_hash(f"{self._prefix}__group__{group}", len(self._hosts))

    def _redis_clients(self) -> list[redis.Redis]:
        with self._lock:
            if self._clients is None or self._clients[0] != os.getpid():  # new, or forked
                self._clients = (os.getpid(), [self._client(h) for h in self._hosts])
            return self._clients[1]

    @staticmethod
    def _client(url: str) -> redis.Redis:
        """A publishing client that gives up on a Redis that never answers (settings)."""
        timeout = settings.REDIS_TIMEOUT_S
        return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


# --- sending from synchronous code: the one way every broadcast goes -------------------------
# (committed batches, sealed passes, chat, notification pushes). With Redis (every deployment)
# the calling thread publishes itself (`PubSubLayer.publish`): no hop to an event loop, no loop
# or connection made per call. `make run`'s in-memory layer has no Redis: its queues belong to
# the server's loop, so the send is run there (`serve_on`).

_server_loop: asyncio.AbstractEventLoop | None = None


def serve_on(loop: asyncio.AbstractEventLoop | None) -> None:
    """The server's loop (sejmi.asgi's lifespan): where the sockets of an in-memory layer wait.
    A send from a thread of no loop (`make run`'s deadline runner: bot moves, notification
    pushes) goes to it. async_to_sync there made a thread and an event loop per send (3 % of
    `make run`'s CPU, issue 31) and woke the waiting socket from a foreign thread, which
    asyncio's queues do not allow: the server's loop noticed at its next wake-up."""
    global _server_loop
    _server_loop = loop


def game_group(game_id: int) -> str:
    """The group of a game's sockets (games.live.consumer)."""
    return f"game_{game_id}"


def user_group(user_id: int) -> str:
    """The group of a user's `/ws/me/` sockets (games.live.me_consumer)."""
    return f"user_{user_id}"


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` and return once the layer has it (raises if it failed)."""
    layer = get_channel_layer()
    if isinstance(layer, PubSubLayer):
        layer.publish(group, message)
    elif (loop := _server_loop) is not None and _from_another_thread(loop):
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.result(timeout=SEND_TIMEOUT_S)
    else:
        async_to_sync(layer.group_send)(group, message)


SEND_TIMEOUT_S = 10.0  # the server's loop takes an in-memory send at its next turn


def _from_another_thread(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether `loop` runs, in a thread other than the caller's (whose code is not async)."""
    if not loop.is_running() or loop.is_closed():
        return False
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:  # no loop runs in this thread
        return True
