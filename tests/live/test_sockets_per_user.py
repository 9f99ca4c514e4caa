"""Issue 32, item 8 (what to build: 7): at most SEJMI_SOCKETS_PER_USER (20) open sockets per
user in a web process; one more is accepted and closed 4429 (`too_many`) at the handshake, and
a closed socket frees its place. Before: 600 sockets on one token (+18.8 MB, not freed)."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token


@pytest.mark.django_db(transaction=True)
def test_a_socket_past_the_cap_is_closed_4429_and_a_closed_one_frees_its_place(settings):
    """Mutant (before): no cap → the third socket opens like the others."""
    settings.SEJMI_SOCKETS_PER_USER = 2
    user = get_user_model().objects.create_user(username="eva", password="s3cret-pass-1")
    token = Token.objects.create(user=user).key
    other = Token.objects.create(
        user=get_user_model().objects.create_user(username="jan", password="s3cret-pass-1")
    ).key

    from sejmi.asgi import application

    async def go():
        opened = []
        for _ in range(2):
            ws = WebsocketCommunicator(application, f"/ws/me/?token={token}")
            assert (await ws.connect(timeout=10))[0]
            assert await ws.receive_nothing(0.2)
            opened.append(ws)
        third = WebsocketCommunicator(application, f"/ws/me/?token={token}")
        assert (await third.connect(timeout=10))[0]
        assert await third.receive_output(5) == {"type": "websocket.close", "code": 4429}
        jans = WebsocketCommunicator(application, f"/ws/me/?token={other}")  # per user
        assert (await jans.connect(timeout=10))[0] and await jans.receive_nothing(0.2)
        await opened[0].disconnect()
        again = WebsocketCommunicator(application, f"/ws/me/?token={token}")
        assert (await again.connect(timeout=10))[0] and await again.receive_nothing(0.2)
        for ws in (opened[1], jans, again):
            await ws.disconnect()

    asyncio.run(go())
