"""The notes' tables (games/notes/)."""

from django.conf import settings
from django.db import models

from games.core.models import Game


class GameNote(models.Model):
    """A player's note at a moment (`seq`) of a game (issue 30). Beside the game's events, not
    among them. Private while the game runs (its author alone reads it); after the end a
    public one is everyone's. Only inserted; staff hiding one adds a `NoteHiding`."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="+")  # fmt: skip
    seq = models.PositiveIntegerField()
    text = models.TextField()
    public = models.BooleanField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "seq", "id"], name="note_game_seq")]


class NoteHiding(models.Model):
    """Staff hid a public note: who, when and why (as a chat message is hidden)."""

    note = models.OneToOneField(GameNote, on_delete=models.PROTECT, related_name="hiding")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    at = models.DateTimeField()
