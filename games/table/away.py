"""Writes about who sits at a seat (the engine's away.py): a player leaves a running game, takes
his seat back from the bot, and a game no human touches any more ends as abandoned. Each is an
event in the game, committed like a command (games.table.commit.game_away_act); vacations, which
span a player's games, are games.table.vacations."""

from __future__ import annotations

from games.core.errors import ApiError
from games.engine import GameState
from games.engine.away import Abandon, AwayCommand, Leave, Return
from games.engine.errors import Code
from games.table.commit import Committed, game_away_act
from games.table.selectors import seat_of


def _own_seat(state: GameState, user) -> int:
    seat = seat_of(state, user)
    if seat is None:
        raise ApiError(Code.FORBIDDEN, "you have no seat in this game")
    return seat


def game_leave(*, user, game_id: int) -> Committed:
    """The caller leaves a running game: the bot plays his seat to the end (he cannot win)."""

    def act(state: GameState) -> AwayCommand:
        return Leave(_own_seat(state, user))

    return game_away_act(game_id=game_id, act=act)


def game_return(*, user, game_id: int) -> Committed:
    """The caller takes his seat back from the bot that took it after his timeouts."""

    def act(state: GameState) -> AwayCommand:
        return Return(_own_seat(state, user))

    return game_away_act(game_id=game_id, act=act)


def game_abandon(*, game_id: int, expected_seq: int | None = None) -> Committed:
    """The deadline machinery's act when no human acted for SEJMI_ABANDON_AFTER_DAYS
    (games.table.deadline.DeadlineKind.ABANDON): the game ends, nobody wins; only if it still
    stands at `expected_seq` (a human who acted meanwhile saved it: stale_seq)."""
    return game_away_act(game_id=game_id, act=lambda state: Abandon(), expected_seq=expected_seq)
