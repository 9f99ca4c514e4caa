"""The notifications follow the games' logs (games.core.followers): registered when the app
loads, caught up after each COMMIT by `runner.derive`, swept by `derive.behind`."""

from games.core import followers
from games.notifications import derive, runner

FOLLOWER = followers.Follower(name=derive.FOLLOWER, follow=runner.derive, behind=derive.behind)


def register() -> None:
    followers.register(FOLLOWER)
