from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        """The features that follow the games' logs register here (games.core.followers): the
        table calls none of them. And every path that makes a user (the API, the sign-up page,
        the admin) writes his folded name: no two accounts are look-alikes
        (games.accounts.names)."""
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from games.accounts.services import account_made
        from games.notifications import follower as notifications
        from games.ratings import follower as ratings
        from games.table import stats
        from games.tournaments import follower as tournaments

        # the order they catch a game up in: a tournament's next round comes after the end
        # was rated and told
        for feature in (stats, ratings, notifications, tournaments):
            feature.register()
        post_save.connect(account_made, sender=get_user_model(), dispatch_uid="account_name")
