"""The table's tables: who sits where and players' stats (projections of the events), standing
orders and vacations (a player's own append-only rows, not a game's)."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class PlayerSeat(models.Model):
    """Who sits where (a projection of seat_taken events): finds a user's games fast."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="seats")  # fmt: skip

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="seat_game_seat")]


class PlayerStats(models.Model):
    """Finished games and wins per player (a projection of game_ended events)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="stats")  # fmt: skip
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)


class StandingOrder(models.Model):
    """A player's standing order for block windows (issue 10): for one game, or his default
    for every game without one (`game` null). Belongs to the user and is append-only: a change
    is a new row, the latest row of (user, game) is the order, and `block` null removes it.
    Private: only its owner reads it (games.table.standing_orders); the game's log shows only the
    answers it gave (`"standing": true`)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, related_name="+")
    block = models.CharField(max_length=20, null=True)  # games.engine.ORDERS, or null
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "game", "id"], name="standing_order_latest")]


class VacationDeclaration(models.Model):
    """A player's vacation as declared (games.table.vacations): his games' clocks stand still from
    `declared_at` to `until`, unless a VacationEnd ends it earlier. Rows are only inserted;
    the allowance left is computed from them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="vacations")  # fmt: skip
    declared_at = models.DateTimeField()
    until = models.DateTimeField()
    days = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["user", "declared_at"]


class VacationEnd(models.Model):
    """The end of a declared vacation before (or at) its `until`: by the player (`ended`), by
    an accepted command of his (`acted`) or by the clock (`expired`). Only inserted."""

    declaration = models.OneToOneField(VacationDeclaration, on_delete=models.CASCADE,
                                       related_name="end")  # fmt: skip
    at = models.DateTimeField()
    reason = models.CharField(max_length=10)


class GameContext(models.Model):
    """What a game is part of, written with its creation by the feature that made it (a
    tournament's round: games.tournaments), read by the game's view (`"tournament"`) and by
    the deal's secrecy: games sharing a `deal` (a duplicate deal) hide their seed and hands
    while one of them still plays (games.table.duplicates). The table knows no tournament:
    only these plain values."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="context")  # fmt: skip
    tournament_id = models.PositiveIntegerField()
    tournament_name = models.CharField(max_length=80)
    round = models.PositiveSmallIntegerField()
    deal = models.CharField(max_length=64, null=True, db_index=True)
