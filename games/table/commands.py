"""The table's commands (API.md): create, join, a seat's command over REST or the socket, and
the acts of a passed deadline (R21 timeouts, bot moves). Each decides with the engine and
commits through games.table.commit."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.core import event_store, idempotency
from games.core.codec import canonical_json, iso
from games.core.errors import ApiError
from games.core.models import Game, GameProjection, IdempotentAnswer
from games.engine import (
    Command,
    Event,
    GameState,
    IllegalCommand,
    Join,
    execute,
    fold,
    new_game,
    new_seed,
    parse_command,
)
from games.engine.away import coming_back
from games.engine.decide import start_game
from games.engine.errors import Code
from games.engine.state import VACATION
from games.table import vacations
from games.table.commit import Committed, append, bots_decision, commit, timeout_decision
from games.table.models import GameContext
from games.table.selectors import game_view, seat_of

MAX_KEY_LENGTH = 200  # an Idempotency-Key, or a socket command's id (the same thing)


def game_create(*, user, seats: Any, variant: Any = "standard", options: Any = None,
                rig: Any = None, capped: bool = False) -> Committed:  # fmt: skip
    """Create a game (bot seats are seated at once). ApiError(Code.INVALID) for bad settings.
    `capped` (a user's request): a bots-only game past SEJMI_BOT_GAMES_PER_HOUR of his in the
    last hour is ApiError(too_many) (each plays ~160 events at once, for nobody's table)."""
    if rig is not None and not settings.SEJMI_ALLOW_RIGGED:
        raise ApiError(Code.INVALID, "rigged games need a server run with SEJMI_ALLOW_RIGGED=1")
    seed = new_seed()
    try:
        events = new_game(seats=seats, seed=seed, variant=variant, options=options, rig=rig)
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    state = fold(events)
    if capped and all(state.bots):
        _bot_games_cap(user)
    return game_create_from(user=user, seed=seed, events=events, state=state)


def game_create_from(*, user, seed: bytes, events: list[Event], state: GameState) -> Committed:
    """A new game whose first events the engine made (`new_game`, or a fork's `fork_game`:
    games.forks), appended and projected as every new game is; `state` is their fold."""
    with transaction.atomic():
        game = Game.objects.create(seed=seed, created_by=user)
        return append(game.pk, None, None, [(timezone.now(), events)], state)


def _bot_games_cap(user) -> None:
    """ApiError too_many if `user` created SEJMI_BOT_GAMES_PER_HOUR bots-only games in the last
    hour (every seat a bot: all named, no user's id), with the seconds until the oldest of them
    leaves the hour as Retry-After."""
    now, cap = timezone.now(), settings.SEJMI_BOT_GAMES_PER_HOUR
    recent = GameProjection.objects.filter(
        game__created_by=user, game__created_at__gt=now - timedelta(hours=1)
    )
    made = sorted(at for at, names, ids in recent.values_list("game__created_at", "players",
                                                               "player_ids")
                  if all(n is not None for n in names) and not any(ids or ()))  # fmt: skip
    if len(made) >= cap:
        wait = made[-cap] + timedelta(hours=1) - now
        raise ApiError(Code.TOO_MANY, f"at most {cap} games of bots only per hour",
                       retry_after=max(1, int(wait.total_seconds()) + 1))  # fmt: skip


def game_create_seated(*, user, players: list[str], seed: bytes, variant: str,
                       options: dict | None, tournament: tuple[int, str, int],
                       deal: str | None = None) -> Committed:  # fmt: skip
    """A game of a tournament's table (games.tournaments): every seat taken by `players` in
    order, so it starts at once, played with `seed` (tables of one duplicate deal share it) and
    labelled with (tournament id, name, round) and its `deal` (games.table.duplicates).
    Joins in the caller's transaction."""
    try:
        events, state = start_game(seats=len(players), seed=seed, variant=variant,
                                   options=options)  # fmt: skip
        for name in players:
            more, state = execute(state, Join(name, None), seed=seed)
            events += more
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    with transaction.atomic():
        game = Game.objects.create(seed=seed, created_by=user)
        tid, name, round_ = tournament
        GameContext.objects.create(game=game, tournament_id=tid, tournament_name=name,
                                   round=round_, deal=deal)  # fmt: skip
        return append(game.pk, None, None, [(timezone.now(), events)], state)


def game_join(*, user, game_id: int, seat: Any = None) -> Committed:
    """The caller takes a free seat (the first one if `seat` is None); full → game starts."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ApiError(Code.INVALID, "seat must be a whole number or null")

    def decide(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
        if user.username in state.names:
            raise ApiError(Code.ALREADY_SEATED, "you already have a seat in this game")
        return execute(state, Join(user.username, seat), seed=seed)

    return commit(game_id, decide, expected_seq=None)  # joins queue on the game's row lock


def game_command(*, user, game_id: int, body: Any, key: str | None, view: bool = True,
                 landed: Callable[[int], None] | None = None) -> dict[str, Any]:  # fmt: skip
    """A seat's command (API.md), over REST or the socket. Returns {"seq", "view"} ({"seq"}
    with view=False: the socket's ack). With a key, the first answer that landed is stored
    (per user and game) and returned to every retry over either path, which appends nothing;
    the same key with another body → idempotency_mismatch. A refused command stores nothing.
    `landed` (the socket's ack) is told the seq at COMMIT, before what follows it, unless the
    command ends its player's vacation: then the answer waits for that.

    What is stored is what the command appended, not a rendered view (issue 19): {"seq",
    "appended": [first, last] or null (a sealed pass appends nothing), "deadline"}. A retry
    that wants the view has it rendered at that seq, as the first answer rendered it."""
    if not isinstance(body, dict):
        raise ApiError(Code.INVALID, "the body is a JSON object")
    expected = body.get("expected_seq")
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise ApiError(
            Code.INVALID, "expected_seq (the last seq you saw) is a required whole number"
        )
    if key is not None and not (1 <= len(key) <= MAX_KEY_LENGTH and key.isprintable()):
        raise ApiError(Code.INVALID, f"Idempotency-Key: 1..{MAX_KEY_LENGTH} printable characters")
    request_hash = hashlib.sha256(canonical_json(body).encode()).hexdigest()
    # No read of stored answers first: a retry of a command that landed is refused by the
    # engine (its expected_seq is stale, or its seat has answered: R26), and a spent key on a
    # command that would land collides with the unique row: either way the stored answer
    # (or idempotency_mismatch) is looked up below, and the first try costs no query.
    command = _parse(body)

    paused_by_him = False  # his vacation stands this game still

    def decide(state: GameState, seed: bytes) -> tuple[list[Event], GameState]:
        nonlocal paused_by_him
        seat = seat_of(state, user)
        if seat is not None and state.left[seat]:
            raise ApiError(Code.FORBIDDEN, "you left this game")
        paused_by_him = seat is not None and state.away[seat] == VACATION
        back = coming_back(state, seat)  # his own command takes his seat back (docs/AWAY.md)
        events, state = execute(state, back, seed=seed) if back else ([], state)
        more, after = execute(state, command, actor=seat, seed=seed)
        return events + more, after

    def remember(done: Committed) -> None:
        if key is not None:
            appended = [expected + 1, done.seq] if done.seq > expected else None
            idempotency.store(user=user, game_id=game_id, key=key, request_hash=request_hash,
                              answer={"seq": done.seq, "appended": appended,
                                      "deadline": iso(done.deadline_at)
                                      if done.deadline_at else None})  # fmt: skip

    def committed(done: Committed) -> None:
        if landed is not None and not paused_by_him:
            landed(done.seq)

    try:
        done = commit(game_id, decide, expected_seq=expected, then=remember,
                      deadline_first=True, player=user, landed=committed)  # fmt: skip
    except ApiError:  # refused, or the key's unique row collided (_lost_race)
        if key is None:
            raise
        stored = _stored_answer(user, game_id, key, request_hash)
        if stored is None:
            raise
        # Our own retry landed first: this request is that one. (A sealed pass does not
        # move the seq, so its retry is refused with not_your_turn, not stale_seq: R26.)
        return _answer_again(user, game_id, stored, view)
    if paused_by_him:  # acting in a game his vacation paused ends it everywhere (docs/AWAY.md)
        vacations.end_on_acting(user)
    if not view:
        return {"seq": done.seq}
    return {"seq": done.seq, "view": game_view(game_id, done.state, user, seq=done.seq,
                                               deadline=done.deadline_at)}  # fmt: skip


def _answer_again(user, game_id: int, stored: dict[str, Any], view: bool) -> dict[str, Any]:
    """A stored answer as the first one was given. Answers stored before issue 19 hold their
    rendered view."""
    if not view or "view" in stored:
        return {"seq": stored["seq"], **({"view": stored["view"]} if view else {})}
    seq, deadline = stored["seq"], stored["deadline"]
    state = event_store.state_at(game_id, seq)
    return {
        "seq": seq,
        "view": game_view(
            game_id,
            state,
            user,
            seq=seq,
            deadline=datetime.fromisoformat(deadline) if deadline else None,
        ),
    }


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
    return commit(game_id, timeout_decision, expected_seq)


def game_bot_moves(*, game_id: int, expected_seq: int) -> Committed:
    """Bot seats that are awaited act (one command each, all in one append)."""
    return commit(game_id, bots_decision, expected_seq)
