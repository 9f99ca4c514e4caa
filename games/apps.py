import sys

from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # `make run` serves with one process and sweeps deadlines in a thread of it.
        serving = "manage.py" not in sys.argv[0] or "runserver" in sys.argv
        if settings.SEJMI_INPROCESS_RUNNER and serving:
            from games.deadlines import start_runner

            start_runner()
