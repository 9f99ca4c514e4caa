"""Finished games and wins per player (`PlayerStats`): a projection over many games' logs, so it
follows them (games.core.followers) instead of being written by the command that ends a game."""

from __future__ import annotations

from django.db.models import F

from games.core import followers
from games.core.event_store import Logged
from games.core.models import FollowerCursor, Game
from games.engine import events as ev
from games.table.models import PlayerSeat, PlayerStats

NAME = "stats"


def handle(game_id: int, _before, rows: list[Logged]) -> int:
    ended = [row for row in rows if row.type == ev.GAME_ENDED]
    for row in ended:
        _count_game(game_id, set(row.data["winners"]))
    return len(ended)


def _count_game(game_id: int, winners: set[int]) -> None:
    for seat in PlayerSeat.objects.filter(game_id=game_id):
        PlayerStats.objects.get_or_create(user_id=seat.user_id)
        PlayerStats.objects.filter(user_id=seat.user_id).update(
            games=F("games") + 1, wins=F("wins") + (1 if seat.seat in winners else 0)
        )


def rebuild() -> int:
    """Every player's stats counted again from every game's log."""
    PlayerStats.objects.all().delete()
    FollowerCursor.objects.filter(follower=NAME).delete()
    ids = Game.objects.order_by("pk").values_list("pk", flat=True)
    return sum(FOLLOWER.follow(game_id) for game_id in ids)


FOLLOWER = followers.Follower(name=NAME, handle=handle, wants=frozenset({ev.GAME_ENDED}),
                              rebuild=rebuild)  # fmt: skip


def follow(game_id: int) -> int:
    """This game's stats alone (an imported game: no one is notified of an old game)."""
    return FOLLOWER.follow(game_id)


def register() -> None:
    followers.register(FOLLOWER)
