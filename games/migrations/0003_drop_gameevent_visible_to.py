"""GameEvent.visible_to was written and never read (issue 7): payloads are redacted when they
are made (engine/views.py).

It never took part in the hash chain (event_store.event_hash covers seq, type, v, data, at), so
dropping it leaves every stored hash valid. DROP COLUMN fires no row trigger (append-only holds).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0002_append_only_trigger")]
    operations = [migrations.RemoveField(model_name="gameevent", name="visible_to")]
