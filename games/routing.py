"""Websocket routes. A path that names no stream is accepted and closed with 4404 (as an
unknown game), never left to the router, whose "no route" is an HTTP 500 of the handshake."""

from django.urls import path, re_path

from games.live.consumer import GameConsumer, NoSuchStream
from games.live.me_consumer import MeConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/me/", MeConsumer.as_asgi()),  # notifications (games.notifications)
    re_path(r"", NoSuchStream.as_asgi()),  # everything else: keep it last
]
