"""R19: passes of an open block window are kept sealed (games.core.sealed_passes) until it
closes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_refuse_truncate"),
    ]

    operations = [
        migrations.CreateModel(
            name="SealedPass",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("window_seq", models.PositiveIntegerField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("v", models.PositiveSmallIntegerField(default=1)),
                ("data", models.JSONField()),
                ("at", models.DateTimeField()),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.game",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "window_seq", "id"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "window_seq", "seat"), name="sealed_pass_game_window_seat"
                    )
                ],
            },
        ),
    ]
