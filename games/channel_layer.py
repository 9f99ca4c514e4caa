"""The channel layer of the live stream: channels_redis's pub/sub layer, with one decode per
received message per process.

A process subscribes to a game's group once and channels_redis hands the same received bytes
to every socket of the group in that process, but each socket's `receive` decoded them again:
a committed batch carries the game's whole state (games.notify), so a game with five sockets
in a process unpacked it five times (bench-load: 8.7 % of the web workers' CPU). Here the
sockets of one process share one decoded message. Handlers therefore must not mutate the
message they are given (none does: games.consumers, games.notifications.consumer).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

KEPT = 256  # decoded messages remembered: a batch reaches its sockets within a few loop turns


class SharedDecodeLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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
