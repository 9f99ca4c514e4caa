"""REST routes of the replays app, mounted at /api/ after the games routes."""

from django.urls import path

from replays import apis

urlpatterns = [
    path("games/<int:game_id>/disputes/", apis.GameDisputesApi.as_view(), name="game-disputes"),
    path("disputes/", apis.DisputesApi.as_view(), name="disputes"),
    path("disputes/<int:dispute_id>/", apis.DisputeApi.as_view(), name="dispute"),
]
