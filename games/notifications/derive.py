"""Events → notifications. Normally in the very transaction that appends them: `at_commit`
(called by games.table.commit for every append) tells the batches it appends and moves the game's
cursor past them, so nothing is late, nothing is told twice, and no task runs per move.
`derive_game(game_id)` is the fallback for events past the cursor that were not told so (a
cursor left behind: older data, an import), batch by batch (the events of one commit share
their `at`, as in games.table.projections.rebuild_game), under the cursor's row lock, so a task that
runs twice, or the sweeper beside it, creates nothing twice; the unique (user, kind, game,
seq) is the last guard. Who is told what (R19, R23: nothing anyone may not know already):

- `your_turn` / `block_window`: the human seats the state awaits after a batch that asked
  something new (every batch but a run of sealed passes). A block window asks every other
  player in the game (R19), each of whom knows the play was announced;
- `eliminated`: the eliminated seat; `game_over`: every human seat;
- `deadline_soon`: a reminder row per pending decision, due at 80 % of its time (`remind`).
Bots are never told anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from itertools import groupby

from django.contrib.auth import get_user_model
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from games.core import event_store, plain_sql, sealed_passes
from games.core.codec import state_from_json
from games.core.models import DeadlineKind, Game, GameProjection
from games.engine import Event, GameState, fold
from games.engine import events as ev
from games.engine.state import ACTIVE, BLOCK
from games.notifications import outbox, presence
from games.notifications.models import (
    DeadlineReminder,
    Notification,
    NotificationCursor,
    NotificationPrefs,
)

YOUR_TURN, BLOCK_WINDOW, DEADLINE_SOON = "your_turn", "block_window", "deadline_soon"
ELIMINATED, GAME_OVER = "eliminated", "game_over"
# Not derived from events: staff decided the player's dispute (services.notification_tell).
DISPUTE_DECIDED = "dispute_decided"
KINDS = (YOUR_TURN, BLOCK_WINDOW, DEADLINE_SOON, ELIMINATED, GAME_OVER, DISPUTE_DECIDED)
SOON = 0.8  # deadline_soon: 80 % of the decision's time has gone, 20 % is left


@dataclass(frozen=True)
class Told:
    seat: int
    kind: str
    seq: int


def told_in_batch(events: list[Event], first_seq: int, after: GameState,
                  answered: frozenset[int] = frozenset()) -> list[Told]:  # fmt: skip
    """What one committed batch (its first event at `first_seq`) tells whom, by seat. A seat
    that already answered the window the batch opened (its sealed pass: a standing order, R19)
    or whose decisions the bot makes (away) is not asked to decide."""
    last = first_seq + len(events) - 1
    out: list[Told] = []
    for offset, e in enumerate(events):
        kind = ev.kind_of(e.type)
        if kind.audience == ev.THE_SEAT:
            out.append(Told(e.data["seat"], kind.notice, first_seq + offset))
        elif kind.audience == ev.EVERY_SEAT:
            out += [Told(s, kind.notice, first_seq + offset) for s in range(after.n)]
    if after.status == ACTIVE and any(ev.kind_of(e.type).new_decision for e in events):
        kind = BLOCK_WINDOW if after.phase == BLOCK else YOUR_TURN
        out += [Told(seat, kind, last) for seat in after.awaiting
                if seat not in answered and not after.plays_bot(seat)]  # fmt: skip
    return [t for t in out if not after.bots[t.seat] and after.names[t.seat]]


@dataclass
class Derived:
    """What a transaction told: the new rows (pushed and mailed after COMMIT), the outbox rows
    to send at once, and the pending decision's reminder. The rows' ids are read when first
    asked for: after COMMIT, so their INSERT travels with the command's other writes."""

    rows: list[Notification]
    ids: Callable[[], list[int]]
    mail_ids: list[int]
    reminder: DeadlineReminder | None

    @cached_property
    def created(self) -> list[Notification]:
        for row, pk in zip(self.rows, self.ids(), strict=True):
            row.pk = pk
            row._state.adding = False
        return self.rows


