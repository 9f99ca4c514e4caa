"""The log's tables. `GameEvent` is the truth (append-only, hash-chained); `Game` holds identity
and the secret seed, `IdempotentAnswer` the first answer to a retried command, `SealedPass` the
passes of an open block window not in the log yet (R19). `GameProjection` and `GameSnapshot`
are projections every feature reads; `rebuild_projections` can drop and rebuild them."""

from enum import StrEnum

from django.conf import settings
from django.db import models

from games.engine.timeouts import BLOCK_DEADLINE, TURN_DEADLINE


class Game(models.Model):
    """A game's identity and its secret seed (R22: revealed only in the game_ended event)."""

    seed = models.BinaryField(editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"game {self.pk}"


class GameEvent(models.Model):
    """One event of one game. seq is 1, 2, 3 … without gaps; (game, seq) is unique, and that
    constraint is the final guard of optimistic concurrency. Rows are never updated or deleted
    (a PostgreSQL trigger refuses both). `hash` = SHA-256(prev_hash + canonical content)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    v = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()
    at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_game_seq")]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class DeadlineKind(StrEnum):
    """Which deadline is pending; stored in GameProjection.deadline_kind."""

    BOT = "bot"  # an awaited seat is a bot: due at once
    BLOCK = BLOCK_DEADLINE  # R19: the block window, timed by the option block_window_s
    TURN = TURN_DEADLINE  # any other decision, timed by turn_deadline_s
    VACATION = "vacation"  # the clocks stand still: due when the first vacation runs out
    ABANDON = "abandon"  # no human acted for SEJMI_ABANDON_AFTER_DAYS: the game ends

    @property
    def times_a_decision(self) -> bool:
        """A decision's deadline (R21): a late command applies it first (games.table.commit)."""
        return self in (DeadlineKind.BOT, DeadlineKind.BLOCK, DeadlineKind.TURN)

    @property
    def a_human_decides(self) -> bool:
        """A human's decision is timed (a bot's is due at once): it gets a reminder."""
        return self in (DeadlineKind.BLOCK, DeadlineKind.TURN)


class GameProjection(models.Model):
    """The game's current state at `seq`, plus what lobby lists and the deadline sweeper ask."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="projection")  # fmt: skip
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, db_index=True)
    variant = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField()
    players = models.JSONField()  # usernames by seat, null for a free seat
    winners = models.JSONField(null=True)
    state = models.JSONField()  # games.core.codec.state_to_json
    decision_since = models.DateTimeField(null=True)  # when the pending decision was asked
    deadline_at = models.DateTimeField(null=True, db_index=True)
    deadline_kind = models.CharField(max_length=10, null=True)  # DeadlineKind
    paused_at = models.DateTimeField(null=True)  # a seat's vacation stopped the clocks then
    human_acted_at = models.DateTimeField(null=True)  # the last act of a human (abandonment)
    updated_at = models.DateTimeField()


class GameSnapshot(models.Model):
    """The state right after event `seq`, every SNAPSHOT_EVERY events, so replays fold little."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="snapshot_game_seq")]


class IdempotentAnswer(models.Model):
    """The first successful answer to a command sent with an Idempotency-Key."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    answer = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "key"], name="idempotency_user_game_key"
            )
        ]


class SealedPass(models.Model):
    """R19: a pass that left its block window open, kept out of the public log until the window
    closes; then it is appended as a `block_passed` event with its own `at`, in the order
    received (games.core.sealed_passes). Truth not told yet, not a projection: rebuilds keep it.
    Rows are
    only ever inserted; a closed window's rows stay, never read again (the seq moved on)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    window_seq = models.PositiveIntegerField()  # the game's seq while the window is open
    seat = models.PositiveSmallIntegerField()
    v = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()  # the block_passed event's data
    at = models.DateTimeField()  # when the pass was received: its event's `at`

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "window_seq", "seat"], name="sealed_pass_game_window_seat"
            )
        ]
        ordering = ["game", "window_seq", "id"]  # the order received


class HeadSignature(models.Model):
    """The service's Ed25519 signature of a game's head (games.core.signing): written with the
    events it covers, at every checkpoint (each CHECKPOINT_EVERY-th event) and at game_ended.
    Rows are only ever inserted; the key that made them is not in the database."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="head_signature_game_seq")
        ]


class FollowerCursor(models.Model):
    """How far one follower (a feature that follows the logs: games.core.followers) has caught
    a game up; its row lock serialises that follower's work on that game."""

    follower = models.CharField(max_length=40)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "game"], name="follower_cursor_once")
        ]
