"""Writes: load → decide → append → project → broadcast and schedule after commit.

Every change of a game goes through `_commit`, in one transaction: the engine decides, the
event store appends (the unique (game, seq) constraint is the final concurrency guard), the
projections follow, and only after COMMIT are events broadcast and deadlines scheduled.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import deadlines, event_store, notify
from games.codec import canonical_json, state_from_json
from games.engine import (
    Command,
    Event,
    GameState,
    HeuristicBot,
    IllegalCommand,
    Join,
    Timeout,
    execute,
    fold,
    new_game,
    new_seed,
    parse_command,
)  # fmt: skip
from games.engine.errors import Code
from games.errors import ApiError, not_found, stale_seq
from games.models import Game, GameProjection, IdempotentAnswer
from games.projections import project_batch
from games.selectors import game_view, seat_of

Decision = Callable[[GameState, bytes], tuple[list[Event], GameState]]


@dataclass(frozen=True)
class Committed:
    game_id: int
    seq: int
    state: GameState
    deadline_at: datetime | None


def game_create(*, user, seats: Any, variant: Any = "standard", options: Any = None,
                rig: Any = None) -> Committed:  # fmt: skip
    """Create a game (bot seats are seated at once). ApiError(Code.INVALID) for bad settings."""
    if rig is not None and not settings.SEJMI_ALLOW_RIGGED:
        raise ApiError(Code.INVALID, "rigged games need a server run with SEJMI_ALLOW_RIGGED=1")
    seed = new_seed()
    try:
        events = new_game(seats=seats, seed=seed, variant=variant, options=options, rig=rig)
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    with transaction.atomic():
        game = Game.objects.create(seed=seed, created_by=user)
        return _append(game.pk, None, None, events, fold(events), event_store.GENESIS)


def game_join(*, user, game_id: int, seat: Any = None) -> Committed:
    """The caller takes a free seat (the first one if `seat` is None); full → game starts."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ApiError(Code.INVALID, "seat must be a whole number or null")

    def decide(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
        if user.username in state.names:
            raise ApiError(Code.ALREADY_SEATED, "you already have a seat in this game")
        return execute(state, Join(user.username, seat), seed=seed)

    return _commit(game_id, decide, expected_seq=None)  # joins queue on the game's row lock


def game_command(*, user, game_id: int, body: Any, key: str | None) -> dict[str, Any]:
    """A seat's command (API.md). Returns {"seq", "view"}. With a key, the first answer that
    landed is stored (per user and game) and returned to every retry, which appends nothing;
    the same key with another body → idempotency_mismatch. A refused command stores nothing."""
    if not isinstance(body, dict):
        raise ApiError(Code.INVALID, "the body is a JSON object")
    expected = body.get("expected_seq")
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise ApiError(
            Code.INVALID, "expected_seq (the last seq you saw) is a required whole number"
        )
    request_hash = hashlib.sha256(canonical_json(body).encode()).hexdigest()
    if key is not None:
        stored = _stored_answer(user, game_id, key, request_hash)
        if stored is not None:
            return stored
    command = _parse(body)

    def decide(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
        return execute(state, command, actor=seat_of(state, user), seed=seed)

    answer: dict[str, Any] = {}

    def remember(done: Committed) -> None:
        view = game_view(game_id, done.state, user, seq=done.seq, deadline=done.deadline_at)
        answer.update(seq=done.seq, view=view)
        if key is not None:
            IdempotentAnswer.objects.create(user=user, game_id=game_id, key=key,
                                            request_hash=request_hash, answer=answer)  # fmt: skip

    try:
        _commit(game_id, decide, expected_seq=expected, then=remember)
    except ApiError as err:
        if err.code != Code.STALE_SEQ or key is None:
            raise
        stored = _stored_answer(user, game_id, key, request_hash)
        if stored is None:
            raise
        return stored  # our own retry landed first: this request is that one
    return answer


def _parse(body: dict[str, Any]) -> Command:
    """The command in a request body; ApiError(Code.INVALID) for a bad shape or unknown fields."""
    command_body = {k: v for k, v in body.items() if k != "expected_seq"}
    try:
        command = parse_command(command_body)
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    unknown = set(command_body) - set(command.body())
    if unknown:
        raise ApiError(Code.INVALID, f"unknown fields for {command_body['type']}: "
                                  f"{', '.join(sorted(map(str, unknown)))}")  # fmt: skip
    return command


def _stored_answer(user, game_id: int, key: str, request_hash: str) -> dict | None:
    row = IdempotentAnswer.objects.filter(user=user, game_id=game_id, key=key).first()
    if row is None:
        return None
    if row.request_hash != request_hash:
        raise ApiError(
            Code.IDEMPOTENCY_MISMATCH, "this Idempotency-Key was used for another request"
        )
    return row.answer


def game_timeout(*, game_id: int, expected_seq: int) -> Committed:
    """R21: the pending decision's deadline passed; the service acts for the absent."""
    return _commit(game_id, lambda s, seed: execute(s, Timeout(), seed=seed), expected_seq)


def game_bot_moves(*, game_id: int, expected_seq: int) -> Committed:
    """Bot seats that are awaited act (one command each, all in one append)."""

    def decide(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
        out: list[Event] = []
        bot = HeuristicBot()
        for seat in list(state.awaiting):
            if state.bots[seat] and seat in state.awaiting:
                new, state = execute(state, bot.choose(state, seat), actor=seat, seed=seed)
                out += new
        if not out:
            raise ApiError(Code.NOT_YOUR_TURN, "no bot is awaited")
        return out, state

    return _commit(game_id, decide, expected_seq)


def _commit(game_id: int, decide: Decision, expected_seq: int | None,
            then: Callable[[Committed], None] | None = None) -> Committed:  # fmt: skip
    """Load → decide → append → project, in one transaction. The projection's row lock makes
    commands on one game queue (a loser then sees the new seq: stale_seq); the unique
    (game, seq) constraint stays the final guard."""
    try:
        with transaction.atomic():
            proj = (GameProjection.objects.select_related("game").select_for_update(of=("self",))
                    .filter(game_id=game_id).first())  # fmt: skip
            if proj is None:
                raise not_found()
            if expected_seq is not None and expected_seq != proj.seq:
                raise stale_seq(expected_seq, proj.seq)
            state = state_from_json(proj.state)
            try:
                events, after = decide(state, bytes(proj.game.seed))
            except IllegalCommand as err:
                raise ApiError.from_engine(err) from None
            done = _append(game_id, proj, state, events, after, proj.head_hash)
            if then is not None:
                then(done)
            return done
    except IntegrityError:
        raise ApiError(Code.STALE_SEQ, "another command landed first; refetch") from None


def _append(game_id: int, proj: GameProjection | None, before: GameState | None,
            events: list[Event], after: GameState, head_hash: str) -> Committed:  # fmt: skip
    at = timezone.now()
    head = proj.seq if proj is not None else 0
    rows = event_store.append(game_id=game_id, head_seq=head, head_hash=head_hash,
                              events=events, at=at)  # fmt: skip
    proj = project_batch(game_id=game_id, proj=proj, before=before, events=events, after=after,
                         head_seq=rows[-1].seq, head_hash=rows[-1].hash, at=at)  # fmt: skip
    transaction.on_commit(lambda: notify.broadcast(game_id, rows, proj))
    transaction.on_commit(lambda: deadlines.schedule(game_id, proj))  # R21, bots
    return Committed(game_id, rows[-1].seq, after, proj.deadline_at)
