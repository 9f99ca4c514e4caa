"""Standing orders: a player's private word on how his block windows are answered
while he is away — per game, or as his default for every game without one.

Orders belong to the user: append-only `StandingOrder` rows, the latest of (user, game) wins,
`block` null removes it. Only the owner reads them (`order_get`); games.table.commit asks
`orders_by_seat` when a window opens and lets the engine answer (games.engine.standing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from games.core import plain_sql
from games.core.errors import ApiError
from games.engine import ORDERS, GameState
from games.engine.errors import Code
from games.table.models import PlayerSeat, StandingOrder
from games.table.selectors import current, seat_of


def order_get(*, user, game_id: int | None) -> dict[str, Any]:
    """The caller's order for a game he sits in (game_id), or his default (None).
    ApiError not_found (no such game) / forbidden (not seated there)."""
    if game_id is not None:
        _seated(user, game_id)
    return _answer(user, game_id)


def order_set(*, user, game_id: int | None, body: Any) -> dict[str, Any]:
    """Store the caller's order (`{"block": one of ORDERS or null}`) as a new row. ApiError,
    checked in this order: not_found, forbidden (not seated), game_over (a finished game takes
    no order), invalid (a bad body)."""
    if game_id is not None and _seated(user, game_id).status == "ended":
        raise ApiError(Code.GAME_OVER, "the game is over")
    if not isinstance(body, dict) or set(body) != {"block"}:
        raise ApiError(Code.INVALID, 'the body is {"block": ' + " | ".join(ORDERS) + " | null}")
    block = body["block"]
    if block is not None and block not in ORDERS:
        raise ApiError(Code.INVALID, f"block is one of {', '.join(ORDERS)}, or null to remove it")
    StandingOrder.objects.create(user=user, game_id=game_id, block=block, at=timezone.now())
    return _answer(user, game_id)


def _seated(user, game_id: int) -> GameState:
    _, state = current(game_id)  # ApiError not_found
    if seat_of(state, user) is None:
        raise ApiError(Code.FORBIDDEN, "standing orders are for the players seated in this game")
    return state


def _answer(user, game_id: int | None) -> dict[str, Any]:
    """`{"game", "block", "at", "applies"}`: the order, when it was set, and what answers the
    caller's windows there (the game's order, else his default; null: he is asked)."""
    rows = _latest(Q(user=user), game_id)
    own = rows.get((user.pk, game_id))
    return {
        "game": game_id,
        "block": own.block if own is not None else None,
        "at": own.at.isoformat() if own is not None else None,
        "applies": _applies(rows, user.pk, game_id),
    }


def _applies(rows: dict, user_id: Any, game_id: int | None) -> str | None:
    """The order that answers: the game's, else the default (a removed one counts as none)."""
    own, default = rows.get((user_id, game_id)), rows.get((user_id, None))
    if own is not None and own.block is not None:
        return own.block
    return default.block if default is not None else None


def _latest(who: Q, game_id: int | None) -> dict[tuple[int, int | None], StandingOrder]:
    """The latest row of each (user, game) among `who`'s orders for this game and defaults."""
    return _by_key(StandingOrder.objects.filter(who & _this_game_or_default(game_id)),
                   lambda row: row.user_id)  # fmt: skip


def _this_game_or_default(game_id: int | None) -> Q:
    return (Q(game__isnull=True) | Q(game_id=game_id)) if game_id is not None else Q(game=None)


def _by_key(rows, user_key) -> dict:
    """(user, game) → its latest row."""
    return _latest_wins(((user_key(row), row.game_id), row) for row in rows.order_by("id"))


def _latest_wins(keyed_in_id_order) -> dict:
    """Key → its latest value, from (key, value) pairs in the rows' id order: the orders are
    append-only, so the highest id wins (a removal is a row whose block is null)."""
    return dict(keyed_in_id_order)


@dataclass(frozen=True)
class _Order:
    block: str | None


def orders_by_seat(game_id: int, state: GameState,
                   known: list[tuple] | None = None) -> dict[int, str]:  # fmt: skip
    """Seat → order for the seats asked in the open window of `state` whose player has an
    order there (the game's, else his default). Bots have none. `known`: the rows of
    `seated_read`, read with the command's other reads; else one statement, in plain SQL
    (games.core.plain_sql): it runs in the command that opens a window, a hot path."""
    seats = {
        name: seat
        for seat, name in enumerate(state.names)
        if seat in state.awaiting and name is not None and not state.bots[seat]
    }
    if not seats:
        return {}
    if known is None:
        known = plain_sql.rows(_orders_sql(f"u.username IN ({plain_sql.marks(seats)})"),
                               (*seats, game_id))  # fmt: skip
    latest = _latest_wins(((name, game), _Order(block)) for name, game, block in known
                          if name in seats)  # fmt: skip
    applying = {seat: _applies(latest, name, game_id) for name, seat in seats.items()}
    return {seat: block for seat, block in applying.items() if block is not None}


def seated_read(game_id: int) -> plain_sql.Read:
    """The orders (this game's and the defaults) of everyone seated in the game, as a read
    sent with the command's others (games.table.commit): `orders_by_seat`'s `known`."""
    seated = f"o.user_id IN (SELECT user_id FROM {PlayerSeat._meta.db_table} WHERE game_id = %s)"
    return plain_sql.Read(_orders_sql(seated), [game_id, game_id])


def _orders_sql(who: str) -> str:
    """The orders of the users `who` selects, this game's (the last parameter) and defaults,
    with the name of their user, in the order they were set (the latest wins)."""
    return (f"SELECT u.username, o.game_id, o.block FROM {StandingOrder._meta.db_table} o"
            f" JOIN {get_user_model()._meta.db_table} u ON u.id = o.user_id"
            f" WHERE {who} AND (o.game_id = %s OR o.game_id IS NULL) ORDER BY o.id")  # fmt: skip
