"""Which reads of one game a replica may serve (games.core.replicas): a spectator's — anyone
not seated, staff aside (they see the present) — and anyone's once the game has ended (an
ended game changes no more: a replica that has its end has all of it). A seated player's read
of a game in play is his own: the primary's, so he never sees a state older than one he has
seen (read-your-writes). Who sits and whether it ended are asked of the primary, by two small
lookups, and only when replicas are configured."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from games.core import replicas
from games.core.models import GameProjection
from games.engine.state import ENDED
from games.table.models import PlayerSeat

T = TypeVar("T")


def may_lag(game_id: int, user) -> bool:
    """Whether `user`'s read of game `game_id` may come from a replica (the module's rule)."""
    if user is None or not user.is_authenticated:
        return True
    if not user.is_staff and not PlayerSeat.objects.filter(game_id=game_id, user=user).exists():
        return True
    return GameProjection.objects.filter(game_id=game_id, status=ENDED).exists()


def read_game(game_id: int, user, read: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`read(*args, **kwargs)`, on a replica when `user`'s read of this game may lag."""
    if replicas.configured() and may_lag(game_id, user):
        return replicas.read_lagging(read, *args, **kwargs)
    return read(*args, **kwargs)


def replica_may_serve(handler: Callable[..., T]) -> Callable[..., T]:
    """Decorate a view's handler `(self, request, game_id, ...)` that reads one game:
    `read_game` around the whole of it."""

    @functools.wraps(handler)
    def wrapper(self, request, game_id: int, *args: Any, **kwargs: Any) -> T:
        return read_game(game_id, request.user, handler, self, request, game_id, *args, **kwargs)

    return wrapper
