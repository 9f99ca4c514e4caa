"""REST routes of the games API, mounted at /api/."""

from django.urls import path

from games import apis

urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="register"),
    path("auth/token/", apis.TokenApi.as_view(), name="token"),
    path("games/", apis.GamesApi.as_view(), name="games"),
    path("games/<int:game_id>/", apis.GameApi.as_view(), name="game"),
    path("games/<int:game_id>/join/", apis.JoinApi.as_view(), name="join"),
    path("games/<int:game_id>/commands/", apis.CommandsApi.as_view(), name="commands"),
    path("games/<int:game_id>/events/", apis.EventsApi.as_view(), name="events"),
    path("games/<int:game_id>/replay/", apis.ReplayApi.as_view(), name="replay"),
    path("games/<int:game_id>/audit/", apis.AuditApi.as_view(), name="audit"),
]
