"""Issue 32, item 4: with the channel layer's Redis down, a socket's handshake is answered —
opened, or closed 1013 (Try Again Later) — never an HTTP 500 (the consumer died in the layer's
`new_channel` / `group_add` with a ConnectionError)."""

from __future__ import annotations

import asyncio
import socket
from contextlib import closing

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token


def _dead_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again: connecting is refused


@pytest.fixture
def redis_down(settings):
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "games.core.pubsub.PubSubLayer",
        "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{_dead_port()}/0",
                              "socket_connect_timeout": 0.5}], "prefix": "dead"},
    }}  # fmt: skip
    yield


def _handshake(path: str) -> tuple[bool, object]:
    from sejmi.asgi import application

    async def go():
        communicator = WebsocketCommunicator(application, path)
        connected, _ = await communicator.connect(timeout=10)
        if not connected:
            return False, None
        closing_ = await communicator.receive_output(10)
        await communicator.disconnect()
        return True, closing_

    return asyncio.run(go())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("where", ["game", "me"])
def test_with_the_channel_layers_redis_down_the_handshake_closes_1013(redis_down, where):
    """Before: ConnectionError out of the consumer → the handshake answered HTTP 500."""
    user = get_user_model().objects.create_user(username="eva", password="s3cret-pass-1")
    token = Token.objects.create(user=user).key
    path = f"/ws/games/1/?token={token}" if where == "game" else f"/ws/me/?token={token}"
    accepted, message = _handshake(path)
    assert accepted
    assert message == {"type": "websocket.close", "code": 1013}, message
