"""`make run`'s in-memory channel layer: a broadcast sent from a thread that runs no event loop
(the in-process deadline runner's bot moves and notification pushes) is run on the server's
loop (games.core.pubsub.serve_on), so the socket waiting there wakes at once. async_to_sync ran
it on a loop of its own in a new thread, whose wake-up of the server loop's queue asyncio does
not see: the socket heard of the bot's move at the server loop's next timer."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from channels.layers import get_channel_layer

from games.core import pubsub

QUIET_S = 3.0  # the server loop's only timer: how long the socket waits at most


@pytest.fixture
def server_loop(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    pubsub.serve_on(loop)
    yield loop
    pubsub.serve_on(None)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


def test_a_send_from_the_runners_thread_wakes_the_socket_at_once(server_loop):
    layer = get_channel_layer()

    async def socket() -> str:
        return await layer.new_channel()

    channel = asyncio.run_coroutine_threadsafe(socket(), server_loop).result(5)
    asyncio.run_coroutine_threadsafe(layer.group_add("game_1", channel), server_loop).result(5)

    async def heard() -> float:
        await asyncio.wait_for(layer.receive(channel), QUIET_S)
        return time.monotonic()

    waiting = asyncio.run_coroutine_threadsafe(heard(), server_loop)
    time.sleep(0.2)  # the socket waits; the server loop sleeps until its timer

    def runner() -> float:  # a thread of no loop, as games.clock.runner's
        sent_at = time.monotonic()
        pubsub.group_send("game_1", {"type": "game.committed"})
        return sent_at

    box: list[float] = []
    thread = threading.Thread(target=lambda: box.append(runner()))
    thread.start()
    thread.join(QUIET_S + 5)
    heard_at = waiting.result(QUIET_S + 5)
    assert heard_at - box[0] < QUIET_S / 3
