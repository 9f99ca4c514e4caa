"""Storage. `GameEvent` is the truth (append-only, hash-chained); everything else here is a
projection that `rebuild_projections` can drop and rebuild from the events, except `Game`
(identity and the secret seed), `IdempotentAnswer` (the first answer to a retried command) and
`SealedPass` (passes of an open block window, not in the log yet: R19).
"""

from django.conf import settings
from django.db import models


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
    state = models.JSONField()  # games.codec.state_to_json
    decision_since = models.DateTimeField(null=True)  # when the pending decision was asked
    deadline_at = models.DateTimeField(null=True, db_index=True)
    deadline_kind = models.CharField(max_length=10, null=True)  # block | turn | bot
    updated_at = models.DateTimeField()


class GameSnapshot(models.Model):
    """The state right after event `seq`, every SNAPSHOT_EVERY events, so replays fold little."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="snapshot_game_seq")]


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
    received (games.sealing). Truth not told yet, not a projection: rebuilds keep it. Rows are
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


class ChatMessage(models.Model):
    """One chat message of one game (games/chat.py says who reads and writes each channel).
    Kept beside the game's events, not among them: chat is not in the rules' hash chain. Rows
    are only ever inserted (a PostgreSQL trigger refuses UPDATE and DELETE); hiding one is a
    `ChatHiding` row of its own."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="chat_messages")
    channel = models.CharField(max_length=12)  # table | partners | spectators
    team = models.PositiveSmallIntegerField(null=True)  # the pair of a partners message
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="+")  # fmt: skip
    seat = models.PositiveSmallIntegerField(null=True)  # the author's seat; null: not a player
    text = models.TextField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "channel", "id"], name="chat_game_channel_id")]
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"chat {self.pk} in game {self.game_id} ({self.channel})"


class ChatHiding(models.Model):
    """Staff hid a chat message: who, when and why. Append-only like the messages; the message
    is then served as hidden to everyone, and shown in full in a dispute's case file."""

    message = models.OneToOneField(ChatMessage, on_delete=models.PROTECT, related_name="hiding")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"hiding of chat {self.message_id}"
