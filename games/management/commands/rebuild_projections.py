"""`manage.py rebuild_projections`: drop every read model and rebuild it from the events."""

import time

from django.core.management.base import BaseCommand
from django.db import transaction

from games.table.projections import rebuild_all


class Command(BaseCommand):
    help = (
        "Drop and rebuild every projection (state, lobby, seats, stats, snapshots, ratings) "
        "from events."
    )

    def handle(self, *args, **opts):
        started = time.perf_counter()
        with transaction.atomic():
            games = rebuild_all()
        self.stdout.write(f"rebuilt {games} games in {time.perf_counter() - started:.2f} s")
