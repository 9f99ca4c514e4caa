"""On PostgreSQL, game events refuse TRUNCATE too (a statement trigger: TRUNCATE fires no row
trigger, so 0002's guard let it through)."""

from django.db import migrations

from games.append_only import refuse_truncate


class Migration(migrations.Migration):
    dependencies = [("games", "0003_drop_gameevent_visible_to")]
    operations = [refuse_truncate("games_gameevent")]
