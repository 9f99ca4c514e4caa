"""Features that span games follow the log instead of being called by it.

A command's transaction writes the game's own rows only (its events, its read model, the sealed
passes, the deadline and the stored answer). Notifications, ratings, tournaments — every
feature that reads many games' logs — register a `Follower` when their app loads, and are
woken after COMMIT (`wake`):

- each follower keeps its own cursor per game (`FollowerCursor`, one row per follower and
  game); the followers catch a game up together in one transaction under their rows' locks
  (`follow`): what they write and the moved cursors commit together, so a process that dies
  between the game's COMMIT and theirs loses nothing (no cursor moved) and tells nothing twice
  (the locks, then unique keys);
- `wake(game_id)` never runs the followers in the caller's transaction. How it reaches them is
  `settings.SEJMI_FOLLOW`: "queue" (production: an RPUSH to a Redis list that the follower
  process drains — `manage.py run_deadlines` runs it beside the deadlines, `serve`), "thread"
  (`make run`: the runner thread of the web process is rung, `listen`), "inline" (the tests'
  default: right after COMMIT, in the committing thread);
- `sweep` catches up whatever a lost wake-up left behind (a crash, Redis away): every
  follower's games whose log is ahead of its cursor.

The table imports no follower; a new cross-game feature is a new package that registers.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from games.core import event_store, plain_sql
from games.core.event_store import Logged
from games.core.models import FollowerCursor, Game, GameProjection
from games.engine import GameState

log = logging.getLogger(__name__)

QUEUE_KEY = "sejmi:follow"  # the Redis list of woken game ids (mode "queue")
BLOCK_S = 1.0  # the follower process waits this long for a wake-up before it looks around
SWEEP_EVERY_S = 5.0  # the follower process's sweep of lost wake-ups
SWEEP_MIN_AGE = timedelta(seconds=10)  # a fresh game is its own wake-up's, not the sweeper's


@dataclass(frozen=True)
class Follower:
    """A feature that follows the games' logs.

    `handle(game_id, before, rows)` is its work on the events past its cursor (`rows`), in the
    followers' transaction (`follow`), under its cursor's row lock; `before()` gives the game's
    state at its cursor, folded only if asked for. What it returns goes to `after(result)`
    once that transaction has committed (pushes, mails: what must not be undone). `wants`: the
    event types it acts on; when none of them is past its cursor, the cursor just moves on.
    `applies(game_id)`: whether it follows that game at all (no cursor otherwise).
    `behind(min_age, limit)`: the games it has not caught up with, untouched for `min_age`
    (the sweeper's list; default: its cursors lag the log). `rebuild()`: its read models
    rebuilt from the logs, after the games' own (`rebuild_projections`)."""

    name: str
    handle: Callable[[int, Callable[[], GameState | None], list[Logged]], Any]
    after: Callable[[Any], object] | None = None
    wants: frozenset[str] | None = None
    applies: Callable[[int], bool] | None = None
    behind: Callable[[timedelta, int], list[int]] | None = None
    rebuild: Callable[[], object] | None = None

    def lagging(self, min_age: timedelta, limit: int = 100) -> list[int]:
        if self.behind is not None:
            return self.behind(min_age, limit)
        return lagging(self.name, min_age, limit)

    def follow(self, game_id: int) -> int:
        """This follower alone catches the game up (an import, a test)."""
        return _together(game_id, [self])


_followers: dict[str, Follower] = {}


def register(follower: Follower) -> None:
    """Called once per feature, when its app loads (AppConfig.ready)."""
    _followers[follower.name] = follower


def registered() -> tuple[Follower, ...]:
    return tuple(_followers.values())


# --- the cursor ---------------------------------------------------------------------------


def _together(game_id: int, chosen: list[Follower]) -> int:
    """The followers in `chosen` catch game `game_id` up in one transaction: their cursors'
    rows locked in one read, the events past the lowest read once, each follower's work in a
    savepoint of its own (one that fails leaves the others; its cursor stays, the sweeper tries
    again), the cursors moved in one statement; each `after` once it has committed. Returns how
    many followers acted."""
    chosen = [f for f in chosen if f.applies is None or f.applies(game_id)]
    if not chosen:
        return 0
    acted: list[tuple[Follower, Any]] = []
    with transaction.atomic():
        cursors = _locked_cursors(game_id, [f.name for f in chosen])
        if cursors is None:  # the game is gone
            return 0
        rows = event_store.tail(game_id, min(cursors.values()))
        if not rows:
            return 0
        moved: dict[str, int] = {}
        for follower in chosen:
            mine = [row for row in rows if row.seq > cursors[follower.name]]
            if not mine:
                continue
            if follower.wants is None or any(row.type in follower.wants for row in mine):
                before = partial(_state_at, game_id, cursors[follower.name])
                try:
                    with transaction.atomic():
                        acted.append((follower, follower.handle(game_id, before, mine)))
                        _die_here_if_asked(follower.name)
                except Exception:
                    log.exception("follower %s failed on game %s; the sweeper will try again",
                                  follower.name, game_id)  # fmt: skip
                    continue
            moved[follower.name] = mine[-1].seq
        _move(game_id, moved)
    for follower, result in acted:
        if follower.after is not None:
            try:
                follower.after(result)
            except Exception:
                log.exception("follower %s: after game %s committed", follower.name, game_id)
    return len(acted)


# The public states the followers saw at the games' heads, the newest STATES_KEPT: a follower's
# next catch-up of such a game starts at that head, and `before()` is then this copy, with no
# snapshot read and no fold. A state at a seq never changes (the log is append-only), so a
# remembered one is never stale. `make run`'s runner follows a human's move together with the
# bot's answer (two batches): the fold from the last snapshot was a third of the followers' CPU.
STATES_KEPT = 512
_states: OrderedDict[tuple[int, int], GameState] = OrderedDict()
_states_lock = threading.Lock()


def state_seen(game_id: int, seq: int, state: GameState) -> None:
    """A follower saw game `game_id`'s public state at `seq` (the projection's, at its head):
    a copy is kept, so the caller may go on changing its own."""
    state = state.copy()
    with _states_lock:
        _states[(game_id, seq)] = state
        _states.move_to_end((game_id, seq))
        while len(_states) > STATES_KEPT:
            _states.popitem(last=False)


def _state_at(game_id: int, seq: int) -> GameState | None:
    """event_store.state_at, from a state a follower saw when there is one (a copy: the
    followers may change what they are given)."""
    with _states_lock:
        seen = _states.get((game_id, seq))
    return seen.copy() if seen is not None else event_store.state_at(game_id, seq)


def _locked_cursors(game_id: int, names: list[str]) -> dict[str, int] | None:
    """Each named follower's cursor on the game, their rows made if missing and locked. The
    usual case (every row there since the game's first move) is one statement."""
    table = FollowerCursor._meta.db_table
    read = (f"SELECT follower, seq FROM {table} WHERE game_id = %s"
            f" AND follower IN ({plain_sql.marks(names)}){plain_sql.for_update()}")  # fmt: skip
    found = dict(plain_sql.rows(read, [game_id, *names]))
    if len(found) == len(names):
        return found
    if not Game.objects.filter(pk=game_id).exists():
        return None
    FollowerCursor.objects.bulk_create(
        [FollowerCursor(follower=name, game_id=game_id) for name in names], ignore_conflicts=True
    )
    return dict(plain_sql.rows(read, [game_id, *names]))


def _move(game_id: int, moved: dict[str, int]) -> None:
    """Every moved cursor of the game in one UPDATE (plain SQL: the ORM's Case/When compiled
    anew for every move was a tenth of the followers' CPU)."""
    if not moved:
        return
    whens = " ".join(["WHEN %s THEN %s"] * len(moved))
    plain_sql.changed(
        f"UPDATE {FollowerCursor._meta.db_table} SET seq = CASE follower {whens} END"
        f" WHERE game_id = %s AND follower IN ({plain_sql.marks(list(moved))})",
        [*(x for pair in moved.items() for x in pair), game_id, *moved])  # fmt: skip


def _die_here_if_asked(name: str) -> None:
    """Fault injection for the crash test (tests/core/test_followers.py), as bench-faults
    kills processes: SEJMI_FOLLOWER_DIES_AT=<follower> ends the process abruptly after that
    follower did its work and before its transaction commits."""
    if os.environ.get("SEJMI_FOLLOWER_DIES_AT") == name:
        os._exit(70)


def lagging(name: str, min_age: timedelta = timedelta(0), limit: int = 100) -> list[int]:
    """Games whose log is ahead of follower `name`'s cursor: moved in the last day (an old
    imported game is nobody's news) and not in the last `min_age`, the oldest first."""
    now = timezone.now()
    seq = FollowerCursor.objects.filter(follower=name, game_id=OuterRef("game_id")).values("seq")
    recent = GameProjection.objects.filter(updated_at__gte=now - timedelta(days=1),
                                           updated_at__lte=now - min_age)  # fmt: skip
    behind = recent.annotate(cursor=Subquery(seq[:1])).filter(
        Q(cursor__isnull=True) | Q(cursor__lt=F("seq"))
    )
    return list(behind.order_by("updated_at").values_list("game_id", flat=True)[:limit])


# --- running them -------------------------------------------------------------------------


def follow(game_id: int) -> int:
    """Every follower catches game `game_id` up, together (`_together`); a failure is logged
    and left to the sweeper. Returns how many followers acted."""
    return _guarded("followers", lambda g: _together(g, list(registered())), game_id)


def sweep(min_age: timedelta = SWEEP_MIN_AGE, limit: int = 100) -> int:
    """Every follower's lagging games caught up: the guarantee behind each wake-up."""
    lagging_games: dict[int, None] = {}
    for follower in registered():
        try:
            lagging_games.update(dict.fromkeys(follower.lagging(min_age, limit)))
        except Exception:
            log.exception("follower %s: listing its lagging games failed", follower.name)
    return sum(follow(game_id) for game_id in lagging_games)


def _guarded(name: str, step: Callable[[int], int], game_id: int) -> int:
    try:
        return int(step(game_id) or 0)
    except Exception:
        log.exception("follower %s failed on game %s; the sweeper will try again", name, game_id)
        return 0


# --- waking them --------------------------------------------------------------------------

_pending: set[int] = set()  # mode "thread": games woken since the runner last looked
_pending_lock = threading.Lock()
_listeners: list[Callable[[], None]] = []


def wake(game_id: int) -> None:
    """After COMMIT of game `game_id`'s events: the followers are to catch it up. Never
    raises: a wake-up lost here is the sweeper's."""
    mode = settings.SEJMI_FOLLOW
    try:
        if mode == "inline":
            follow(game_id)
        elif mode == "thread":
            with _pending_lock:
                _pending.add(game_id)
            for listener in _listeners:
                listener()
        else:
            _redis().rpush(QUEUE_KEY, game_id)
    except Exception:
        log.exception("waking the followers for game %s failed; the sweeper will", game_id)


def on_commit_wake(game_id: int) -> None:
    """`wake` once the current transaction commits (nothing if it rolls back)."""
    transaction.on_commit(lambda: wake(game_id))


def listen(listener: Callable[[], None]) -> None:
    """Mode "thread": `listener` is called (from the committing thread) after each wake-up;
    the runner then calls `follow_pending`."""
    _listeners.append(listener)


def follow_pending() -> int:
    """Mode "thread": catch up every game woken since the last call."""
    with _pending_lock:
        games = sorted(_pending)
        _pending.clear()
    return sum(follow(game_id) for game_id in games)


def serve(stop: threading.Event, *, wait_s: float = BLOCK_S,
          sweep_every_s: float = SWEEP_EVERY_S) -> None:  # fmt: skip
    """The follower process's loop (mode "queue"): take the woken games from Redis (each
    woken game once per take, however often it was woken), catch each up, and sweep every
    `sweep_every_s`. Several may run: each game is caught up under its cursors' locks."""
    swept_at = 0.0
    while not stop.is_set():
        try:
            games = _take(wait_s)
        except Exception:
            log.exception("reading the followers' queue failed")
            stop.wait(wait_s)
            games = []
        for game_id in games:
            follow(game_id)
        if time.monotonic() - swept_at >= sweep_every_s:
            swept_at = time.monotonic()
            sweep()
        close_old_connections()


def _take(wait_s: float) -> list[int]:
    """The woken games: waits up to `wait_s` for the first, then takes all queued."""
    client = _redis(blocking=True)
    first = client.blpop([QUEUE_KEY], timeout=wait_s)
    if first is None:
        return []
    with client.pipeline() as pipe:
        pipe.lrange(QUEUE_KEY, 0, -1)
        pipe.delete(QUEUE_KEY)
        rest, _ = pipe.execute()
    return _unique([first[1], *rest])


def _unique(raw: Iterable[bytes]) -> list[int]:
    return list(dict.fromkeys(int(x) for x in raw))


_clients: dict[tuple[int, bool], object] = {}


def _redis(*, blocking: bool = False):
    """A redis.Redis per process and use: the wake-up's gives up after REDIS_TIMEOUT_S (a
    black-holed Redis must not hold a command's answer), the blocking take's waits longer than
    its BLPOP."""
    import redis

    key = (os.getpid(), blocking)
    if key not in _clients:
        timeout = settings.REDIS_TIMEOUT_S
        _clients[key] = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=timeout,
            socket_timeout=timeout + (BLOCK_S + 1 if blocking else 0))  # fmt: skip
    return _clients[key]