@dataclass(frozen=True)
class Ahead:
    """What `at_commit` needs besides the batch, read with the command's other reads
    (games.table.commit) before it decides: the cursor, its row locked (None: no row), and
    the seated players' accounts (`_accounts`)."""

    cursor: int | None
    accounts: dict[str, Account]


def ahead_reads(game_id: int, seated_ids_sql: str) -> tuple[plain_sql.Read, plain_sql.Read]:
    """The reads of `Ahead` (`ahead_from` reads their rows). `seated_ids_sql`: the ids of the
    game's seated users, a subquery with one parameter, the game (the table knows who sits)."""
    cursor = NotificationCursor._meta.db_table
    return (plain_sql.Read(f"SELECT seq FROM {cursor} WHERE game_id = %s{plain_sql.for_update()}",
                           [game_id]),
            plain_sql.Read(_ACCOUNTS_SQL.format(which=f"u.id IN ({seated_ids_sql})"),
                           [game_id, presence.now_param(), game_id]))  # fmt: skip


def ahead_from(cursor_rows: list[tuple], account_rows: list[tuple]) -> Ahead:
    return Ahead(cursor_rows[0][0] if cursor_rows else None, _by_name(account_rows))


def at_commit(game_id: int, head_before: int, before: GameState | None,
              runs: list[tuple[datetime, list[Event]]], proj: GameProjection,
              answered: frozenset[int], ahead: Ahead | None = None) -> Derived | None:  # fmt: skip
    """Inside the transaction that appends `runs` after `head_before` (the game's row locked):
    their notifications, their mail rows and the new decision's reminder, and the cursor moved
    to the new head. `answered`: the seats whose pass is sealed in the window left open (R19).
    None when the cursor is behind `head_before` (events not told yet): the derive task then
    tells everything past the cursor, these batches included. With `ahead` (read before the
    command decided) this sends writes only, unless a told player was not seated then (the
    join that starts the game) or someone gets his mail at once (the mail row needs the id)."""
    move = (f"UPDATE {NotificationCursor._meta.db_table} SET seq = %s"
            " WHERE game_id = %s AND seq = %s")  # fmt: skip
    if ahead is None:
        moved = bool(plain_sql.changed(move, (proj.seq, game_id, head_before)))
    else:  # its row is locked: the UPDATE finds it
        moved = ahead.cursor is not None and ahead.cursor == head_before
        if moved:
            plain_sql.changed(move, (proj.seq, game_id, head_before), wait=False)
    if not moved:
        if head_before:
            return None
        NotificationCursor.objects.create(game_id=game_id, seq=proj.seq)  # a new game
    told: list[tuple[Told, datetime]] = []
    state, first = before, head_before + 1
    for n, (at, events) in enumerate(runs):
        state = fold(events, state)
        last = n == len(runs) - 1
        told += [(t, at) for t in told_in_batch(events, first, state,
                                                 answered if last else frozenset())]  # fmt: skip
        first += len(events)
    assert state is not None
    accounts = dict(ahead.accounts) if ahead is not None else {}
    missing = [(t, at) for t, at in told if state.names[t.seat] not in accounts]
    accounts.update(_accounts(game_id, state, missing))
    # New rows only: the batches' seqs are new, and a derive task holding the cursor's lock
    # tells committed events only, so nothing can collide.
    values = [{"user_id": account.pk, "kind": t.kind, "game_id": game_id, "seq": t.seq, "at": at,
               "read": account.at_table, "born_read": account.at_table}
              for t, at in told if (account := accounts.get(state.names[t.seat]))]  # fmt: skip
    rows = [Notification(**v) for v in values]
    ids = plain_sql.insert_later(Notification, [name.removesuffix("_id") for name in values[0]],
                                 [tuple(v.values()) for v in values],
                                 returning="id") if values else list  # fmt: skip
    due = _reminder_at(proj, state)
    reminder = None
    if due is not None:
        reminder = DeadlineReminder(game_id=game_id, seq=proj.seq, remind_at=due, done=False)
        plain_sql.insert(DeadlineReminder, ("game", "seq", "remind_at", "done"),
                         [(game_id, proj.seq, due, False)])  # fmt: skip
    derived = Derived(rows, ids, [], reminder)
    immediate = {a.pk for a in accounts.values() if a.mails_at_once and not a.at_table}
    if immediate & {row.user_id for row in rows}:
        derived.mail_ids = outbox.enqueue(derived.created, immediate)
    return derived


