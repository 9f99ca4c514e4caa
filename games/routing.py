"""Websocket routes, mounted by sejmi.asgi."""

websocket_urlpatterns: list = []
