"""The ratings' tables (games/ratings/): projections of finished games."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class RatedGame(models.Model):
    """A game the ratings counted (games.ratings.services): finished, unrigged, humans only. Rated
    in
    the order games ended: (`ended_at`, game id). A projection of game_ended events."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")  # fmt: skip
    variant = models.CharField(max_length=20)
    ended_at = models.DateTimeField()  # the game_ended event's `at`

    class Meta:
        ordering = ["ended_at", "game_id"]
        indexes = [models.Index(fields=["ended_at", "game"], name="rated_game_order")]


class RatingChange(models.Model):
    """A player's ratings right after one rated game: overall and in the game's variant."""

    rated = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")  # fmt: skip
    won = models.BooleanField()
    mu = models.FloatField()
    sigma = models.FloatField()
    variant_mu = models.FloatField()
    variant_sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rated", "user"], name="rating_change_game_user")
        ]


class PlayerRating(models.Model):
    """A player's current rating in one scope: "all" (every rated game) or one variant (that
    variant's games only). The latest RatingChange of that scope, kept for the leaderboard."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")  # fmt: skip
    scope = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "scope"], name="player_rating_user_scope")
        ]
