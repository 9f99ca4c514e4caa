"""Events → notifications: what the notifications follower (games.notifications.follower) does
with the events past its cursor, after the command's COMMIT (games.core.followers): batch by batch
(the events of one commit share their `at`, as in games.table.projections.rebuild_game), under
the cursor's row lock, so a wake-up that comes twice, or the sweeper beside it, creates nothing
twice; the unique (user, kind, game, seq) is the last guard. Who is told what (R19, R23: nothing
anyone may not know already):

- `your_turn` / `block_window`: the human seats the state awaits after a batch that asked
  something new (every batch but a run of sealed passes). A block window asks every other
  player in the game (R19), each of whom knows the play was announced; a seat whose pass is
  sealed when the follower looks (a standing order, a bot) has answered and is not asked;
- `eliminated`: the eliminated seat; `game_over`: every human seat;
- `deadline_soon`: a reminder row per pending decision, due at 80 % of its time (`remind`).
Bots are never told anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games.core import event_store, followers, plain_sql, sealed_passes
from games.core.codec import state_from_json
from games.core.models import DeadlineKind, GameProjection
from games.engine import Event, GameState, fold
from games.engine import events as ev
from games.engine.state import ACTIVE, BLOCK
from games.notifications import presence
from games.notifications.models import (
    DeadlineReminder,
    Notification,
    NotificationPrefs,
)

YOUR_TURN, BLOCK_WINDOW, DEADLINE_SOON = "your_turn", "block_window", "deadline_soon"
ELIMINATED, GAME_OVER = "eliminated", "game_over"
# Not derived from events: staff decided the player's dispute (services.notification_tell).
DISPUTE_DECIDED = "dispute_decided"
# Not derived either: a tournament (games.tournaments) told the player of his next table, of
# its end, or that he was withdrawn after the bot played a whole game for him.
TOURNAMENT_ROUND, TOURNAMENT_ENDED = "tournament_round", "tournament_ended"
TOURNAMENT_WITHDRAWN = "tournament_withdrawn"
KINDS = (YOUR_TURN, BLOCK_WINDOW, DEADLINE_SOON, ELIMINATED, GAME_OVER, DISPUTE_DECIDED,
         TOURNAMENT_ROUND, TOURNAMENT_ENDED, TOURNAMENT_WITHDRAWN)  # fmt: skip
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
        if kind.notice is None:  # an event that tells nobody
            continue
        if kind.audience == ev.THE_SEAT:
            out.append(Told(e.data["seat"], kind.notice, first_seq + offset))
        elif kind.audience == ev.EVERY_SEAT:
            out += [Told(s, kind.notice, first_seq + offset) for s in range(after.n)]
    if after.status == ACTIVE and any(ev.kind_of(e.type).new_decision for e in events):
        asked = BLOCK_WINDOW if after.phase == BLOCK else YOUR_TURN
        out += [Told(seat, asked, last) for seat in after.awaiting
                if seat not in answered and not after.plays_bot(seat)]  # fmt: skip
    return [t for t in out if not after.bots[t.seat] and after.names[t.seat]]


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


def _reminder_at(proj: GameProjection | _Head | None, state: GameState) -> datetime | None:
    """When to remind of the decision pending at the projection: if a human decides it under
    a deadline (bots are never told anything)."""
    due = reminder_due(proj)
    return due if due is not None and not all(state.bots) else None


FOLLOWER = "notifications"  # its cursors' name (games.core.followers)


def derive_past(
    game_id: int, before: Callable[[], GameState | None], rows: list
) -> tuple[list[Notification], DeadlineReminder | None, set[int]]:
    """The notifications of `rows`, the events past the game's cursor (`before()`: the state
    there), the pending decision's new reminder, and which of the told users want each mail at
    once (for the outbox: no second read of their preferences); the caller (the notifications
    follower, under the cursor's lock) pushes and mails the new rows after COMMIT. The game's
    projection at the head is read once, for the state and for the reminder."""
    proj = _head(game_id, rows[-1].seq)
    head = state_from_json(proj.state) if proj is not None else None
    if head is not None:  # the next catch-up starts here: no fold (games.core.followers)
        followers.state_seen(game_id, rows[-1].seq, head)
    state, items = _told(game_id, before, rows, head)
    mails: set[int] = set()
    created = _create(game_id, state, items, mails)
    return created, _plan_reminder(game_id, rows[-1].seq, proj, head), mails


def _told(game_id: int, before: Callable[[], GameState | None], rows: list,
          head: GameState | None) -> tuple[GameState, list[tuple[Told, datetime]]]:  # fmt: skip
    """Who is told what, batch by batch. The usual case is one batch, the game's head: its
    state is the projection's (`head`), so nothing is folded (folding from the last snapshot
    cost the follower more than the rest of its work)."""
    batches = [list(batch) for _, batch in groupby(rows, key=lambda row: row.at)]
    head = head if len(batches) == 1 else None
    state = None if head is not None else before()
    told: list[tuple[Told, datetime]] = []
    for batch_rows in batches:
        at = batch_rows[0].at
        events = [event_store.to_event(r) for r in batch_rows]
        state = head if head is not None else fold(events, state)
        last = batch_rows[-1].seq
        answered = frozenset(row.seat for row in sealed_passes.load(game_id, last)) if (
            state.phase == BLOCK) else frozenset()  # fmt: skip
        told += [(t, at) for t in told_in_batch(events, batch_rows[0].seq, state, answered)]
    assert state is not None
    return state, told


@dataclass(frozen=True)
class _Head:
    """The projection's fields the follower reads (`reminder_due` reads them by name)."""

    state: dict[str, Any]
    decision_since: datetime | None
    deadline_at: datetime | None
    deadline_kind: str | None


