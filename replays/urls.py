"""Replay routes; not mounted yet."""

urlpatterns: list = []
