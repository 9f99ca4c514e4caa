"""R21 when a deadline has passed: the act it calls for, applied once, by whichever comes first —
Celery's `advance` task sent at commit (games.table.deadline.schedule), the runner's loop, or
beat's sweep.

- `advance(game_id, seq)` is idempotent: it acts only if the game still stands at `seq` and the
  deadline has passed, so a duplicate or late delivery changes nothing, and an early one only
  asks to come back when due.
- `sweep()` advances every overdue game, side by side (each under its own row lock).
- `run()` is the one loop: it looks every 0.2 s (one statement: `next_due`), sweeps when a
  deadline has passed, and runs one step beside it when something is due for it — the
  reminders due, in `manage.py run_deadlines` (production: deadlines on PostgreSQL alone,
  whatever the broker does), or every notification chore, in the thread of `make run`
  (`start`), which has no Celery at all and sleeps while nothing is due (games.clock.alarm).

The acts are the table's commands, called directly: this package sits above games.table.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache, partial

from django.db import close_old_connections, connection
from django.utils import timezone

from games.clock.alarm import IDLE_LOOK_S, STOP_LOOK_S, Alarm
from games.core import followers, plain_sql, task_queue
from games.core.db_pool import half_the_pool
from games.core.errors import ApiError
from games.core.models import DeadlineKind, GameProjection
from games.notifications import runner as notifications
from games.notifications.models import DeadlineReminder
from games.table import away, commands, vacations
from games.table.deadline import RACE_CODES, schedule

log = logging.getLogger(__name__)

ACTED, MOVED_ON, NOT_DUE, REFUSED = "acted", "moved_on", "not_due", "refused"


def act(kind: DeadlineKind, *, game_id: int, expected_seq: int) -> object:
    """The command a passed deadline of `kind` calls for, at `expected_seq`."""
    if kind is DeadlineKind.BOT:
        return commands.game_bot_moves(game_id=game_id, expected_seq=expected_seq)
    if kind is DeadlineKind.VACATION:  # vacations past `until` end
        vacations.vacation_over(game_id=game_id, expected_seq=expected_seq)
        return None
    if kind is DeadlineKind.ABANDON:  # no human acted for SEJMI_ABANDON_AFTER_DAYS
        return away.game_abandon(game_id=game_id, expected_seq=expected_seq)
    return commands.game_timeout(game_id=game_id, expected_seq=expected_seq)  # R21


def advance(game_id: int, seq: int) -> str:
    """Apply the pending decision's timeout (R21) or the awaited bots' moves, if game
    `game_id` still stands at `seq` and its deadline has passed. Returns ACTED, MOVED_ON
    (no such game, another seq, nothing pending, or someone acted first), NOT_DUE (early:
    the task is scheduled again for the deadline) or REFUSED (the engine refused what the
    deadline does: a bug, logged at ERROR; the sweeper will try again). Never raises for a
    stale or early call."""
    found = plain_sql.rows(  # plain SQL and no model instance: the ORM's were most of an act
        "SELECT seq, deadline_at, deadline_kind"
        f" FROM {GameProjection._meta.db_table} WHERE game_id = %s", [game_id])  # fmt: skip
    proj = _Pending(game_id, *_readers()[0](found[0])) if found else None
    if proj is None or proj.seq != seq or proj.deadline_at is None or proj.deadline_kind is None:
        return MOVED_ON
    if proj.deadline_at > timezone.now():
        schedule(game_id, proj)  # a no-op without Celery or beyond its horizon
        return NOT_DUE
    kind = DeadlineKind(proj.deadline_kind)
    try:
        act(kind, game_id=game_id, expected_seq=seq)
    except ApiError as err:
        if err.code in RACE_CODES:
            return MOVED_ON
        log.error("the %s deadline of game %s at seq %s was refused: %s (%s)",
                  kind, game_id, seq, err.code, err.message)  # fmt: skip
        return REFUSED
    return ACTED


def sweep(*, limit: int = 200, pool: Executor | None = None) -> int:
    """Advance every game whose deadline has passed; returns how many acted. With `pool`,
    the games are advanced side by side (each under its own row lock): one game's slow
    transaction, or a command holding its row, does not hold the others' deadlines."""
    overdue = _overdue(limit)
    if pool is None:
        return sum(advance(game_id, seq) == ACTED for game_id, seq in overdue)

    def one(item: tuple[int, int]) -> bool:
        try:
            return advance(*item) == ACTED
        finally:
            close_old_connections()  # this thread's connection back to the pool

    return sum(pool.map(one, overdue))