_HEAD_FIELDS = ("state", "decision_since", "deadline_at", "deadline_kind")
_head_reader: Callable[[tuple], tuple] | None = None


def _head(game_id: int, seq: int) -> _Head | None:
    """The game's projection, if the game stands at `seq` (one plain read: the ORM's instance
    of the whole row was a tenth of the follower's CPU)."""
    global _head_reader
    if _head_reader is None:
        _head_reader = plain_sql.reader(GameProjection, _HEAD_FIELDS)
    table = GameProjection._meta.db_table
    found = plain_sql.rows(
        f"SELECT state, decision_since, deadline_at, deadline_kind FROM {table}"
        " WHERE game_id = %s AND seq = %s", [game_id, seq])  # fmt: skip
    return _Head(*_head_reader(found[0])) if found else None


_NOTIFICATION_FIELDS = ("user", "kind", "game", "seq", "at", "read", "born_read")


def _create(game_id: int, state: GameState, told: list[tuple[Told, datetime]],
            mails: set[int] | None = None) -> list[Notification]:  # fmt: skip
    """The told rows not told before, in one INSERT … ON CONFLICT DO NOTHING (the unique
    (user, kind, game, seq) is the guard: a get_or_create per row was a savepoint, a SELECT
    and an INSERT each). `mails` gets the told users who want each mail at once."""
    accounts = _accounts(game_id, state, told)
    values: dict[tuple[int, str, int], tuple] = {}
    for t, at in told:
        name = state.names[t.seat]
        account = accounts.get(name) if name else None
        if account is None:  # an imported game's player may have no account here
            continue
        quiet = account.at_table
        if mails is not None and account.mails_at_once:
            mails.add(account.pk)
        values.setdefault((account.pk, t.kind, t.seq),
                          (account.pk, t.kind, game_id, t.seq, at, quiet, quiet))  # fmt: skip
    if not values:
        return []
    new = plain_sql.insert(Notification, _NOTIFICATION_FIELDS, values.values(),
                           returning=("id", "user", "kind", "seq"),
                           ignore_conflicts=True)  # fmt: skip
    made = {(user, kind, seq): pk for pk, user, kind, seq in new}
    return [Notification(id=made[key], user_id=user, kind=kind, game_id=game, seq=seq, at=at,
                         read=read, born_read=born)
            for key, (user, kind, game, seq, at, read, born) in values.items()
            if key in made]  # fmt: skip


def _plan_reminder(game_id: int, seq: int, proj: _Head | None,
                   state: GameState | None) -> DeadlineReminder | None:  # fmt: skip
    """A reminder for the decision pending at `seq`, if a human decides it under a deadline
    (`proj`, `state`: the game's projection at `seq` and its state, if it stands there): one
    INSERT … ON CONFLICT DO NOTHING; the row already there (a wake-up twice) read only then."""
    due = _reminder_at(proj, state) if proj is not None and state is not None else None
    if due is None:
        return None
    new = plain_sql.insert(DeadlineReminder, ("game", "seq", "remind_at", "done"),
                           [(game_id, seq, due, False)], returning="id",
                           ignore_conflicts=True)  # fmt: skip
    if new:
        return DeadlineReminder(id=new[0], game_id=game_id, seq=seq, remind_at=due, done=False)
    return DeadlineReminder.objects.get(game_id=game_id, seq=seq)


def reminder_due(proj: GameProjection | _Head | None) -> datetime | None:
    """80 % of the pending decision's time, judged on the projection as it is now (a pause
    of the deadline moves it)."""
    if (proj is None or proj.decision_since is None or proj.deadline_kind is None
            or proj.deadline_at is None
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
    if (due is None or proj is None or proj.deadline_at is None
            or proj.deadline_at <= now):  # moved on, or the deadline itself is here  # fmt: skip
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
    """Games whose recent events are not all derived yet (the sweeper's list): moved in the
    last day and not in the last `min_age` (those are their own wake-up's)."""
    return followers.lagging(FOLLOWER, min_age, limit)
