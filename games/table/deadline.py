"""R21 in time: every deadline of a game, from which one applies to the last thing that happened
to what is done once it has passed.

- Policy: `due(state, since)` says which deadline times the pending decision and when it passes
  (the projection stores both, so the sweeper can find overdue games with an index).
- Scheduling: `schedule(game_id, proj)`, called after COMMIT, sends Celery's `advance` task with
  an ETA at the deadline: the fast path.
- Holding: `overdue(proj, now)`: a player's command that arrives after the deadline applies
  it first, in its own transaction (games.table.commands), so a deadline holds even when no worker
  runs; the tasks below are for the games nobody touches.
- Acting: `advance(game_id, seq)` is idempotent: it acts only if the game still stands at `seq`
  and the deadline has passed, so a duplicate or late delivery changes nothing, and an early one
  only asks to come back when due. `sweep()` advances every overdue game: `run` loops it every
  0.2 s, in `manage.py run_deadlines` (production: deadlines on PostgreSQL alone, whatever the
  broker does) and in a thread of `make run` (`start_runner`); celery beat also sends it.

Why the service calls come in as `Actions`: committing a command projects it (games.table.projections
asks `due`) and schedules its deadline (games.table.commands calls `schedule`), so this module sits
below the service layer and cannot import it. The one module that imports both, games.tasks,
builds the `Actions` and hands them to `advance`, `sweep` and `start_runner`. For the same
reason `schedule` sends the task by its registered name, not by importing games.tasks.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from celery import Celery
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games.core.db_pool import half_the_pool
from games.engine import GameState, deadline_kind
from games.engine.errors import Code
from games.engine.timeouts import BLOCK_DEADLINE, TURN_DEADLINE
from games.core.errors import ApiError
from games.core.models import GameProjection
from sejmi.celery import app

log = logging.getLogger(__name__)

ADVANCE_TASK = "games.tasks.advance"  # the Celery task scheduled at each deadline
VISIBILITY_TIMEOUT_S = 3600  # kombu's default for Redis (broker_transport_options)


class DeadlineKind(StrEnum):
    """Which deadline is pending; stored in GameProjection.deadline_kind."""

    BOT = "bot"  # an awaited seat is a bot: due at once
    BLOCK = BLOCK_DEADLINE  # R19: the block window, timed by the option block_window_s
    TURN = TURN_DEADLINE  # any other decision, timed by turn_deadline_s
    VACATION = "vacation"  # the clocks stand still: due when the first vacation runs out
    ABANDON = "abandon"  # no human acted for SEJMI_ABANDON_AFTER_DAYS: the game ends

    @property
    def times_a_decision(self) -> bool:
        """A decision's deadline (R21): a late command applies it first (games.table.commands)."""
        return self in (DeadlineKind.BOT, DeadlineKind.BLOCK, DeadlineKind.TURN)


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
    (games.table.commands), whether or not a worker has come by yet."""
    return (
        proj.status == "active"
        and proj.deadline_at is not None
        and proj.deadline_at <= now
        and DeadlineKind(proj.deadline_kind).times_a_decision
    )


# --- scheduling at commit ---------------------------------------------------------------------


def schedule(game_id: int, proj: GameProjection) -> bool:
    """Celery's fast path for a deadline or a bot move; the sweeper is the guarantee (R21).

    Returns whether a task was sent. A deadline beyond the horizon is left to the sweeper:
    Celery on Redis re-delivers an ETA task that waits longer than the broker's visibility
    timeout, so such a task would only come back again and again."""
    if proj.deadline_at is None or not settings.CELERY_DEADLINES:
        return False
    if settings.SEJMI_DEADLINE_RUNNER and proj.deadline_kind != DeadlineKind.BOT:
        return False  # `manage.py run_deadlines` applies it when due (settings)
    if proj.deadline_at - timezone.now() > horizon(app):
        return False
    try:
        app.tasks[ADVANCE_TASK].apply_async((game_id, proj.seq), eta=proj.deadline_at)
    except Exception:
        log.exception("scheduling game %s seq %s failed; the sweeper will act", game_id, proj.seq)
        return False
    return True


def horizon(celery: Celery) -> timedelta:
    """How far ahead a task may be scheduled: half the broker's visibility timeout."""
    options = celery.conf.broker_transport_options or {}
    return timedelta(seconds=options.get("visibility_timeout", VISIBILITY_TIMEOUT_S) / 2)


# --- acting when due ------------------------------------------------------------------------

ServiceCall = Callable[..., object]  # called as (*, game_id, expected_seq)


@dataclass(frozen=True)
class Actions:
    """The service layer's entries a passed deadline calls (see the module docstring)."""

    timeout: ServiceCall  # R21: act for the absent seats (games.table.commands.game_timeout)
    bot_moves: ServiceCall  # the awaited bot seats move (games.table.commands.game_bot_moves)
    vacation_over: ServiceCall | None = None  # vacations past `until` end (games.table.vacations)
    abandon: ServiceCall | None = None  # no human acted for too long (services.game_abandon)

    def at(self, kind: DeadlineKind) -> ServiceCall:
        call = {
            DeadlineKind.BOT: self.bot_moves,
            DeadlineKind.VACATION: self.vacation_over,
            DeadlineKind.ABANDON: self.abandon,
        }.get(kind, self.timeout)
        return call if call is not None else _nothing


