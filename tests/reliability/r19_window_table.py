"""A rigged four-seat block window for the R19 and deadline tests (REST only; no fixtures here).

Seat 0 is the Kostič and plays LOSE_1 (green) on seat 1; seats 1, 2 and 3 are asked (R19).
Seats 1 and 2 hold green cards and may block; seat 3 holds none. Every seat keeps three cards,
so a block is never a last card. Any seat may be a bot (`bots`); the others are players who
registered over the API.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

HANDS = [["C25", "C29", "C30"], ["C26", "C27", "C28"], ["C31", "C32", "C20"],
         ["C33", "C34", "C35"]]  # fmt: skip
PLAY = {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1}  # LOSE_1 on 1
PASS = {"type": "pass"}
BLOCK = {"type": "block", "card": "C31"}  # seat 2's green card
# No deadline fires by itself; the spectator watches live (R19 is about the present).
OPTIONS = {"block_window_s": 3600, "turn_deadline_s": 86_400, "spectator_delay": 0}

_names = itertools.count()


def register(name: str) -> APIClient:
    client = APIClient()
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username = name  # type: ignore[attr-defined]
    return client


@dataclass
class Window:
    """The game, one client per human seat (None for a bot), and a spectator's client."""

    gid: int
    seats: list[APIClient | None]
    spectator: APIClient

    def url(self, tail: str = "") -> str:
        return f"/api/games/{self.gid}/{tail}"

    def client(self, seat: int | None) -> APIClient:
        client = self.spectator if seat is None else self.seats[seat]
        assert client is not None, f"seat {seat} is a bot"
        return client

    def user(self, seat: int):
        return get_user_model().objects.get(username=self.client(seat).username)

    def view(self, seat: int | None) -> dict[str, Any]:
        answer = self.client(seat).get(self.url())
        assert answer.status_code == 200, answer.content
        return answer.json()

    def events(self, seat: int | None, after: int = 0) -> list[dict[str, Any]]:
        answer = self.client(seat).get(self.url(f"events/?after={after}"))
        assert answer.status_code == 200, answer.content
        return answer.json()["events"]

    def send(self, seat: int, body: dict, *, seq: int | None = None, key: str | None = None):
        """POST a command at `seq` (default: the seq of the sender's own view now)."""
        seq = self.view(seat)["seq"] if seq is None else seq
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
        return self.client(seat).post(self.url("commands/"), {"expected_seq": seq, **body},
                                      format="json", **headers)  # fmt: skip


def open_window_game(*, options: dict | None = None, bots: tuple[int, ...] = (),
                     hands: list[list[str]] | None = None) -> Window:  # fmt: skip
    """Create and start the rigged game (needs SEJMI_ALLOW_RIGGED). Seat 0 is on turn."""
    run = next(_names)
    seats: list[APIClient | None] = [
        None if seat in bots else register(f"r19_{run}_{seat}") for seat in range(4)
    ]
    creator = register(f"r19_{run}_host")
    rig = {"hands": hands or HANDS, "first": 0}
    body = {"seats": 4, "options": {"spectator_delay": 0, **(options or OPTIONS),
                                    "bots": list(bots)}, "rig": rig}  # fmt: skip
    created = creator.post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, client in enumerate(seats):
        if client is not None:
            joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
            assert joined.status_code == 200, joined.content
    return Window(gid, seats, APIClient())
