"""The odds' table (games/odds/)."""

from django.db import models

from games.core.models import Game


class GameOdds(models.Model):
    """A finished game's odds (issue 30): computed once in the background, then served as
    stored. `points` is null while pending. A projection of the events (and of chance): drop
    a row and the next read computes it again."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="odds")  # fmt: skip
    requested_at = models.DateTimeField()  # when the task was (last) sent
    playouts = models.PositiveIntegerField()
    points = models.JSONField(null=True)  # [{"seq", "win": [per seat]}]
    cpu_seconds = models.FloatField(null=True)  # what computing them cost (docs/PERFORMANCE.md)
    computed_at = models.DateTimeField(null=True)