# Every look of the loop asks these and mostly finds nothing: plain SQL (games.core.plain_sql),
# not the ORM, whose compiling was most of an idle runner's CPU.
def _overdue(limit: int) -> list[tuple[int, int]]:
    """(game_id, seq) of the active games whose deadline has passed, the most overdue first."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    return plain_sql.rows(
        f"SELECT game_id, seq FROM {GameProjection._meta.db_table} WHERE status = 'active'"
        " AND deadline_at <= %s ORDER BY deadline_at LIMIT %s", [now, limit])  # fmt: skip


@dataclass(frozen=True)
class Due:
    deadline: datetime | None  # the earliest deadline of an active game
    reminder: datetime | None  # the earliest reminder not yet sent (DeadlineReminder)


def next_due() -> Due:
    """When the next deadline and the next reminder are due, in one statement."""
    games, reminders = GameProjection._meta.db_table, DeadlineReminder._meta.db_table
    row = plain_sql.rows(
        f"SELECT (SELECT MIN(deadline_at) FROM {games} WHERE status = 'active'),"
        f" (SELECT MIN(remind_at) FROM {reminders} WHERE done = false)", [])[0]  # fmt: skip
    _, deadline_at, remind_at = _readers()
    return Due(deadline_at(row[:1])[0], remind_at(row[1:])[0])


@dataclass(frozen=True)
class _Pending:
    """What `advance` reads of the game's projection (`schedule` reads it by name)."""

    game_id: int
    seq: int
    deadline_at: datetime | None
    deadline_kind: str | None


@cache
def _readers() -> tuple[Callable[[tuple], tuple], ...]:
    """The column readers of the loop's plain reads, made once (each is a field lookup and
    its converters: the idle loop's CPU made them at every look)."""
    return (plain_sql.reader(GameProjection, ["seq", "deadline_at", "deadline_kind"]),
            plain_sql.reader(GameProjection, ["deadline_at"]),
            plain_sql.reader(DeadlineReminder, ["remind_at"]))  # fmt: skip


def _passed(at: datetime | None) -> bool:
    return at is not None and at <= timezone.now()


def _seconds_to(at: datetime | None, retry: float) -> float:
    """How long until `at` (None: never); `retry` if it has passed, as happens only when what
    was due was refused or raced (the loop advanced every overdue game before it asked)."""
    if at is None:
        return float("inf")
    left = (at - timezone.now()).total_seconds()
    return left if left > 0 else retry


def run(*, interval: float = 0.2, stop: threading.Event | None = None,
        beside: Callable[[], object] | None = None, beside_every: float = 1.0,
        alarm: Alarm | None = None) -> None:  # fmt: skip
    """Look every `interval` until `stop` is set: read when the next deadline and reminder
    are due (`next_due`, one plain statement: all an idle look costs); if a deadline
    has passed, advance every game whose deadline has, again at once while some acted (bots
    answer each other at once). PostgreSQL is all it needs. Several may run at once (`manage.py
    run_deadlines` on several hosts): `advance` acts under the game's row lock and only at the
    seq it read, so a deadline is applied once and the others see MOVED_ON. Overdue games are
    advanced side by side (half the pool): one after another, a burst of deadlines under load
    came up to 1.3 s late (bench-load). `beside` (the reminders) runs in the pool when one is
    due, at most every `beside_every` seconds, never twice at once. With `alarm` (`make run`)
    it looks only when the alarm or the next due time says so (`_run_on_alarm`)."""
    stop = stop or threading.Event()
    threads = half_the_pool()
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="deadlines") as pool:
        advance_all = partial(_advance_all, pool if threads > 1 else None, stop)
        if alarm is None:
            _poll(pool, stop, advance_all, beside, interval, beside_every)
        else:
            _run_on_alarm(alarm, stop, advance_all, beside, interval)
    close_old_connections()  # this thread's connection back to the pool


