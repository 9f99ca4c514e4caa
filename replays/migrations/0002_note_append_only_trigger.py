"""On PostgreSQL, dispute notes are append-only: a trigger refuses UPDATE and DELETE."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION replays_note_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'replays_disputenote is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER replays_note_append_only
    BEFORE UPDATE OR DELETE ON replays_disputenote
    FOR EACH ROW EXECUTE FUNCTION replays_note_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS replays_note_append_only ON replays_disputenote;
DROP FUNCTION IF EXISTS replays_note_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("replays", "0001_disputes")]
    operations = [migrations.RunPython(forwards, backwards)]
