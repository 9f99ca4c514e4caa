"""Features follow the log (games.core.followers): one cursor table for every follower. The
notifications' cursors move over; stats and ratings were written in each command's transaction
until now, so every game's cursor of theirs starts at its head (nothing is counted twice)."""

import django.db.models.deletion
from django.db import migrations, models


def cursors_over(apps, schema_editor):
    db = schema_editor.connection.alias  # the tables' owner migrates (`migrate --database owner`)
    cursor = apps.get_model("games", "FollowerCursor")
    told = apps.get_model("games", "NotificationCursor").objects.using(db)
    heads = apps.get_model("games", "GameProjection").objects.using(db)
    rows = []
    for game_id, seq in heads.values_list("game_id", "seq").iterator():
        rows += [cursor(follower="stats", game_id=game_id, seq=seq),
                 cursor(follower="ratings", game_id=game_id, seq=seq)]  # fmt: skip
    rows += [cursor(follower="notifications", game_id=g, seq=s)
             for g, s in told.values_list("game_id", "seq")]  # fmt: skip
    cursor.objects.using(db).bulk_create(rows, batch_size=1000)


def cursors_back(apps, schema_editor):
    db = schema_editor.connection.alias
    told = apps.get_model("games", "NotificationCursor")
    rows = (
        apps.get_model("games", "FollowerCursor").objects.using(db).filter(follower="notifications")
    )
    told.objects.using(db).bulk_create([told(game_id=r.game_id, seq=r.seq) for r in rows],
                                       batch_size=1000)  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_quiet_at_the_table"),
    ]

    operations = [
        migrations.CreateModel(
            name="FollowerCursor",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("follower", models.CharField(max_length=40)),
                ("seq", models.PositiveIntegerField(default=0)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.game",
                    ),
                ),
            ],
        ),
        migrations.AddConstraint(
            model_name="followercursor",
            constraint=models.UniqueConstraint(
                fields=("follower", "game"), name="follower_cursor_once"
            ),
        ),
        migrations.RunPython(cursors_over, cursors_back),
        migrations.DeleteModel(
            name="NotificationCursor",
        ),
    ]
