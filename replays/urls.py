"""REST routes of the replays app (replays, audits; disputes: replays/disputes/routes.py),
mounted at /api/ after the games routes."""

from django.urls import path

from replays import replay_apis
from replays.disputes import routes as apis

urlpatterns = [
    path("games/<int:game_id>/replay/", replay_apis.ReplayApi.as_view(), name="replay"),
    path("games/<int:game_id>/audit/", replay_apis.AuditApi.as_view(), name="audit"),
    path("signing-key/", replay_apis.SigningKeyApi.as_view(), name="signing-key"),
    path("games/<int:game_id>/disputes/", apis.GameDisputesApi.as_view(), name="game-disputes"),
    path("disputes/", apis.DisputesApi.as_view(), name="disputes"),
    path("disputes/<int:dispute_id>/", apis.DisputeApi.as_view(), name="dispute"),
    path("replays/", replay_apis.FinishedGamesApi.as_view(), name="replays"),
    path("games/<int:game_id>/markers/", replay_apis.MarkersApi.as_view(), name="markers"),
    path("games/<int:game_id>/transcript/", replay_apis.TranscriptApi.as_view(), name="transcript"),
    path("games/<int:game_id>/export/", replay_apis.ExportApi.as_view(), name="export"),
]
