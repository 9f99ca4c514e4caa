"""Helpers of the page tests: users, logged-in Django test clients, and games made through
the public API (the same requests the pages' scripts send)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from games.clock import tasks

PASSWORD = "s3cret-pass-1"


def make_user(name: str, **extra: Any):
    return get_user_model().objects.create_user(name, password=PASSWORD, **extra)


def logged_in(name: str, **headers: str) -> Client:
    client = Client(**headers)
    client.force_login(make_user(name))
    return client


def api(client: Client, path: str, body: Any = None):
    return client.post(path, body if body is not None else {}, content_type="application/json")


def new_game(client: Client, seats: int = 2, variant: str = "standard", *, rig: dict | None = None,
             **options: Any) -> int:  # fmt: skip
    """A game created over the API (`rig` needs settings.SEJMI_ALLOW_RIGGED)."""
    body: dict[str, Any] = {"seats": seats, "variant": variant, "options": options}
    if rig is not None:
        body["rig"] = rig
    answer = api(client, "/api/games/", body)
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def join(client: Client, gid: int, seat: int | None = None) -> dict:
    answer = api(client, f"/api/games/{gid}/join/", {} if seat is None else {"seat": seat})
    assert answer.status_code == 200, answer.content
    return answer.json()


def bot_game(client: Client, **options: Any) -> int:
    """A two-seat game with `client` in seat 0 and the bot in seat 1; it starts at once."""
    gid = new_game(client, 2, bots=[1], **options)
    assert join(client, gid, 0)["you"] == 0
    return gid


def play_to_end(client: Client, gid: int) -> dict:
    """`client` plays its first legal command each time; the bot answers through the sweeper."""
    for _ in range(2000):
        while tasks.sweep():
            pass
        view = client.get(f"/api/games/{gid}/").json()
        if view["status"] == "ended":
            return view
        if view["legal"]:
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            answer = api(client, f"/api/games/{gid}/commands/", body)
            assert answer.status_code == 200, answer.content
    raise AssertionError(f"game {gid} did not end")


def game_ids(html: str, section: str) -> list[int]:
    """The data-game ids listed inside the element with id `section`, in page order."""
    start = html.index(f'id="{section}"')
    end = html.find("</section>", start)
    part = html[start:] if end == -1 else html[start:end]
    return [int(x) for x in re.findall(r'data-game="(\d+)"', part)]
