"""On PostgreSQL, dispute notes refuse TRUNCATE too (a statement trigger: TRUNCATE fires no
row trigger, so 0002's guard let it through)."""

from django.db import migrations

from games.append_only import refuse_truncate


class Migration(migrations.Migration):
    dependencies = [("replays", "0003_dispute_seq")]
    operations = [refuse_truncate("replays_disputenote")]
