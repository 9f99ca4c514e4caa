"""REST routes of accounts and games, mounted at /api/ (replays, audits and disputes:
replays/urls.py)."""

from django.urls import path

from games import apis, chat_apis, order_apis, rating_apis
from games.notifications import apis as notification_apis

urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="register"),
    path("auth/token/", apis.TokenApi.as_view(), name="token"),
    path("ws-ticket/", apis.WsTicketApi.as_view(), name="ws-ticket"),
    path("games/", apis.GamesApi.as_view(), name="games"),
    path("games/<int:game_id>/", apis.GameApi.as_view(), name="game"),
    path("games/<int:game_id>/join/", apis.JoinApi.as_view(), name="join"),
    path("games/<int:game_id>/commands/", apis.CommandsApi.as_view(), name="commands"),
    path("games/<int:game_id>/events/", apis.EventsApi.as_view(), name="events"),
    path("notifications/", notification_apis.NotificationsApi.as_view(), name="notifications"),
    path("notifications/read/", notification_apis.NotificationsReadApi.as_view(),
         name="notifications-read"),
    path("me/preferences/", notification_apis.PreferencesApi.as_view(), name="preferences"),
    path(
        "games/<int:game_id>/standing-order/",
        order_apis.GameStandingOrderApi.as_view(),
        name="game-standing-order",
    ),
    path("me/standing-order/", order_apis.MyStandingOrderApi.as_view(), name="my-standing-order"),
    path("games/<int:game_id>/leave/", apis.LeaveApi.as_view(), name="leave"),
    path("games/<int:game_id>/return/", apis.ReturnApi.as_view(), name="return"),
    path("me/vacation/", apis.VacationApi.as_view(), name="vacation"),
    path("games/<int:game_id>/chat/", chat_apis.ChatApi.as_view(), name="chat"),
    path("games/<int:game_id>/chat/hide/", chat_apis.ChatHideApi.as_view(), name="chat-hide"),
    path("players/<str:username>/", rating_apis.PlayerApi.as_view(), name="player"),
    path("leaderboard/", rating_apis.LeaderboardApi.as_view(), name="leaderboard"),
]
