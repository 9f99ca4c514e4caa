"""Ratings follow the games' logs (games.core.followers): a game is rated in the follower's own
transaction once its `game_ended` is past the ratings' cursor, under the one rating writer's lock
(services._serialize), in the order games ended (services.game_ended rewinds a later one rated
first). Nothing of the ratings runs in a command's transaction."""

from games.core import followers
from games.core.models import GameEvent
from games.engine import events as ev
from games.ratings import services

NAME = "ratings"


def follow(game_id: int) -> int:
    def rate(_state, rows: list[GameEvent]) -> int:
        if not any(row.type == ev.GAME_ENDED for row in rows):
            return 0
        services.game_ended(game_id)
        return 1

    return followers.catch_up(NAME, game_id, rate, state=False) or 0


FOLLOWER = followers.Follower(name=NAME, follow=follow, rebuild=services.rebuild)


def register() -> None:
    followers.register(FOLLOWER)
