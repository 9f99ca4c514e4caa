"""The commit core of the table: load → decide → append → project, in one transaction under
the game's row lock, and broadcast, schedule and tell after COMMIT. Every change of a game goes
through `commit` (the commands of games.table.commands, the away and vacation acts):
- a player's command that arrives after the pending decision's deadline first applies that
  deadline's R21 action, whatever the workers do (they stay, for games nobody touches), and is
  then judged against the new state;
- the engine decides on the public state folded with the open block window's sealed passes
  (games.core.sealed_passes, R19); bots asked in a window answer at once;
- passes that leave the window open are sealed, not appended (the seq stays, nothing is
  broadcast); everything else is appended, led by the sealed passes once the window closed
  (the unique (game, seq) constraint is the final concurrency guard); the projections follow;
- only after COMMIT are events broadcast, deadlines scheduled and the followers woken: what
  spans games (stats, ratings, notifications, tournaments) follows the log in its own
  transaction (games.core.followers), so this one writes the game's own rows alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core import event_store, followers, plain_sql, sealed_passes
from games.core.codec import state_from_json
from games.core.errors import ApiError, not_found, stale_seq
from games.core.models import DeadlineKind, GameEvent, GameProjection, SealedPass
from games.engine import (
    Event,
    GameState,
    IllegalCommand,
    Timeout,
    bots_act,
    execute,
    fold,
    split_sealed,
    standing_answers,
    window_open,
)
from games.engine.away import AwayCommand
from games.engine.errors import Code
from games.engine.events import kind_of
from games.table import deadline, projections, publish, standing_orders
from games.table.projections import project_batch, refresh_deadline

log = logging.getLogger(__name__)

Decision = Callable[[GameState, bytes], tuple[list[Event], GameState]]


@dataclass(frozen=True)
class Ahead:
    """What a command may need besides the locked projection, read with it in one round trip
    before it decides: the passes sealed at the game's seq (its open window's) and the seated
    players' standing orders."""

    sealed: list[SealedPass]
    orders: list[tuple]


def _read_ahead(game_id: int) -> tuple[GameProjection | None, Ahead]:
    """The projection, its row locked, and `Ahead`, sent together: later reads run after the
    lock is held, so they see what the last command on this game committed."""
    proj, sealed, orders = plain_sql.together(
        projections.lock_read(game_id), sealed_passes.at_head_read(game_id),
        standing_orders.seated_read(game_id))  # fmt: skip
    return proj, Ahead(sealed, orders)


@dataclass(frozen=True)
class Committed:
    game_id: int
    seq: int
    state: GameState  # the public state at `seq`: views add the caller's own sealed pass
    deadline_at: datetime | None


