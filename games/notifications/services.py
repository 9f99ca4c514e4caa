"""Reads and writes of a user's notifications and mail preferences (the API's one service), and
`notification_tell`: how another app (replays: a staff decision) tells a user something."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games.core.errors import ApiError
from games.engine.errors import Code
from games.notifications import outbox, runner
from games.notifications.derive import DISPUTE_DECIDED as DISPUTE_DECIDED  # for replays
from games.notifications.models import Notification, NotificationPrefs
from games.notifications.push import payload, unread

LIST_LIMIT = 100


def notifications_list(*, user, unread_only: bool) -> dict[str, Any]:
    """The newest notifications (at most LIST_LIMIT) and the unread count."""
    rows = Notification.objects.filter(user=user).order_by("-at", "-pk")
    if unread_only:
        rows = rows.filter(read=False)
    return {"notifications": [payload(r) for r in rows[:LIST_LIMIT]], "unread": unread(user.pk)}


def notifications_page(*, user) -> QuerySet[Notification]:
    """Every notification of `user`, newest first (the /notifications/ page pages it)."""
    return Notification.objects.filter(user=user).order_by("-at", "-pk")


def unread_count(*, user) -> int:
    return unread(user.pk)


def notifications_read(*, user, body: dict[str, Any]) -> dict[str, Any]:
    """Mark `ids` (the caller's own; others' are ignored) or `all` as read."""
    if set(body) == {"all"} and body["all"] is True:
        rows = Notification.objects.filter(user=user, read=False)
    elif (
        set(body) == {"ids"}
        and isinstance(body["ids"], list)
        and all(isinstance(i, int) and not isinstance(i, bool) for i in body["ids"])
    ):
        rows = Notification.objects.filter(user=user, pk__in=body["ids"][:1000])
    else:
        raise ApiError(Code.INVALID, 'send {"ids": [whole numbers]} or {"all": true}')
    rows.update(read=True)
    return {"unread": unread(user.pk)}


def notifications_seen(*, user, game_id: int, seq: int) -> int:
    """The user's table page showed game `game_id` up to `seq` in a visible tab: what it told
    about that game up to there is read (the first `your_turn` of a game that started before
    its table opened, say). Not a dispute's decision: the table does not show it. Returns how
    many became read."""
    return (
        Notification.objects.filter(user=user, game_id=game_id, seq__lte=seq, read=False)
        .exclude(kind=DISPUTE_DECIDED)
        .update(read=True)
    )


def notification_tell(*, user_id: int, kind: str, game_id: int, seq: int) -> Notification | None:
    """Tell one user something that is no game event (staff decided their dispute:
    DISPUTE_DECIDED), inside the caller's transaction: the row, its outbox row if the user
    wants each mail at once, and after COMMIT the `/ws/me/` push and the mail task, as for
    a game's own notifications (mail by preference, at most once: games.notifications.outbox).
    At most one row per (user, kind, game, seq): a second call tells nothing (returns None)."""
    with transaction.atomic():
        row, new = Notification.objects.get_or_create(
            user_id=user_id, kind=kind, game_id=game_id, seq=seq,
            defaults={"at": timezone.now()},
        )  # fmt: skip
        if not new:
            return None
        mail_ids = outbox.enqueue([row])
    transaction.on_commit(lambda: runner.deliver([row], mail_ids))
    return row


def prefs_view(prefs: NotificationPrefs) -> dict[str, Any]:
    return {"email": prefs.email or None, "email_mode": prefs.email_mode,
            "language": prefs.language, "push": prefs.push}  # fmt: skip


def prefs_get(*, user) -> dict[str, Any]:
    prefs = NotificationPrefs.objects.filter(user=user).first() or NotificationPrefs(user=user)
    return prefs_view(prefs)


def prefs_set(*, user, body: dict[str, Any]) -> dict[str, Any]:
    """Replace the preferences; a field left out keeps its value. ApiError(invalid)."""
    prefs = NotificationPrefs.objects.filter(user=user).first() or NotificationPrefs(user=user)
    if "email" in body:
        prefs.email = _email(body["email"])
    if "email_mode" in body:
        prefs.email_mode = _choice(body["email_mode"], NotificationPrefs.MODES, "email_mode")
    if "language" in body:
        prefs.language = _choice(body["language"], NotificationPrefs.LANGUAGES, "language")
    if "push" in body:
        if not isinstance(body["push"], bool):
            raise ApiError(Code.INVALID, "push is true or false")
        prefs.push = body["push"]
    prefs.save()
    return prefs_view(prefs)


def unsubscribe(*, user_id: int) -> None:
    """The unsubscribe link: no more mail (email_mode off)."""
    prefs, _ = NotificationPrefs.objects.get_or_create(user_id=user_id)
    prefs.email_mode = "off"
    prefs.save(update_fields=["email_mode"])


def _email(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 254:
        raise ApiError(Code.INVALID, "email is an address or null")
    try:
        validate_email(value)
    except ValidationError:
        raise ApiError(Code.INVALID, "email is not a valid address") from None
    return value


def _choice(value: Any, choices: tuple[str, ...], name: str) -> str:
    if value not in choices:
        raise ApiError(Code.INVALID, f"{name} is one of {', '.join(choices)}")
    return value