def _poll(pool: Executor, stop: threading.Event, advance_all: Callable[[], None],
          beside: Callable[[], object] | None, interval: float,
          beside_every: float) -> None:  # fmt: skip
    pending: Future | None = None
    beside_at = 0.0
    while not stop.is_set():
        due = _next_due()
        if due is None or _passed(due.deadline):
            advance_all()
        reminders = due is None or _passed(due.reminder)
        if beside is not None and reminders and time.monotonic() >= beside_at and (
                pending is None or pending.done()):  # fmt: skip
            pending = pool.submit(_beside, beside)
            beside_at = time.monotonic() + beside_every
        stop.wait(interval)


def _run_on_alarm(alarm: Alarm, stop: threading.Event, advance_all: Callable[[], None],
                  beside: Callable[[], object] | None, retry: float) -> None:  # fmt: skip
    """`make run`'s loop: at each ring or next due time, advance every overdue game, then run
    `beside` (every notification chore) if a reminder is due, a ring asked for it, or
    alarm.IDLE_LOOK_S has passed (no chores for a move that told nobody), then read
    the next due time (after the chores: what they or a command meanwhile set) and sleep."""
    due: Due | None = None  # not read yet: anything may be due
    chores_at = 0.0
    while not stop.is_set():
        asked = alarm.clear()
        advance_all()
        _beside(followers.follow_pending)  # the games committed since the last look
        if beside is not None and (asked or due is None or _passed(due.reminder)
                                   or time.monotonic() >= chores_at):  # fmt: skip
            _beside(beside)
            chores_at = time.monotonic() + IDLE_LOOK_S
        due = _next_due()
        if due is None:  # the database away: look again in a while, as the polling loop would
            stop.wait(STOP_LOOK_S)
            continue
        alarm.sleep(stop, min(_seconds_to(due.deadline, retry), _seconds_to(due.reminder, retry)))


def _advance_all(pool: Executor | None, stop: threading.Event) -> None:
    try:
        close_old_connections()
        while sweep(pool=pool) and not stop.is_set():
            pass
    except Exception:
        log.exception("deadline sweep failed")


def _next_due() -> Due | None:
    """next_due(), or None (logged) if the database did not answer."""
    try:
        close_old_connections()
        return next_due()
    except Exception:
        log.exception("the look at the next due time failed")
        return None


def _beside(step: Callable[[], object]) -> None:
    try:
        step()
    except Exception:
        log.exception("%s failed", getattr(step, "__name__", step))
    finally:
        close_old_connections()  # this thread's connection back to the pool


def _every_notification_chore() -> int:
    """`make run` has no Celery and no beat: every chore at once, however fresh."""
    return notifications.sweep(min_age=timedelta(0))


def start() -> threading.Thread:
    """`make run`'s runner: the one loop in a daemon thread of the web process, deadlines, bot
    moves and every notification chore, each time its alarm says something is due: after a
    commit that had a task for Celery (none here), at that task's eta, at the next due time in
    the database, and every alarm.IDLE_LOOK_S. Idle, it sleeps. It also follows the games
    committed since its last look (games.core.followers, SEJMI_FOLLOW "thread")."""
    alarm = Alarm()
    task_queue.when_not_sent(alarm.ring)
    # SEJMI_FOLLOW "thread": a commit wakes the loop for a look (not for every chore).
    followers.listen(lambda: alarm.ring(timezone.now()))
    thread = threading.Thread(
        target=run, name="sejmi-deadlines", daemon=True,
        kwargs={"beside": _every_notification_chore, "alarm": alarm},
    )  # fmt: skip
    thread.start()
    return thread
