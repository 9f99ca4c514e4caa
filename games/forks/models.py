"""The forks' table (games/forks/): which game a fork came from, for GET /api/games/{id}/forks/."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class Fork(models.Model):
    """A game played on from a moment of another (issue 30). The truth is the fork's first
    event (`forked`, which also names the source's chain hash at `at`); this row, written in
    the transaction that creates the fork, only finds a game's forks fast."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="fork")  # fmt: skip
    source = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="forks")
    at = models.PositiveIntegerField()
    deal = models.CharField(max_length=5)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+")  # fmt: skip
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["source", "game"]
