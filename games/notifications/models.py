"""Notifications' tables (games/notifications/)."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class Notification(models.Model):
    """One thing a player is told (API.md "Notifications"), derived from the committed events
    (games.notifications.derive). (user, kind, game, seq) is unique: a derivation that runs
    twice creates nothing the second time. Rows are only inserted, except `read`.
    `born_read`: told while its player had the game's table open in a visible tab
    (games.notifications.presence): stored read, and never mailed, not even in a digest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")  # fmt: skip
    kind = models.CharField(max_length=20)  # your_turn | block_window | deadline_soon | ...
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()  # the event (or the decision's seq) it is about
    at = models.DateTimeField()
    read = models.BooleanField(default=False)
    born_read = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "game", "seq"], name="notification_once"
            )  # fmt: skip
        ]
        indexes = [models.Index(fields=["user", "read"], name="notification_user_read")]


class DeadlineReminder(models.Model):
    """`deadline_soon` for the decision pending at (game, seq): due at 80 % of its time."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    remind_at = models.DateTimeField()
    done = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="reminder_game_seq")]
        # The due ones only: the deadline runner asks every second, and the done rows (one per
        # decision ever made) would make each ask scan the whole past.
        indexes = [
            models.Index(
                fields=["remind_at"], condition=models.Q(done=False), name="reminder_due"
            )  # fmt: skip
        ]


class NotificationPrefs(models.Model):
    """A user's mail and push preferences (`PUT /api/me/preferences/`); no row = the defaults.
    `push`: Web Push to his subscribed browsers (games.notifications.web_push)."""

    MODES = ("immediate", "digest", "off")
    LANGUAGES = ("cs", "en")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="notification_prefs")  # fmt: skip
    email = models.EmailField(null=True, blank=True)
    email_mode = models.CharField(max_length=10, default="immediate")
    language = models.CharField(max_length=2, default="en")
    push = models.BooleanField(default=True)


class OutboxMail(models.Model):
    """One mail to send: a notification's (immediate) or a user's day (digest). `state` moves
    pending → sending (claimed, with a lease) → sent | skipped | failed | lost; a row found
    `sending` after its lease is marked lost, never sent again: at most
    once (docs/NOTIFICATIONS.md)."""

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
    rows of a crashed worker simply expire. Mail is not sent for a game its player has open.
    `visible`: the page says its tab is visible (Page Visibility API): what is told about
    the game meanwhile is born read (docs/NOTIFICATIONS.md, "Quiet at the table")."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=200, unique=True)
    expires_at = models.DateTimeField(db_index=True)
    visible = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["user", "game"], name="presence_user_game")]
