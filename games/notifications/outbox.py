"""Mail, at most once per notification (and once a day per digest), exactly once in the normal
case. Each mail is an `OutboxMail` row written in the same transaction as its notification
(the digest: by the daily task). Sending claims the row — one UPDATE from `pending` to
`sending` with a lease — so of two tasks (a duplicate, the sweeper) only one sends. Then:
- accepted by the mail server → `sent`;
- the SMTP exchange failed (refused, unreachable) → `pending` again, up to MAX_ATTEMPTS;
- the worker died mid-send → the row stays `sending`; once the lease has passed the sweeper
  marks it `lost` and never sends it again: whether the server took it is unknown, and a
  second copy would break "at most once". (Only such a crash loses a mail.)
At send time the preference is read again: `off`, `digest` or no address → `skipped`, and
no immediate mail for a game whose table the player has open (`skipped`, presence). A
notification born read (told while its table was open in a visible tab) gets no row at all,
and no place in a digest.
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta

from django.core.mail import EmailMessage, get_connection
from django.db.models import F
from django.utils import timezone

from games.notifications import mails, presence
from games.notifications.models import Notification, NotificationPrefs, OutboxMail

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
MAX_ATTEMPTS = 3
PENDING, SENDING, SENT, SKIPPED, FAILED, LOST = (
    "pending",
    "sending",
    "sent",
    "skipped",
    "failed",
    "lost",
)


def prefs_of(user_id: int) -> NotificationPrefs:
    return NotificationPrefs.objects.filter(user_id=user_id).first() or NotificationPrefs(
        user_id=user_id
    )


def enqueue(rows: list[Notification], wanted: set[int] | None = None) -> list[int]:
    """Outbox rows for the new notifications of users who want each mail at once (inside the
    notifications' transaction: a crash after COMMIT leaves them to the sweeper). `wanted`:
    those users' ids, when the caller has read them already; else one read of the
    preferences. The rows are new, so their mails are too. A row born read (its player was
    watching the game's table) is never mailed."""
    rows = [row for row in rows if not row.born_read]
    if not rows:
        return []
    if wanted is None:
        users = {row.user_id for row in rows}
        immediate = NotificationPrefs.objects.filter(user_id__in=users, email_mode="immediate",
                                                     email__gt="")  # fmt: skip
        wanted = set(immediate.values_list("user_id", flat=True))
    if not wanted:
        return []
    mails_ = OutboxMail.objects.bulk_create(
        OutboxMail(notification=row, user_id=row.user_id) for row in rows if row.user_id in wanted
    )
    return [mail.pk for mail in mails_]


def claim(mail_id: int) -> bool:
    """Take the row for sending; False if another sender has it or it is done."""
    return bool(
        OutboxMail.objects.filter(pk=mail_id, state=PENDING).update(
            state=SENDING, lease_until=timezone.now() + LEASE, attempts=F("attempts") + 1
        )
    )


def send(mail_id: int) -> str:
    """Send one outbox row if it can be claimed; returns the row's new state (or "taken")."""
    if not claim(mail_id):
        return "taken"
    mail = OutboxMail.objects.select_related("notification").get(pk=mail_id)
    message = _compose(mail)
    if message is None:
        return _finish(mail, SKIPPED)
    try:
        get_connection().send_messages([message])
    except Exception:
        log.exception("mail %s was not accepted (attempt %s)", mail_id, mail.attempts)
        return _finish(mail, FAILED if mail.attempts >= MAX_ATTEMPTS else PENDING)
    return _finish(mail, SENT)


def _finish(mail: OutboxMail, state: str) -> str:
    OutboxMail.objects.filter(pk=mail.pk, state=SENDING).update(
        state=state, sent_at=timezone.now() if state == SENT else None
    )
    return state


def _compose(mail: OutboxMail) -> EmailMessage | None:
    prefs = prefs_of(mail.user_id)
    if not prefs.email:
        return None
    if mail.notification is not None:
        row = mail.notification
        if prefs.email_mode != "immediate" or presence.has_open(row.user_id, row.game_id):
            return None
        return mails.immediate(row, to=prefs.email, language=prefs.language)
    if prefs.email_mode != "digest":
        return None
    assert mail.digest_day is not None  # a digest's row names its day
    rows = list(day_of(mail.user_id, mail.digest_day))
    return mails.digest(rows, user_id=mail.user_id, to=prefs.email, language=prefs.language)


def day_of(user_id: int, day: date):
    """The user's notifications of `day` (UTC) for the digest: not those born read, which he
    saw happen at the table."""
    start = datetime.combine(day, time.min, tzinfo=UTC)
    return Notification.objects.filter(
        user_id=user_id, at__gte=start, at__lt=start + timedelta(days=1), born_read=False
    ).order_by("at", "pk")


def plan_digests(day: date) -> list[int]:
    """One digest row per user in digest mode who was told something on `day` (UTC)."""
    users = NotificationPrefs.objects.filter(email_mode="digest").exclude(email__isnull=True)
    ids = []
    for prefs in users.exclude(email=""):
        if day_of(prefs.user_id, day).exists():
            mail, _ = OutboxMail.objects.get_or_create(user_id=prefs.user_id, digest_day=day)
            ids.append(mail.pk)
    return ids


def overdue(min_age: timedelta) -> list[int]:
    """Pending rows the fast path has not sent (a lost task, a restart, a retry)."""
    return list(OutboxMail.objects.filter(state=PENDING, created_at__lte=timezone.now() - min_age)
                .order_by("pk").values_list("pk", flat=True)[:100])  # fmt: skip


def mark_lost() -> int:
    """Rows whose sender died mid-send: never sent again (at most once)."""
    stale = OutboxMail.objects.filter(state=SENDING, lease_until__lt=timezone.now())
    for pk in stale.values_list("pk", flat=True):
        log.error("mail %s: its sender died mid-send; not sent again (at most once)", pk)
    return stale.update(state=LOST)
