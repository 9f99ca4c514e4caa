"""One subscription per game per process (issue 31): a web process's hub joins each game that
any of its sockets watches to the game's group once, under one channel of its own, and hands
each message to the game's sockets itself: no Channels channel, queue and dispatch per socket
per message (20 % of the web's CPU in the fan-out to 2,000 spectators, docs/PERFORMANCE.md).
A socket decides in place what a batch brings it and puts the frames, rendered once per
audience (games.live.render), in its outbox (games.live.outbox); what needs the database or
must wait its turn goes there as work. The groups are the channel layer's, so several nodes
and a sharded layer (CHANNEL_REDIS_URLS) work as before; messages reach the hub in the order
its shard heard them, and each socket's frames keep that order.

One hub per event loop and channel layer (a web worker has one loop; tests make many)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any, Protocol

from channels.layers import get_channel_layer

from games.core.pubsub import game_group
from games.live import render
from games.live.frames import frame_text

log = logging.getLogger(__name__)


class Watcher(Protocol):
    """A game socket as the hub sees it (games.live.consumer.GameConsumer)."""

    def committed(self, message: dict[str, Any], state: Any) -> None: ...

    def sealed(self, message: dict[str, Any]) -> None: ...

    def chat(self, message: dict[str, Any], text: str) -> None: ...


class Hub:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.games: dict[int, set[Watcher]] = {}
        self._joined: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self._start = asyncio.Lock()
        self._task: asyncio.Task | None = None

    async def join(self, game_id: int, socket: Watcher) -> None:
        """From now on `socket` is handed the game's messages (raises if the layer's Redis is
        unreachable: the socket is then closed 1013, games.live.guard)."""
        async with self._start:
            if self.channel is None:
                self.channel = await self.layer.new_channel("hub.")
                self._task = asyncio.get_running_loop().create_task(self._listen(self.channel))
        self.games.setdefault(game_id, set()).add(socket)
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            if game_id in self._joined:
                return
            try:
                await self.layer.group_add(game_group(game_id), self.channel)
            except BaseException:
                self._drop(game_id, socket)
                raise
            self._joined.add(game_id)

    async def leave(self, game_id: int, socket: Watcher) -> None:
        if self._drop(game_id, socket):
            return
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            if game_id in self.games or game_id not in self._joined:
                return  # another socket came meanwhile, or it never joined
            self._joined.discard(game_id)
            self._locks.pop(game_id, None)
            with contextlib.suppress(Exception):  # a Redis away forgets it anyway
                await self.layer.group_discard(game_group(game_id), self.channel)

    def _drop(self, game_id: int, socket: Watcher) -> bool:
        """Whether the game still has sockets here."""
        sockets = self.games.get(game_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.games[game_id]
        return game_id in self.games

    async def _listen(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the live hub's channel failed; listening again")
                await asyncio.sleep(1)
                continue
            try:
                self.deliver(message)
            except Exception:  # one bad message must not end the process's stream
                log.exception("a %s message was not delivered", message.get("type"))

    def deliver(self, message: dict[str, Any]) -> None:
        sockets = self.games.get(message.get("game"))  # type: ignore[arg-type]
        if not sockets:
            return
        kind = message.get("type")
        if kind == "game.committed":
            state = render.remember(message)  # type: ignore[arg-type]
            for socket in list(sockets):
                socket.committed(message, state)
        elif kind == "game.sealed":
            for socket in list(sockets):
                socket.sealed(message)
        elif kind == "game.chat":
            text = frame_text({"type": "chat", "message": message["message"]})
            for socket in list(sockets):
                socket.chat(message, text)


_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This loop's hub on the current channel layer (settings may change it in tests)."""
    loop, layer = asyncio.get_running_loop(), get_channel_layer()
    found = _HUBS.get(loop)
    if found is None or found.layer is not layer:
        if found is not None and found._task is not None:
            found._task.cancel()
        found = _HUBS[loop] = Hub(layer)
    return found
