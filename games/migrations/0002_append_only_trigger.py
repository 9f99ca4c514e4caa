"""On PostgreSQL, game events are append-only: a trigger refuses UPDATE and DELETE."""

from django.db import migrations

from games.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("games", "0001_event_store")]
    operations = [append_only("games_gameevent", "games_event_append_only")]