def _nothing(**_: object) -> None:
    """A deadline kind these Actions do not handle: nothing is done."""


ACTED, MOVED_ON, NOT_DUE, REFUSED = "acted", "moved_on", "not_due", "refused"
# Someone acted between the deadline and us: a benign race, nothing left to do.
RACE_CODES = frozenset({Code.STALE_SEQ, Code.NOT_YOUR_TURN, Code.GAME_OVER})


def advance(game_id: int, seq: int, *, actions: Actions) -> str:
    """Apply the pending decision's timeout (R21) or the awaited bots' moves, if game
    `game_id` still stands at `seq` and its deadline has passed. Returns ACTED, MOVED_ON
    (no such game, another seq, nothing pending, or someone acted first), NOT_DUE (early:
    the task is scheduled again for the deadline) or REFUSED (the engine refused what the
    deadline does: a bug, logged at ERROR; the sweeper will try again). Never raises for a
    stale or early call."""
    proj = GameProjection.objects.filter(game_id=game_id).only(
        "seq", "deadline_at", "deadline_kind").first()  # fmt: skip
    if proj is None or proj.seq != seq or proj.deadline_at is None:
        return MOVED_ON
    if proj.deadline_at > timezone.now():
        schedule(game_id, proj)  # a no-op without Celery or beyond its horizon
        return NOT_DUE
    kind = DeadlineKind(proj.deadline_kind)
    try:
        actions.at(kind)(game_id=game_id, expected_seq=seq)
    except ApiError as err:
        if err.code in RACE_CODES:
            return MOVED_ON
        log.error("the %s deadline of game %s at seq %s was refused: %s (%s)",
                  kind, game_id, seq, err.code, err.message)  # fmt: skip
        return REFUSED
    return ACTED


def sweep(*, actions: Actions, limit: int = 200, pool: Executor | None = None) -> int:
    """Advance every game whose deadline has passed; returns how many acted. With `pool`,
    the games are advanced side by side (each under its own row lock): one game's slow
    transaction, or a command holding its row, does not hold the others' deadlines."""
    overdue = list(
        GameProjection.objects.filter(status="active", deadline_at__lte=timezone.now())
        .order_by("deadline_at")
        .values_list("game_id", "seq")[:limit]
    )
    if pool is None:
        return sum(advance(game_id, seq, actions=actions) == ACTED for game_id, seq in overdue)

    def one(item: tuple[int, int]) -> bool:
        try:
            return advance(*item, actions=actions) == ACTED
        finally:
            close_old_connections()  # this thread's connection back to the pool

    return sum(pool.map(one, overdue))


def run(*, actions: Actions, interval: float = 0.2, stop: threading.Event | None = None,
        each_second: Callable[[], object] | None = None) -> None:  # fmt: skip
    """Sweep until `stop` is set: every game whose deadline has passed, again at once while
    some acted (bots answer each other at once), then wait `interval`. PostgreSQL is all it
    needs. Several may run at once (`manage.py run_deadlines` on several hosts): `advance`
    acts under the game's row lock and only at the seq it read, so a deadline is applied once
    and the others see MOVED_ON. Overdue games are advanced side by side (half the pool):
    one after another, a burst of deadlines under load came up to 1.3 s late (bench-load).
    `each_second` (the reminders due, `manage.py run_deadlines`) runs in the pool about once
    a second, never twice at once, beside the sweeps."""
    stop = stop or threading.Event()
    threads = half_the_pool()
    beside: Future | None = None
    beside_at = 0.0
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="deadlines") as pool:
        while not stop.is_set():
            try:
                close_old_connections()
                while sweep(actions=actions, pool=pool if threads > 1 else None) and (
                        not stop.is_set()):  # fmt: skip
                    pass
            except Exception:
                log.exception("deadline sweep failed")
            if each_second is not None and time.monotonic() >= beside_at and (
                    beside is None or beside.done()):  # fmt: skip
                beside, beside_at = pool.submit(_beside, each_second), time.monotonic() + 1
            stop.wait(interval)
    close_old_connections()  # this thread's connection back to the pool


def _beside(step: Callable[[], object]) -> None:
    try:
        step()
    except Exception:
        log.exception("%s failed", getattr(step, "__name__", step))
    finally:
        close_old_connections()  # this thread's connection back to the pool


def start_runner(*, actions: Actions, interval: float = 0.2) -> threading.Thread:
    """The embedded deadline runner of `make run`: `run` in a daemon thread."""
    thread = threading.Thread(target=run, kwargs={"actions": actions, "interval": interval},
                              name="sejmi-deadlines", daemon=True)  # fmt: skip
    thread.start()
    return thread
