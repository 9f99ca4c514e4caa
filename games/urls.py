"""REST routes of accounts and games, mounted at /api/ (replays, audits and disputes:
replays/urls.py)."""

from django.urls import path

from games.accounts import routes as account_routes
from games.chat import routes as chat_routes
from games.forks import routes as fork_routes
from games.live import routes as live_routes
from games.notes import routes as note_routes
from games.notifications import routes as notification_routes
from games.odds import routes as odds_routes
from games.ratings import routes as rating_routes
from games.table import order_routes
from games.table import routes as table_routes
from games.tournaments import routes as tournament_routes
from games.webpush import routes as push_routes

urlpatterns = [
    path("auth/register/", account_routes.RegisterApi.as_view(), name="register"),
    path("auth/token/", account_routes.TokenApi.as_view(), name="token"),
    path("ws-ticket/", live_routes.WsTicketApi.as_view(), name="ws-ticket"),
    path("games/", table_routes.GamesApi.as_view(), name="games"),
    path("games/<int:game_id>/", table_routes.GameApi.as_view(), name="game"),
    path("games/<int:game_id>/join/", table_routes.JoinApi.as_view(), name="join"),
    path("games/<int:game_id>/commands/", table_routes.CommandsApi.as_view(), name="commands"),
    path("games/<int:game_id>/events/", table_routes.EventsApi.as_view(), name="events"),
    path("notifications/", notification_routes.NotificationsApi.as_view(), name="notifications"),
    path(
        "notifications/read/",
        notification_routes.NotificationsReadApi.as_view(),
        name="notifications-read",
    ),
    path("me/preferences/", notification_routes.PreferencesApi.as_view(), name="preferences"),
    path(
        "me/push-subscriptions/",
        push_routes.PushSubscriptionsApi.as_view(),
        name="push-subscriptions",
    ),
    path("push/key/", push_routes.PushKeyApi.as_view(), name="push-key"),
    path(
        "games/<int:game_id>/standing-order/",
        order_routes.GameStandingOrderApi.as_view(),
        name="game-standing-order",
    ),
    path("me/standing-order/", order_routes.MyStandingOrderApi.as_view(), name="my-standing-order"),
    path("games/<int:game_id>/leave/", table_routes.LeaveApi.as_view(), name="leave"),
    path("games/<int:game_id>/return/", table_routes.ReturnApi.as_view(), name="return"),
    path("me/vacation/", table_routes.VacationApi.as_view(), name="vacation"),
    path("games/<int:game_id>/chat/", chat_routes.ChatApi.as_view(), name="chat"),
    path("games/<int:game_id>/chat/hide/", chat_routes.ChatHideApi.as_view(), name="chat-hide"),
    path("games/<int:game_id>/forks/", fork_routes.ForksApi.as_view(), name="forks"),
    path("games/<int:game_id>/notes/", note_routes.NotesApi.as_view(), name="notes"),
    path(
        "games/<int:game_id>/notes/<int:note_id>/hide/",
        note_routes.NoteHideApi.as_view(),
        name="note-hide",
    ),
    path("games/<int:game_id>/odds/", odds_routes.OddsApi.as_view(), name="odds"),
    path("players/<str:username>/", rating_routes.PlayerApi.as_view(), name="player"),
    path("leaderboard/", rating_routes.LeaderboardApi.as_view(), name="leaderboard"),
    path("tournaments/", tournament_routes.TournamentsApi.as_view(), name="tournaments"),
    path(
        "tournaments/<int:tournament_id>/",
        tournament_routes.TournamentApi.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/join/",
        tournament_routes.JoinApi.as_view(),
        name="tournament-join",
    ),
    path(
        "tournaments/<int:tournament_id>/leave/",
        tournament_routes.LeaveApi.as_view(),
        name="tournament-leave",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        tournament_routes.StartApi.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/events/",
        tournament_routes.EventsApi.as_view(),
        name="tournament-events",
    ),
]
