"""R21 in time, the table's side: which deadline the pending decision has and when it passes
(`due`, judged at every commit and stored in the projection so the runner finds overdue games
with an index), whether a late command must apply it first (`overdue`), and the fast path sent
after COMMIT (`schedule`: Celery's `advance` task with an ETA at the deadline). What happens
once a deadline has passed is games.clock: the runner's one loop and Celery's tasks, which call
the table's commands."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings

from games.core import task_queue
from games.core.models import DeadlineKind, GameProjection
from games.engine import GameState, deadline_kind
from games.engine.errors import Code

ADVANCE_TASK = "games.tasks.advance"  # the Celery task scheduled at each deadline (games.clock)
# Someone acted between the deadline and its act: a benign race, nothing left to do.
RACE_CODES = frozenset({Code.STALE_SEQ, Code.NOT_YOUR_TURN, Code.GAME_OVER})
SECONDS_OPTION = {DeadlineKind.BLOCK: "block_window_s", DeadlineKind.TURN: "turn_deadline_s"}

Due = tuple[DeadlineKind | None, datetime | None]


def due(state: GameState, since: datetime | None, *, human_at: datetime | None = None) -> Due:
    """R21: which deadline times the pending decision (asked since `since`) and when it passes;
    (None, None) when nothing is pending. Bots are due at once. While a seat is on vacation
    the clocks stand still (only bots move) until the first vacation runs out; otherwise a game
    whose humans last acted at `human_at` is abandoned SEJMI_ABANDON_AFTER_DAYS later, if that
    comes first."""
    kind, at = _decision_due(state, since)
    if kind is DeadlineKind.BOT or state.status != "active":
        return kind, at
    until = [datetime.fromisoformat(u) for u in state.vacation_until if u is not None]
    if until:
        return DeadlineKind.VACATION, min(until)
    if human_at is not None:
        abandon_at = human_at + timedelta(days=settings.SEJMI_ABANDON_AFTER_DAYS)
        if at is None or abandon_at < at:
            return DeadlineKind.ABANDON, abandon_at
    return kind, at


def paused(state: GameState) -> bool:
    """A seat's vacation stands every clock of the game still (bots still move)."""
    return state.status == "active" and any(u is not None for u in state.vacation_until)


def _decision_due(state: GameState, since: datetime | None) -> Due:
    timed = deadline_kind(state)
    if timed is None or since is None:
        return None, None
    if any(state.plays_bot(seat) for seat in state.awaiting):
        return DeadlineKind.BOT, since
    kind = DeadlineKind(timed)
    return kind, since + timedelta(seconds=state.options[SECONDS_OPTION[kind]])


def overdue(proj: GameProjection, now: datetime) -> bool:
    """The pending decision's deadline has passed: a command arriving now applies it first
    (games.table.commit), whether or not a worker has come by yet."""
    return (
        proj.status == "active"
        and proj.deadline_at is not None
        and proj.deadline_at <= now
        and DeadlineKind(proj.deadline_kind).times_a_decision
    )


class Pending(Protocol):
    """What `schedule` reads of a projection (the runner's plain read has just these)."""

    @property
    def seq(self) -> int: ...
    @property
    def deadline_at(self) -> datetime | None: ...
    @property
    def deadline_kind(self) -> str | None: ...


def schedule(game_id: int, proj: GameProjection | Pending) -> bool:
    """After COMMIT: Celery's fast path for a deadline or a bot move; the runner and beat's
    sweep are the guarantee (R21). Returns whether a task was sent. With the deadline runner
    deployed (SEJMI_DEADLINE_RUNNER) only bot moves are sent: it applies clocks when due."""
    if proj.deadline_at is None:
        return False
    if settings.SEJMI_DEADLINE_RUNNER and proj.deadline_kind != DeadlineKind.BOT:
        return False
    return task_queue.send(ADVANCE_TASK, game_id, proj.seq, eta=proj.deadline_at)