@dataclass(frozen=True)
class Account:
    pk: int
    mails_at_once: bool  # an address, and mail mode `immediate`
    at_table: bool  # the game's table open in a visible tab now: told born read (presence)


_ACCOUNTS_SQL = (
    f"SELECT u.username, u.id, p.email_mode, p.email, {presence.sees_table_sql('u.id', '%s')}"
    f" FROM {get_user_model()._meta.db_table} u"
    f" LEFT JOIN {NotificationPrefs._meta.db_table} p ON p.user_id = u.id WHERE {{which}}"
)


def _accounts(game_id: int, state: GameState,
              told: list[tuple[Told, datetime]]) -> dict[str, Account]:  # fmt: skip
    """The told seats' accounts by name, with their mail preference and whether each has the
    game's table open in a visible tab, in one read (an imported game's player may have no
    account here)."""
    names = list({state.names[t.seat] for t, _ in told})
    if not names:
        return {}
    return _by_name(plain_sql.rows(
        _ACCOUNTS_SQL.format(which=f"u.username IN ({plain_sql.marks(names)})"),
        [game_id, presence.now_param(), *names]))  # fmt: skip


def _by_name(rows: list[tuple]) -> dict[str, Account]:
    return {name: Account(pk, mode == "immediate" and bool(email), bool(at_table))
            for name, pk, mode, email, at_table in rows}  # fmt: skip


def _reminder_at(proj: GameProjection | None, state: GameState) -> datetime | None:
    """When to remind of the decision pending at the projection: if a human decides it under
    a deadline (bots are never told anything)."""
    due = reminder_due(proj)
    return due if due is not None and not all(state.bots) else None


def derive_game(game_id: int) -> tuple[list[Notification], DeadlineReminder | None]:
    """Create the notifications of every event past the game's cursor; returns the new rows
    (the caller pushes and mails them after COMMIT) and the pending decision's new reminder.
    Safe to run any number of times."""
    if not Game.objects.filter(pk=game_id).exists():  # a stale task: nothing to tell
        return [], None
    NotificationCursor.objects.bulk_create([NotificationCursor(game_id=game_id)],
                                           ignore_conflicts=True)  # fmt: skip
    cursor = NotificationCursor.objects.select_for_update().get(game_id=game_id)
    rows = event_store.load(game_id, after=cursor.seq)
    if not rows:
        return [], None
    state = event_store.state_at(game_id, cursor.seq)
    told: list[tuple[Told, datetime]] = []
    for at, batch in groupby(rows, key=lambda row: row.at):
        batch_rows = list(batch)
        events = [event_store.to_event(r) for r in batch_rows]
        state = fold(events, state)
        last = batch_rows[-1].seq
        answered = frozenset(row.seat for row in sealed_passes.load(game_id, last)) if (
            state.phase == BLOCK) else frozenset()  # fmt: skip
        told += [(t, at) for t in told_in_batch(events, batch_rows[0].seq, state, answered)]
    assert state is not None
    created = _create(game_id, state, told)
    cursor.seq = rows[-1].seq
    cursor.save(update_fields=["seq"])
    return created, _plan_reminder(game_id, cursor.seq)


