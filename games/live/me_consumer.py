"""`/ws/me/`: the signed-in user's own stream (API.md): `{"type": "notification",
"notification": {...}, "unread": n}` for each new notification (games.notifications.push).
Same auth as `/ws/games/` (ticket, token, session); an anonymous socket is accepted and closed
with 4401. It sends nothing else and reads nothing: the list and the count come over REST."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from games.core.pubsub import user_group
from games.live.frames import frame_text
from games.live.socket_db import socket_db
from games.notifications.push import unread

NOT_AUTHENTICATED = 4401


class MeConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        self.group = None
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_AUTHENTICATED)
            return
        self.user_id, self.group = user.pk, user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # nothing to ask: the REST routes answer

    async def user_notification(self, message: dict[str, Any]) -> None:
        count = await socket_db(unread)(self.user_id)
        await self.send(text_data=frame_text({"type": "notification",
                                              "notification": message["notification"],
                                              "unread": count}))  # fmt: skip
