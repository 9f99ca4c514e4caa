"""When notifications are made and mailed. The notifications follow the log
(games.core.followers): after a game's COMMIT the follower — the follower process in production
(`manage.py run_deadlines`), the runner thread under `make run`, the committing thread in the
tests — calls `derive`, which tells the events past the game's cursor, pushes the new rows to
their users' sockets, sends one `mail` task per outbox row and a `remind` task with an ETA at the
pending decision's 80 % (none where the deadline runner is deployed: it reminds what is due,
`remind_due`). `sweep` (celery beat, every 5 s; the follower process; `make run`'s runner) is the
guarantee behind each fast path: games not derived yet (every follower's: followers.sweep),
reminders due, mails left pending, senders that died (their rows are marked lost), presence rows
that stopped beating."""

from __future__ import annotations

import logging
from datetime import date, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.core import followers, task_queue
from games.notifications import derive as deriving
from games.notifications import outbox, presence, web_push
from games.notifications.models import DeadlineReminder, Notification
from games.notifications.push import push

log = logging.getLogger(__name__)

DERIVE_TASK = "games.notifications.derive"  # a game caught up by hand (staff, scripts)
REMIND_TASK = "games.notifications.remind"
MAIL_TASK = "games.notifications.mail"
SWEEP_TASK = "games.notifications.sweep"
DIGEST_TASK = "games.notifications.digest"
SWEEP_MIN_AGE = timedelta(seconds=10)  # leave fresh events and mails to their own task first


def _send_task(name: str, *args, eta=None) -> bool:
    return task_queue.send(name, *args, eta=eta, queue=settings.SEJMI_NOTIFY_QUEUE)


def derive(game_id: int) -> int:
    """The game caught up by every follower, the notifications' among them (the derive task:
    a game caught up by hand). Returns how many followers acted."""
    return followers.follow(game_id)


def handle(
    game_id: int, before, rows
) -> tuple[list[Notification], list[int], DeadlineReminder | None]:
    """The notifications follower's work, in the followers' transaction: the rows, their
    immediate mails' outbox rows, the reminder."""
    created, reminder, mails = deriving.derive_past(game_id, before, rows)
    return created, outbox.enqueue(created, mails), reminder


def after(result: tuple[list[Notification], list[int], DeadlineReminder | None]) -> None:
    """Once the followers' transaction committed: push and mail what it told, and set the
    reminder's task."""
    created, mail_ids, reminder = result
    _after(created, mail_ids)
    if reminder is not None and not reminder.done:
        _schedule_reminder(reminder)


def remind(game_id: int, seq: int) -> int:
    """`deadline_soon` for the decision pending at (game, seq), if due (else moved later)."""
    with transaction.atomic():
        created = deriving.remind(game_id, seq)
        mail_ids = outbox.enqueue(created or [])
    if created is None:
        reminder = DeadlineReminder.objects.filter(game_id=game_id, seq=seq).first()
        if reminder is not None:
            _schedule_reminder(reminder)
        return 0
    _after(created, mail_ids)
    return len(created)


def _schedule_reminder(reminder: DeadlineReminder) -> None:
    if settings.SEJMI_DEADLINE_RUNNER:  # the runner reminds what is due (`remind_due`)
        return
    # Past the broker's horizon nothing is sent: the sweeper reminds it when due.
    _send_task(REMIND_TASK, reminder.game_id, reminder.seq, eta=reminder.remind_at)


def remind_due(limit: int = 100) -> int:
    """Every reminder due now: the moot ones (the game moved on) settled in one statement, the
    others reminded one by one; returns how many were reminded. Beat's sweep calls it, and
    the deadline runner every second when deployed (SEJMI_DEADLINE_RUNNER): then no ETA task
    is sent per decision (one per move, held by the worker and mostly moot: half the Celery
    workers' CPU in bench-load)."""
    now = timezone.now()
    deriving.settle_moot(now)
    due = DeadlineReminder.objects.filter(done=False, remind_at__lte=now)
    return sum(_guarded(remind, game_id, seq)
               for game_id, seq in due.values_list("game_id", "seq")[:limit])  # fmt: skip


def deliver(created: list[Notification], mail_ids: list[int]) -> None:
    """After COMMIT of notifications told outside a game's append (a staff decision,
    services.notification_tell): push and mail them like the game's own."""
    _after(created, mail_ids)


def _after(created: list[Notification], mail_ids: list[int]) -> None:
    push(created)
    web_push.deliver(created)  # returns at once: the posts run on webpush's threads
    for mail_id in mail_ids:
        if not _send_task(MAIL_TASK, mail_id):
            outbox.send(mail_id)


def digest(day: date) -> int:
    """The digest mails of `day` (UTC), one per user in digest mode told anything that day."""
    return sum(outbox.send(mail_id) == outbox.SENT for mail_id in outbox.plan_digests(day))


def sweep(min_age: timedelta = SWEEP_MIN_AGE) -> int:
    """Everything a fast path left: returns how many things it did."""
    done = followers.sweep(min_age)
    done += remind_due()
    for mail_id in outbox.overdue(min_age):
        done += _guarded(lambda pk: outbox.send(pk) != "taken", mail_id)
    outbox.mark_lost()
    presence.expire()
    return done


def _guarded(step, *args) -> int:
    try:
        return int(bool(step(*args)))
    except Exception:
        log.exception("notification step %s%s failed", getattr(step, "__name__", step), args)
        return 0