def _create(
    game_id: int, state: GameState, told: list[tuple[Told, datetime]]
) -> list[Notification]:
    accounts = _accounts(game_id, state, told)
    created = []
    for t, at in told:
        account = accounts.get(state.names[t.seat])
        if account is None:  # an imported game's player may have no account here
            continue
        quiet = account.at_table
        row, new = Notification.objects.get_or_create(
            user_id=account.pk, kind=t.kind, game_id=game_id, seq=t.seq,
            defaults={"at": at, "read": quiet, "born_read": quiet})  # fmt: skip
        if new:
            created.append(row)
    return created


def _plan_reminder(game_id: int, seq: int) -> DeadlineReminder | None:
    """A reminder for the decision pending at `seq`, if a human decides it under a deadline."""
    proj = GameProjection.objects.filter(game_id=game_id, seq=seq).first()
    due = _reminder_at(proj, state_from_json(proj.state)) if proj is not None else None
    if due is None:
        return None
    row, _ = DeadlineReminder.objects.get_or_create(game_id=game_id, seq=seq,
                                                    defaults={"remind_at": due})  # fmt: skip
    return row


def reminder_due(proj: GameProjection | None) -> datetime | None:
    """80 % of the pending decision's time, judged on the projection as it is now (a pause
    of the deadline moves it)."""
    if (proj is None or proj.decision_since is None or proj.deadline_kind is None
            or not DeadlineKind(proj.deadline_kind).a_human_decides):  # fmt: skip
        return None
    return proj.decision_since + (proj.deadline_at - proj.decision_since) * SOON


def remind(game_id: int, seq: int) -> list[Notification] | None:
    """`deadline_soon` for the decision pending at (game, seq), once it is due: to each human
    seat still awaited (a seat whose pass is sealed has answered: R19, only he knows). Returns
    the new rows, or None when it is not due yet (the reminder is moved to the new time).
    Most decisions are answered before their 80 %: one read tells, and the sweeper marks such
    reminders done in bulk (`settle_moot`)."""
    if not GameProjection.objects.filter(game_id=game_id, seq=seq).exists():
        return []  # moved on
    reminder = (DeadlineReminder.objects.select_for_update()
                .filter(game_id=game_id, seq=seq, done=False).first())  # fmt: skip
    if reminder is None:
        return []
    proj = GameProjection.objects.filter(game_id=game_id).first()
    due = reminder_due(proj) if proj is not None and proj.seq == seq else None
    now = timezone.now()
    if due is not None and due > now:
        reminder.remind_at = due
        reminder.save(update_fields=["remind_at"])
        return None
    reminder.done = True
    reminder.save(update_fields=["done"])
    if due is None or proj.deadline_at <= now:  # moved on, or the deadline itself is here
        return []
    state = sealed_passes.folded(state_from_json(proj.state), sealed_passes.load(game_id, seq))
    told = [(Told(seat, DEADLINE_SOON, seq), now) for seat in state.awaiting
            if not state.bots[seat]]  # fmt: skip
    return _create(game_id, state, told)


def settle_moot(now: datetime) -> int:
    """Due reminders of decisions the game has moved on from: done, in one statement."""
    head = GameProjection.objects.filter(game_id=OuterRef("game_id")).values("seq")[:1]
    return (DeadlineReminder.objects.filter(done=False, remind_at__lte=now)
            .exclude(seq=Subquery(head)).update(done=True))  # fmt: skip


def behind(min_age: timedelta = timedelta(0), limit: int = 100) -> list[int]:
    """Games whose recent events are not all derived yet (the sweeper's list). Only games that
    moved in the last day (an imported old game is not news to anyone) and not in the last
    `min_age`: those are their own derive task's, queued behind others under load (bench-load:
    the sweeper deriving them too took 40 % of the workers' time)."""
    now = timezone.now()
    recent = GameProjection.objects.filter(updated_at__gte=now - timedelta(days=1),
                                           updated_at__lte=now - min_age)  # fmt: skip
    lagging = recent.filter(Q(game__notify_cursor__isnull=True)
                            | Q(game__notify_cursor__seq__lt=F("seq")))  # fmt: skip
    return list(lagging.order_by("updated_at").values_list("game_id", flat=True)[:limit])
