"""Fixtures for the tournaments' tests: players over the REST API only, and a driver that plays
every game of a round by the players' own commands (the first legal command of each awaited
player), so the follower pairs the next round."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from rest_framework.test import APIClient

_names = itertools.count()


def register(name: str | None = None):
    from rest_framework.test import APIClient  # Django's settings first (pytest-django)

    client = APIClient()
    name = name or f"tp{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username = name  # type: ignore[attr-defined]
    # The player's own standing order: he passes every block window at once (issue 10), so a
    # game takes a command per turn, not one per player asked.
    order = client.put("/api/me/standing-order/", {"block": "never"}, format="json")
    assert order.status_code == 200, order.content
    return client


@pytest.fixture
def make_player(db):
    return register


def play_game(clients: dict[str, APIClient], game_id: int, max_commands: int = 4000,
              absent: frozenset[str] = frozenset()) -> dict:  # fmt: skip
    """Each awaited player sends the first of his legal commands until the game ends. An
    `absent` player never acts: his deadlines pass (the service's R21 timeout, as the deadline
    runner would apply it), and a seat the bot plays is moved by the service's bot step."""
    from games.table import commands

    url = f"/api/games/{game_id}/"
    view = next(iter(clients.values())).get(url).json()
    any_client = clients[view["players"][0]["username"]]  # a player: spectators lag behind
    view = any_client.get(url).json()
    for _ in range(max_commands):
        if view["status"] == "ended":
            return view
        waiting = [view["players"][s] for s in view["awaiting"]]
        if any(p["away"] == "bot" for p in waiting):
            commands.game_bot_moves(game_id=game_id, expected_seq=view["seq"])
            view = any_client.get(url).json()
            continue
        if any(p["username"] in absent for p in waiting):
            commands.game_timeout(game_id=game_id, expected_seq=view["seq"])
            view = any_client.get(url).json()
            continue
        for seat in view["awaiting"]:
            name = view["players"][seat]["username"]
            mine = clients[name].get(url).json()
            if mine["legal"]:
                body = {"expected_seq": mine["seq"], **mine["legal"][0]}
                answer = clients[name].post(url + "commands/", body, format="json")
                assert answer.status_code == 200, answer.content
                view = answer.json()["view"]
                break
        else:
            view = any_client.get(url).json()
            assert view["status"] == "ended", f"nobody may act: {view}"
    raise AssertionError(f"game {game_id} did not end")


def play_round(clients: dict[str, APIClient], tid: int) -> dict[str, Any]:
    """Play every running game of the tournament's current round; returns the view after."""
    view = clients_any(clients).get(f"/api/tournaments/{tid}/").json()
    current = view["rounds"][-1]
    for table in current["tables"]:
        if table["points"] is None:
            play_game(clients, table["game"])
    return clients_any(clients).get(f"/api/tournaments/{tid}/").json()


def clients_any(clients: dict[str, APIClient]) -> APIClient:
    return next(iter(clients.values()))


@pytest.fixture
def players_game():
    return play_game


@pytest.fixture
def players_round():
    return play_round
