"""Storage. `GameEvent` is the truth (append-only, hash-chained); everything else here is a
projection that `rebuild_projections` can drop and rebuild from the events, except `Game`
(identity and the secret seed), `IdempotentAnswer` (the first answer to a retried command),
`SealedPass` (passes of an open block window, not in the log yet: R19) and a player's vacations
(`VacationDeclaration`, `VacationEnd`: his, not a game's).
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
    deadline_kind = models.CharField(max_length=10, null=True)  # deadlines.DeadlineKind
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


# --- notifications (games/notifications/) -------------------------------------------------------


class Notification(models.Model):
    """One thing a player is told (API.md "Notifications"), derived from the committed events
    (games.notifications.derive). (user, kind, game, seq) is unique: a derivation that runs
    twice creates nothing the second time. Rows are only inserted, except `read`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")  # fmt: skip
    kind = models.CharField(max_length=20)  # your_turn | block_window | deadline_soon | ...
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()  # the event (or the decision's seq) it is about
    at = models.DateTimeField()
    read = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "game", "seq"],
                                    name="notification_once")  # fmt: skip
        ]
        indexes = [models.Index(fields=["user", "read"], name="notification_user_read")]


class NotificationCursor(models.Model):
    """How far a game's events have been turned into notifications; its row lock serialises
    the derivations of one game (the Celery task, a duplicate of it, the sweeper)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="notify_cursor")  # fmt: skip
    seq = models.PositiveIntegerField(default=0)


class DeadlineReminder(models.Model):
    """`deadline_soon` for the decision pending at (game, seq): due at 80 % of its time."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    remind_at = models.DateTimeField()
    done = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="reminder_game_seq")
        ]
        # The due ones only: the deadline runner asks every second, and the done rows (one per
        # decision ever made) would make each ask scan the whole past.
        indexes = [
            models.Index(fields=["remind_at"], condition=models.Q(done=False),
                         name="reminder_due")  # fmt: skip
        ]


class NotificationPrefs(models.Model):
    """A user's mail preferences (`PUT /api/me/preferences/`); no row = the defaults."""

    MODES = ("immediate", "digest", "off")
    LANGUAGES = ("cs", "en")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="notification_prefs")  # fmt: skip
    email = models.EmailField(null=True, blank=True)
    email_mode = models.CharField(max_length=10, default="immediate")
    language = models.CharField(max_length=2, default="en")


class OutboxMail(models.Model):
    """One mail to send: a notification's (immediate) or a user's day (digest). `state` moves
    pending → sending (claimed, with a lease) → sent | skipped | failed | lost; a row found
    `sending` after its lease is marked lost, never sent again: at most once (README)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    notification = models.OneToOneField(Notification, on_delete=models.CASCADE, null=True,
                                        related_name="mail")  # fmt: skip
    digest_day = models.DateField(null=True)
    state = models.CharField(max_length=10, default="pending", db_index=True)
    lease_until = models.DateTimeField(null=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "digest_day"], name="outbox_one_digest_a_day")
        ]


class Presence(models.Model):
    """A connected game socket of a user (one row per socket), kept alive by a heartbeat: the
    rows of a crashed worker simply expire. Mail is not sent for a game its player has open."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=200, unique=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "game"], name="presence_user_game")]
class StandingOrder(models.Model):
    """A player's standing order for block windows (issue 10): for one game, or his default
    for every game without one (`game` null). Belongs to the user and is append-only: a change
    is a new row, the latest row of (user, game) is the order, and `block` null removes it.
    Private: only its owner reads it (games.standing_orders); the game's log shows only the
    answers it gave (`"standing": true`)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, related_name="+")
    block = models.CharField(max_length=20, null=True)  # games.engine.ORDERS, or null
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "game", "id"], name="standing_order_latest")]
class VacationDeclaration(models.Model):
    """A player's vacation as declared (games.vacations): his games' clocks stand still from
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
class RatedGame(models.Model):
    """A game the ratings counted (games.ratings): finished, unrigged, humans only. Rated in
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
