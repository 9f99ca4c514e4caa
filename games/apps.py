from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        """The features that follow the games' logs register here (games.core.followers): the
        table calls none of them."""
        from games.notifications import follower as notifications
        from games.ratings import follower as ratings
        from games.table import stats
        from games.tournaments import follower as tournaments

        # the order they catch a game up in: a tournament's next round comes after the end
        # was rated and told
        for feature in (stats, ratings, notifications, tournaments):
            feature.register()
