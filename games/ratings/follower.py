"""Ratings follow the games' logs (games.core.followers): a game is rated in the followers'
transaction once its `game_ended` is past the ratings' cursor, under the one rating writer's
lock (services._serialize), in the order games ended (services.game_ended rewinds a later one
rated first). Nothing of the ratings runs in a command's transaction."""

from games.core import followers
from games.engine import events as ev
from games.ratings import services

NAME = "ratings"


def handle(game_id: int, _before, _rows) -> int:
    services.game_ended(game_id)
    return 1


FOLLOWER = followers.Follower(name=NAME, handle=handle, wants=frozenset({ev.GAME_ENDED}),
                              rebuild=services.rebuild)  # fmt: skip


def register() -> None:
    followers.register(FOLLOWER)
