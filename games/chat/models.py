"""The chat's tables (games/chat/)."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class ChatMessage(models.Model):
    """One chat message of one game (games/chat/rules.py says who reads and writes each channel).
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
    # Its place in its stream (the game's channel; one stream per pair for partners), 1, 2, 3…:
    # the id its readers see, so one channel's ids tell nothing of the others' (issue 21).
    number = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["game", "channel", "id"], name="chat_game_channel_id"),
            models.Index(fields=["game", "channel", "team", "number"], name="chat_stream_number"),
        ]
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
