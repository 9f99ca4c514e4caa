"""The tournaments' tables (games/tournaments/). `Tournament` is the identity (and the row every
write locks); `TournamentEvent` is the truth: append-only, hash-chained like a game's log
(games.core.event_store's hash), (tournament, seq) unique. `TournamentProjection` (the folded
state: players, rounds, tables, standings) and `TournamentGame` (which game belongs to which
round) are projections of it, rebuilt by `rebuild_projections`."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class Tournament(models.Model):
    """A tournament's identity. Its row is locked by every write to its log."""

    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="+")  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"tournament {self.pk}"


class TournamentEvent(models.Model):
    """One event of one tournament: seq 1, 2, 3 … without gaps; never updated or deleted (a
    PostgreSQL trigger refuses both, games/append_only.py). `hash` = SHA-256(prev_hash +
    canonical content), as a game's."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    v = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()
    at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tournament_event_seq")
        ]
        ordering = ["tournament", "seq"]


class TournamentProjection(models.Model):
    """The tournament folded from its log (games.tournaments.fold): what the views read."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True,
                                      related_name="projection")  # fmt: skip
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, db_index=True)
    state = models.JSONField()
    updated_at = models.DateTimeField()


class TournamentGame(models.Model):
    """A game of a tournament's round (a projection of round_paired): the follower finds a
    game's tournament here."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")  # fmt: skip
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
