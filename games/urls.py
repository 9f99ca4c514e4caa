"""REST routes of accounts and games, mounted at /api/ (replays, audits and disputes:
replays/urls.py)."""

from django.urls import path

from games import apis, rating_apis

urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="register"),
    path("auth/token/", apis.TokenApi.as_view(), name="token"),
    path("ws-ticket/", apis.WsTicketApi.as_view(), name="ws-ticket"),
    path("games/", apis.GamesApi.as_view(), name="games"),
    path("games/<int:game_id>/", apis.GameApi.as_view(), name="game"),
    path("games/<int:game_id>/join/", apis.JoinApi.as_view(), name="join"),
    path("games/<int:game_id>/commands/", apis.CommandsApi.as_view(), name="commands"),
    path("games/<int:game_id>/events/", apis.EventsApi.as_view(), name="events"),
    path("players/<str:username>/", rating_apis.PlayerApi.as_view(), name="player"),
    path("leaderboard/", rating_apis.LeaderboardApi.as_view(), name="leaderboard"),
]
