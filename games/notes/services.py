"""Notes at a moment of a game (issue 30; API.md, "Play on from a moment, notes and odds"):
a caller keeps his own notes at any seq he may see; while the game runs nobody else reads
them (staff included); once it has ended, the public ones are everyone's. Staff hide a public
note as they hide a chat message (games/chat): the row stays, its text is served to nobody."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.core.codec import iso
from games.core.errors import ApiError, not_found
from games.engine.errors import Code
from games.engine.state import ENDED
from games.notes.models import GameNote, NoteHiding
from games.table import spectating

MAX_LENGTH = 2000
MAX_REASON = 2000


def note_post(*, user, game_id: int, seq: Any, text: Any, public: Any) -> dict[str, Any]:
    """POST /api/games/{id}/notes/ → the new note. 400 invalid for a seq the caller cannot
    see (a delayed spectator's: beyond his shown seq, so the answer tells nothing of the
    present) or a text outside 1..2000 characters."""
    last, _, _ = spectating.last_seq_for(game_id, user)  # 404 for an unknown game
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= last:
        raise ApiError(Code.INVALID, f"seq is a seq of the game, 1 to {last}")
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_LENGTH or not text.strip():
        raise ApiError(Code.INVALID, f"text is 1 to {MAX_LENGTH} characters")
    if not isinstance(public, bool):
        raise ApiError(Code.INVALID, "public is true or false")
    note = GameNote.objects.create(game_id=game_id, author=user, seq=seq, text=text,
                                   public=public, at=timezone.now())  # fmt: skip
    return _shown(note, user.username, hidden=False)


def note_list(*, user, game_id: int) -> list[dict[str, Any]]:
    """GET /api/games/{id}/notes/: the caller's own notes, and everyone's public ones once the
    game has ended, by seq."""
    _, proj, _ = spectating.last_seq_for(game_id, user)  # 404 for an unknown game
    mine = Q(author_id=user.pk) if user.is_authenticated else Q(pk__in=[])
    seen = mine | Q(public=True) if proj.status == ENDED else mine
    rows = (GameNote.objects.filter(seen, game_id=game_id).select_related("author", "hiding")
            .order_by("seq", "id"))  # fmt: skip
    return [_shown(n, n.author.username, hidden=hasattr(n, "hiding")) for n in rows]


def note_hide(*, user, game_id: int, note_id: Any, reason: Any) -> dict[str, Any]:
    """Staff only: hide a public note (who, when, why are kept). 403 for anyone else; 404 for
    a note that is not this game's public one (a private note is its author's alone)."""
    if not user.is_staff:
        raise ApiError(Code.FORBIDDEN, "only staff hide notes")
    if isinstance(note_id, bool) or not isinstance(note_id, int):
        raise ApiError(Code.INVALID, "id is the note's id")
    if not isinstance(reason, str) or not 1 <= len(reason) <= MAX_REASON:
        raise ApiError(Code.INVALID, f"reason is 1 to {MAX_REASON} characters")
    with transaction.atomic():
        note = (GameNote.objects.select_for_update().select_related("author")
                .filter(pk=note_id, game_id=game_id, public=True).first())  # fmt: skip
        if note is None:
            raise not_found("note")
        NoteHiding.objects.get_or_create(note=note, defaults={"by": user, "reason": reason,
                                                              "at": timezone.now()})  # fmt: skip
    return _shown(note, note.author.username, hidden=True)


def _shown(note: GameNote, author: str, *, hidden: bool) -> dict[str, Any]:
    return {"id": note.pk, "seq": note.seq, "author": author,
            "text": "" if hidden else note.text, "public": note.public, "at": iso(note.at),
            "hidden": hidden}  # fmt: skip
