"""On PostgreSQL, dispute notes are append-only: a trigger refuses UPDATE and DELETE."""

from django.db import migrations

from games.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("replays", "0001_disputes")]
    operations = [append_only("replays_disputenote", "replays_note_append_only")]
