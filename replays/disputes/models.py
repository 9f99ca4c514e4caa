"""Disputes: a player's claim about a game, and the staff's notes and decision on it.

The game's own record (`games.core.models.GameEvent`) is never touched here: a dispute only points
at it. Notes are append-only records of their own (a PostgreSQL trigger refuses UPDATE and
DELETE, migration 0002).
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.core.models import Game

REASON_MAX_LENGTH = 2000


def random_id() -> int:
    """A dispute's id: random in [2^32, 2^53), so it tells nothing of how many disputes there
    are, and stays exact as a JavaScript number. A collision (one in ~10^15 per pair) fails the
    insert's primary key like any race, and is not retried."""
    return 2**32 + secrets.randbelow(2**53 - 2**32)


class Dispute(models.Model):
    """A claim by a seated player about one game; open until staff resolve or reject it."""

    class Status(models.TextChoices):
        OPEN = "open"
        RESOLVED = "resolved"
        REJECTED = "rejected"

    id = models.BigIntegerField(primary_key=True, default=random_id, editable=False)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="disputes")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="disputes")  # fmt: skip
    reason = models.TextField(max_length=REASON_MAX_LENGTH)
    # The event the dispute is about, if the player named one; the admin links the replay
    # viewer to it (/games/{id}/replay/?at=seq).
    seq = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN,
                              db_index=True)  # fmt: skip
    resolution = models.TextField(blank=True, default="")
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="+")  # fmt: skip
    resolved_at = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["opened_at", "id"]
        constraints = [
            # One dispute per player and moment (the whole game, when no seq is named): a
            # second one is a duplicate (its decision would be told to nobody new), and the
            # player's notification of the decision is unique by (game, seq) too.
            models.UniqueConstraint(
                fields=["game", "opened_by", "seq"], name="dispute_once_per_moment"
            ),  # fmt: skip
            models.UniqueConstraint(
                fields=["game", "opened_by"],
                condition=Q(seq__isnull=True),
                name="dispute_once_per_game",
            ),  # fmt: skip
            # A decision always says who made it and when; an open dispute has none.
            models.CheckConstraint(
                condition=(
                    Q(status="open", resolved_by__isnull=True, resolved_at__isnull=True)
                    | (
                        Q(status__in=["resolved", "rejected"])
                        & Q(resolved_by__isnull=False, resolved_at__isnull=False)
                    )
                ),
                name="dispute_decision_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"dispute {self.pk} on game {self.game_id}"


class DisputeNote(models.Model):
    """A staff note on a dispute: written once, never edited or deleted."""

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="+")  # fmt: skip
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"note {self.pk} on dispute {self.dispute_id}"
