from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from games.accounts.services import account_made

        # Every path that makes a user (the API, the sign-up page, the admin) writes his folded
        # name: no two accounts are look-alikes (games.accounts.names).
        post_save.connect(account_made, sender=get_user_model(), dispatch_uid="account_name")
