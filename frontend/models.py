"""The browser client's own data: what a user last saw of each game."""

from django.conf import settings
from django.db import models


class GameVisit(models.Model):
    """The last seq a user was shown of a game's table, read when he opens it again to mark
    "since your last visit" (issue 8, Coming back). One row per user and game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    last_seq = models.PositiveIntegerField()
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_visit_user_game")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} saw game {self.game_id} up to {self.last_seq}"
