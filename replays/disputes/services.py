"""Disputes: writes (open, note, close) and reads (the caller's disputes, the staff's evidence).

Who may see what: a seated player opens disputes on their game and sees their own; staff see
every dispute. Anyone else asking for a dispute gets `not_found`, so its existence stays hidden.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import IntegerField, OuterRef, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from games.core import event_store
from games.core.codec import iso
from games.core.errors import ApiError, not_found
from games.core.models import Game, GameEvent
from games.engine import events as ev
from games.engine.errors import Code
from games.notifications.services import DISPUTE_DECIDED, notification_tell
from games.table.models import PlayerSeat
from replays.disputes.models import REASON_MAX_LENGTH, Dispute, DisputeNote
from replays.transcript import transcript

CLOSED = (Dispute.Status.RESOLVED, Dispute.Status.REJECTED)
# Caps (API.md, Conventions: 429 `too_many`): a player's open disputes, per game and in all.
# Retry-After says "in an hour": a cap frees when staff decide one, which takes that long.
OPEN_PER_GAME, OPEN_IN_ALL, CAP_RETRY_AFTER_S = 5, 20, 3600

# Writes


def dispute_open(*, user, game_id: int, reason: Any, seq: Any = None) -> Dispute:
    """`user`, seated in game `game_id`, disputes it, optionally naming the event `seq` it is
    about. Raises ApiError: not_found (no such game), forbidden (not seated in it: other users,
    spectators), invalid (reason not a string of 1..REASON_MAX_LENGTH characters after
    trimming, or holding a NUL; seq neither null nor a seq of the game's record), duplicate
    (this player already disputed this moment, open or decided: a decision is final)."""
    if not Game.objects.filter(pk=game_id).exists():
        raise not_found()
    if not PlayerSeat.objects.filter(game_id=game_id, user=user).exists():
        raise ApiError(Code.FORBIDDEN, "only a player of this game may dispute it")
    if not isinstance(reason, str) or not reason.strip():
        raise ApiError(Code.INVALID, "reason is a non-empty string")
    if "\x00" in reason:  # PostgreSQL stores no NUL in text (the API's parser refuses it too)
        raise ApiError(Code.INVALID, "reason may not contain NUL characters")
    reason = reason.strip()
    if len(reason) > REASON_MAX_LENGTH:
        raise ApiError(Code.INVALID, f"reason is at most {REASON_MAX_LENGTH} characters")
    _check_seq(game_id, seq)
    _check_caps(user, game_id)
    try:
        with transaction.atomic():  # the unique (game, player, seq) decides between two racers
            return Dispute.objects.create(game_id=game_id, opened_by=user, reason=reason, seq=seq)
    except IntegrityError:
        raise ApiError(Code.DUPLICATE, "you have already disputed this moment of the game "
                       "(GET /api/disputes/ shows it)") from None  # fmt: skip


def _check_caps(user, game_id: int) -> None:
    """ApiError too_many past OPEN_PER_GAME open disputes of `user` in the game or OPEN_IN_ALL
    in all (a race of two of his own requests may pass one over: the caps bound abuse)."""
    mine = Dispute.objects.filter(opened_by=user, status=Dispute.Status.OPEN)
    counts = mine.aggregate(
        all=models.Count("pk"), here=models.Count("pk", filter=models.Q(game_id=game_id))
    )
    if counts["here"] >= OPEN_PER_GAME:
        raise ApiError(Code.TOO_MANY, f"at most {OPEN_PER_GAME} open disputes per game: wait "
                       "for staff to decide one", retry_after=CAP_RETRY_AFTER_S)  # fmt: skip
    if counts["all"] >= OPEN_IN_ALL:
        raise ApiError(Code.TOO_MANY, f"at most {OPEN_IN_ALL} open disputes in all: wait for "
                       "staff to decide one", retry_after=CAP_RETRY_AFTER_S)  # fmt: skip


def _check_seq(game_id: int, seq: Any) -> None:
    if seq is None:
        return
    last = GameEvent.objects.filter(game_id=game_id).order_by("-seq").values_list("seq").first()
    last_seq = last[0] if last else 0
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= last_seq:
        raise ApiError(Code.INVALID, f"seq is null or a whole number from 1 to {last_seq}")


def dispute_note_add(*, dispute: Dispute, author, text: str) -> DisputeNote:
    """Append a staff note (notes are never edited or deleted). ValueError for an empty text."""
    if not text.strip():
        raise ValueError("a note needs some text")
    return DisputeNote.objects.create(dispute=dispute, author=author, text=text.strip())


def dispute_close(*, dispute_id: int, by, status: str, resolution: str) -> Dispute:
    """Resolve or reject an open dispute, recording who decided and when, and tell the player
    who opened it (`dispute_decided`: the bell, and a mail by their preference; sent after
    COMMIT, so a decision that rolls back tells nothing). Only one decision is ever made, so
    the player is told once.

    Raises ValueError for a status other than resolved/rejected, an empty resolution, or a
    dispute that is no longer open (another admin decided first: the first decision stands).
    """
    if status not in CLOSED:
        raise ValueError("a dispute closes as resolved or rejected")
    if not resolution.strip():
        raise ValueError("closing a dispute needs a resolution")
    with transaction.atomic():
        changed = Dispute.objects.filter(pk=dispute_id, status=Dispute.Status.OPEN).update(
            status=status, resolution=resolution.strip(), resolved_by=by,
            resolved_at=timezone.now(),
        )  # fmt: skip
        if not changed:
            raise ValueError(f"dispute {dispute_id} is not open")
        dispute = Dispute.objects.get(pk=dispute_id)
        # seq 0: the dispute named no event (seqs start at 1); one dispute per player and
        # moment (the model's constraint) makes (player, kind, game, seq) one decision's.
        notification_tell(user_id=dispute.opened_by_id, kind=DISPUTE_DECIDED,
                          game_id=dispute.game_id, seq=dispute.seq or 0)  # fmt: skip
        return dispute


# Reads


def dispute_payload(d: Dispute) -> dict[str, Any]:
    """The public shape of a dispute; `seq` is null when the player named no event,
    `resolution` and `resolved_at` are null while open."""
    return {
        "id": d.pk, "game": d.game_id, "status": d.status, "reason": d.reason, "seq": d.seq,
        "opened_by": d.opened_by.username, "opened_at": iso(d.opened_at),
        "resolution": d.resolution or None,
        "resolved_at": iso(d.resolved_at) if d.resolved_at else None,
    }  # fmt: skip


def dispute_rows(user, *, status: str | None = None) -> models.QuerySet[Dispute]:
    """The caller's own disputes (staff: everyone's), oldest first, optionally by status, unread
    (GET /api/disputes/ reads one page of them). ApiError(Code.INVALID) for an unknown status.
    (The page /disputes/: `my_disputes`.)"""
    if status is not None and status not in Dispute.Status.values:
        raise ApiError(Code.INVALID, "status is open, resolved or rejected")
    rows = Dispute.objects.select_related("opened_by")
    if not user.is_staff:
        rows = rows.filter(opened_by=user)
    if status:
        rows = rows.filter(status=status)
    return rows


def my_disputes(user) -> list[Dispute]:
    """The player's own disputes for the page /disputes/, newest first, each with `turn`: the
    turn its moment fell in (None when no seq is named or the moment came before turn 1)."""
    # As text cast to a number: a JSON value read back is JSON text on PostgreSQL but a bare
    # number on SQLite (`make run`), which a JSONField cannot decode.
    turn = (GameEvent.objects
            .filter(game_id=OuterRef("game_id"), seq__lte=OuterRef("seq"), type=ev.TURN_STARTED)
            .order_by("-seq").values(turn=Cast(KT("data__turn"), IntegerField()))[:1])  # fmt: skip
    rows = Dispute.objects.filter(opened_by=user)
    return list(rows.annotate(turn=Subquery(turn)).order_by("-opened_at", "-id"))


def dispute_detail(user, dispute_id: int) -> dict[str, Any]:
    """One dispute, if it is the caller's own or the caller is staff; else not_found."""
    rows = Dispute.objects.select_related("opened_by")
    if not user.is_staff:
        rows = rows.filter(opened_by=user)
    dispute = rows.filter(pk=dispute_id).first()
    if dispute is None:
        raise not_found("dispute")
    return dispute_payload(dispute)


# Evidence for staff (the admin's read-only sections)


def game_event_rows(game_id: int) -> list[dict[str, Any]]:
    """Every stored event of the game, unredacted, with its hash (staff only)."""
    rows = GameEvent.objects.filter(game_id=game_id).order_by("seq")
    return [
        {"seq": r.seq, "type": r.type, "at": iso(r.at), "data": r.data,
         "hash": r.hash}
        for r in rows
    ]  # fmt: skip


def game_transcript(game_id: int, *, lang: str = "en") -> list[str]:
    """The whole game told line by line for an omniscient reader (staff only)."""
    events = [event_store.to_event(r) for r in event_store.load(game_id)]
    return transcript(events, lang=lang)
