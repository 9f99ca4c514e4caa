"""Browser pages (API.md "Web pages"): server-rendered templates; the live table and the
replay viewer are ES modules that speak only the public API."""

from django.urls import path

from frontend import (
    install_pages,
    notification_pages,
    pages,
    rating_pages,
    rules_pages,
    table_pages,
    tournament_pages,
)

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("signup/", pages.signup, name="signup"),
    path("login/", pages.login_page, name="login"),
    path("logout/", pages.logout_page, name="logout"),
    path("me/", pages.my_games, name="my-games"),
    path("games/<int:game_id>/", table_pages.table, name="table"),
    path("games/<int:game_id>/replay/", table_pages.replay, name="replay-page"),
    path("games/<int:game_id>/seen/", table_pages.seen, name="table-seen"),
    path("me/preferences/", notification_pages.preferences, name="notification-prefs"),
    path("notifications/", notification_pages.notifications, name="notifications-page"),
    path(
        "notifications/read/", notification_pages.notifications_read, name="notifications-read"
    ),  # fmt: skip
    path("unsubscribe/<str:token>/", notification_pages.unsubscribe, name="unsubscribe"),
    path("players/<str:username>/", rating_pages.player, name="player-page"),
    path("leaderboard/", rating_pages.leaderboard, name="leaderboard-page"),
    path("tournaments/", tournament_pages.tournaments, name="tournaments-page"),
    path("tournaments/<int:tournament_id>/", tournament_pages.tournament, name="tournament-page"),
    path(
        "tournaments/<int:tournament_id>/<str:act>/",
        tournament_pages.tournament_act,
        name="tournament-act",
    ),
    path("rules/", rules_pages.rules, name="rules-page"),
    path("manifest.webmanifest", install_pages.manifest, name="manifest"),
    path("sw.js", install_pages.service_worker, name="service-worker"),
    path("offline/", install_pages.offline, name="offline"),
    path("offline.js", install_pages.offline_script, name="offline-script"),
]
