"""REST helpers of the notification tests: players with a mail address and mode, rigged games,
the notification list, and a barrier after which every task sent so far has run."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

WAIT_S = 20.0
_names = iter(range(10**6))


def wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    give_up = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < give_up, f"waited {timeout} s for {what}"
        time.sleep(0.05)
    return found


def player(mode: str | None = "immediate", language: str = "en") -> APIClient:
    """A registered API client; with `mode`, an address (<name>@example.test) and that mode."""
    client, name = APIClient(), f"notif{next(_names)}x{int(time.time() * 1000) % 10**6}"
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username, client.token = name, answer.json()["token"]  # type: ignore[attr-defined]
    client.address = f"{name}@example.test"  # type: ignore[attr-defined]
    if mode is not None:
        prefs = {"email": client.address, "email_mode": mode, "language": language}
        put = client.put("/api/me/preferences/", prefs, format="json")
        assert put.status_code == 200 and put.json() == {**prefs, "push": True}, put.content
    return client


def game(players: list[APIClient], *, hands=None, options=None) -> int:
    """A rigged game, every seat taken in order, seat 0 on turn first (R2 skipped)."""
    rig = {"first": 0, **({"hands": hands} if hands else {})}
    body = {"seats": len(players), "rig": rig, "options": options or {}}
    created = players[0].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, client in enumerate(players):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return gid


def listed(client: APIClient, unread: bool = False) -> dict:
    answer = client.get("/api/notifications/" + ("?unread=1" if unread else ""))
    assert answer.status_code == 200, answer.content
    return answer.json()


def kinds(client: APIClient, gid: int) -> list[str]:
    return sorted(n["kind"] for n in listed(client)["notifications"] if n["game"] == gid)


def send(client: APIClient, gid: int, command: dict) -> None:
    seq = client.get(f"/api/games/{gid}/").json()["seq"]
    answer = client.post(f"/api/games/{gid}/commands/", {"expected_seq": seq, **command},
                         format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content


def barrier(first: APIClient, second: APIClient) -> None:
    """Every task sent so far has run: the solo worker takes its queue in order, so once a new
    game's your_turn (sent after them) exists, they are done."""
    gid = game([first, second])
    wait_for(lambda: "your_turn" in kinds(first, gid), "the barrier game's your_turn")