def game_away_act(*, game_id: int, act: Callable[[GameState], AwayCommand],
                  expected_seq: int | None = None) -> Committed:  # fmt: skip
    """One of the service's acts on who sits where (games.engine.away): `act` names it from
    the current state (or raises ApiError). Appended like a command (at the game's head, or
    only if the game still stands at `expected_seq`)."""

    def decide(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
        return execute(state, act(state), seed=seed)

    return commit(game_id, decide, expected_seq)


def timeout_decision(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
    return execute(state, Timeout(), seed=seed)


def bots_decision(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
    events, after = bots_act(state, seed)
    if not events:
        raise ApiError(Code.NOT_YOUR_TURN, "no bot is awaited")
    return events, after


def _standing_answers(game_id: int, before: GameState, after: GameState, seed: bytes,
                      known: list[tuple] | None) -> tuple[list[Event], GameState]:  # fmt: skip
    """A window that opened in this batch is answered at once, after the bots, by the standing
    orders of the players asked: ordinary block / pass events marked `standing`,
    sealed like anyone's pass (R19). An order set while a window is open answers from the next."""
    opened = window_open(after) and not (window_open(before) and before.turn == after.turn)
    orders = standing_orders.orders_by_seat(game_id, after, known) if opened else {}
    return standing_answers(after, orders, seed) if orders else ([], after)


def commit(game_id: int, decide: Decision, expected_seq: int | None,
            then: Callable[[Committed], None] | None = None, *,
            deadline_first: bool = False, player: Any = None,
            landed: Callable[[Committed], None] | None = None) -> Committed:  # fmt: skip
    """Load → decide → append → project, in one transaction. The projection's row lock makes
    commands on one game queue (a loser then sees the new seq: stale_seq); the unique
    (game, seq) constraint stays the final guard.

    `then` runs inside the transaction once the command is decided; `landed` right after
    COMMIT, before the broadcast, the deadline and the followers' wake-up (the socket's ack:
    it need not wait for their round trips).

    `player` (a user's command): who may act comes before which seq (boardgame.io's order):
    anyone without a seat is refused `forbidden` before the seq or the deadline is looked at,
    so the answer tells a spectator of a delayed game nothing of the present.

    `deadline_first` (a player's command): if the pending decision's deadline has passed, its
    R21 action is applied first and the command is judged after it, in a savepoint, so the
    deadline's events stay committed when the command is refused. The command then usually
    fails with stale_seq: the deadline's events landed before it, as any other command's
    would have (docs/CHOICES.md)."""
    refused: ApiError | None = None
    try:
        # PostgreSQL: BEGIN with the reads in one round trip, the writes with COMMIT in another.
        with plain_sql.command_transaction() as sync:
            proj, ahead = _read_ahead(game_id)
            if proj is None:
                raise not_found()
            event_store.check_head(proj)  # never build on a head the service did not sign
            if player is not None and not _seated(proj, player):
                raise ApiError(Code.FORBIDDEN, "only the game's players send commands")
            if not (deadline_first and deadline.overdue(proj, timezone.now())):
                return _apply(proj, decide, expected_seq, then, ahead, landed)
            _apply_deadline(proj, ahead, sync)
            try:  # the deadline moved the game on: what was read ahead is read again
                with transaction.atomic():  # a savepoint: a refusal keeps the deadline's events
                    done = _apply(proj, decide, expected_seq, then, None, landed)
                    sync()  # its writes' errors surface inside the savepoint
                    return done
            except ApiError as err:
                refused = err
            except IntegrityError:
                refused = _lost_race()
    except event_store.Tampered as err:  # the game stops: recorded outside this transaction
        event_store.stop_tampered(err)
        raise
    except IntegrityError as err:  # under the row lock, (game, seq) collides only with a forgery
        forged = event_store.forged_next(err, game_id)
        if forged is not None:
            event_store.stop_tampered(forged)
            raise forged from None
        raise _lost_race() from None
    assert refused is not None
    raise refused


def _seated(proj: GameProjection, user) -> bool:
    """Whether `user` holds a seat: by his id (the projection's `player_ids`), never his name."""
    return bool(getattr(user, "is_authenticated", False)) and user.pk in (proj.player_ids or ())


def _lost_race() -> ApiError:
    return ApiError(Code.STALE_SEQ, "another command landed first; refetch")


def _apply_deadline(proj: GameProjection, ahead: Ahead, sync: Callable[[], None]) -> None:
    """R21 for a late command: the timeout (or the awaited bots' moves) the workers have not
    applied yet. A refusal here is a bug (as in games.clock.runner.advance): logged, and the
    command is judged as if no deadline had passed."""
    kind = DeadlineKind(proj.deadline_kind)
    act = bots_decision if kind is DeadlineKind.BOT else timeout_decision
    try:
        with transaction.atomic():
            _apply(proj, act, proj.seq, None, ahead)
            sync()
    except ApiError as err:
        if err.code not in deadline.RACE_CODES:
            log.error("the %s deadline of game %s at seq %s was refused before a late command: "
                      "%s (%s)", kind, proj.game_id, proj.seq, err.code, err.message)  # fmt: skip


def _apply(proj: GameProjection, decide: Decision, expected_seq: int | None,
           then: Callable[[Committed], None] | None, ahead: Ahead | None,
           landed: Callable[[Committed], None] | None = None) -> Committed:  # fmt: skip
    """Decide on the public state folded with the open window's sealed passes (R19, R26);
    bots asked in a window that stays open answer at once (sealed like anyone's pass).
    `ahead`: read with the lock at this seq (None: read here what is needed)."""
    if expected_seq is not None and expected_seq != proj.seq:
        raise stale_seq(expected_seq, proj.seq)
    public = state_from_json(proj.state)
    sealed: list[SealedPass] = []
    if window_open(public):
        sealed = ahead.sealed if ahead else sealed_passes.load(proj.game_id, proj.seq)
    seed = bytes(proj.game.seed)
    try:
        events, after = decide(sealed_passes.folded(public, sealed), seed)
        if window_open(after):
            more, after = bots_act(after, seed)
            events = events + more
        more, after = _standing_answers(
            proj.game_id, public, after, seed, ahead.orders if ahead is not None else None
        )
        events = events + more
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    if landed is not None:  # registered before the append's after-COMMIT calls, so run first;
        # dropped with this transaction or savepoint if it rolls back (`done` is bound by then);
        # robust: a failure here (the socket's loop gone) is logged, the broadcast still goes
        transaction.on_commit(lambda: landed(done), robust=True)
    done = _append_or_seal(proj, public, sealed, events, after)
    if then is not None:
        then(done)
    return done


def _append_or_seal(proj: GameProjection, public: GameState, sealed: list[SealedPass],
                    events: list[Event], after: GameState) -> Committed:  # fmt: skip
    """Seal the passes that leave the window open (R19); append everything else, led by the
    window's sealed passes (each with its own `at`, in the order received) once it closed."""
    now = timezone.now()
    told, keep = split_sealed(events, after)
    if not told:  # nothing public happened: no event, no broadcast, the seq stays
        _seal(proj.game_id, proj.seq, keep, after, now)
        if refresh_deadline(proj, after):  # only a window opened before passes were sealed
            transaction.on_commit(lambda: deadline.schedule(proj.game_id, proj))
        return Committed(proj.game_id, proj.seq, public, proj.deadline_at)
    if sealed and window_open(after) and all(kind_of(e.type).away for e in told):
        # Someone came or went while the window stays open: that is told, and the passes
        # stay sealed, carried to the new seq (R19).
        carried = sealed_passes.as_events(sealed) + keep
        done = append(proj.game_id, proj, public, [(now, told)], fold(told, public),
                      deadline_state=after, sealed=carried)  # fmt: skip
        sealed_passes.carry(proj.game_id, sealed, done.seq)
        _seal(proj.game_id, done.seq, keep, after, now, tell=False)
        return done
    # Something else was told, so the window whose passes were sealed has closed: the engine
    # tells nothing else while a window stays open.
    runs = sealed_passes.runs(sealed) + [(now, told)]
    shown = fold(sealed_passes.as_events(sealed) + told, public) if keep else after
    done = append(
        proj.game_id,
        proj,
        public,
        runs,
        shown,
        deadline_state=after,
        sealed=keep,
    )
    if keep:  # a window opened in this batch, and bots or standing orders passed in it
        _seal(proj.game_id, done.seq, keep, after, now, tell=False)
    return done


def _seal(game_id: int, seq: int, passes: list[Event], after: GameState, now: datetime, *,
          tell: bool = True) -> None:  # fmt: skip
    """Seal `passes` in the window open at `seq` (R19) and, after COMMIT, tell each passer's
    own sockets (a human's, even when the bot or his standing order passed for him): their
    view then holds the pass, as his REST view does, so they never offer a refused `pass`.
    `tell=False`: the seq moved in this transaction, and the batch's broadcast carries the
    passes sealed at it (its view for each passer holds his pass: games.live.consumer)."""
    sealed_passes.seal(game_id, seq, passes, now)
    if not tell:
        return
    names = [after.names[e.data["seat"]] for e in passes if not after.bots[e.data["seat"]]]
    if names:
        transaction.on_commit(lambda: publish.tell_the_passer(game_id, seq, names))


def _last_human_act(before: GameState | None, runs: list[tuple[datetime, list[Event]]],
                    after: GameState) -> datetime | None:  # fmt: skip
    """When the last human act among `runs` was made, as a rebuild (one batch per `at`) finds
    it: sealed passes carry their own time. None: at the last run's (or none at all)."""
    if before is None or len(runs) < 2 or after.human_acts == before.human_acts:
        return None
    state, found = before, None
    for at, batch in runs[:-1]:
        folded = fold(batch, state)
        found = at if folded.human_acts > state.human_acts else found
        state = folded
    return None if after.human_acts > state.human_acts else found


def append(game_id: int, proj: GameProjection | None, before: GameState | None,
            runs: list[tuple[datetime, list[Event]]], after: GameState, *,
            deadline_state: GameState | None = None,
            sealed: list[Event] = ()) -> Committed:  # fmt: skip
    """Append the batches of `runs` (each of one `at`), project them as one batch, and after
    COMMIT broadcast them together (with `sealed`, the passes sealed in the window left open
    at the new seq: each passer's own view shows his), schedule the next deadline and wake the
    followers."""
    head = proj.seq if proj is not None else 0
    head_hash = proj.head_hash if proj is not None else event_store.GENESIS
    rows: list[GameEvent] = []
    for at, batch in runs:
        rows += event_store.append(game_id=game_id, head_seq=head, head_hash=head_hash,
                                   events=batch, at=at)  # fmt: skip
        head, head_hash = rows[-1].seq, rows[-1].hash
    events = [e for _, batch in runs for e in batch]
    proj = project_batch(game_id=game_id, proj=proj, before=before, events=events, after=after,
                         head_seq=head, head_hash=head_hash, at=runs[-1][0],
                         deadline_state=deadline_state,
                         acted_at=_last_human_act(before, runs, after))  # fmt: skip
    passes = [e.data for e in sealed]
    transaction.on_commit(lambda: publish.broadcast(game_id, rows, proj, passes))
    transaction.on_commit(lambda: deadline.schedule(game_id, proj))  # R21, bots
    followers.on_commit_wake(game_id)
    return Committed(game_id, head, after, proj.deadline_at)
