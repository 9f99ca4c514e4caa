"""Issue 32: sign the heads of running games recorded before every batch was signed (0019), so
that no deployment has to remember `manage.py sign_heads` after migrating: their next command
would stop them as `game_tampered`. Runs with the signing key of the migrating process
(docker-compose's `migrate` service has SEJMI_SIGNING_KEY; `make run` makes `signing.key`).
It calls the service's current code (games.core.legacy_heads), not historical models: signing
needs the key and the hash chain's code; if a later change breaks this import, squash it."""

from django.db import migrations


def sign(apps, schema_editor) -> None:
    # A new database holds no game: nothing to sign, and nothing read through the service's
    # connection (compose migrates as the owner, before `grant_service_role` grants the
    # service's role the new tables). A deployment with games was granted them before.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM games_gameprojection LIMIT 1")
        if cursor.fetchone() is None:
            return
    from games.core.legacy_heads import sign_unsigned_heads

    sign_unsigned_heads()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_tourn_tournaments"),
    ]

    operations = [migrations.RunPython(sign, migrations.RunPython.noop, elidable=True)]
