"""The notifications follow the games' logs (games.core.followers): registered when the app
loads, caught up after each COMMIT by `runner.handle` (in the followers' transaction) and
`runner.after` (pushes and mails, once it committed), swept by `derive.behind`."""

from games.core import followers
from games.notifications import derive, runner

FOLLOWER = followers.Follower(name=derive.FOLLOWER, handle=runner.handle, after=runner.after,
                              behind=derive.behind)  # fmt: skip


def register() -> None:
    followers.register(FOLLOWER)
