"""A rigged four-seat block window for the R19 and deadline tests (REST only; no fixtures here).

Seat 0 is the Kostič and plays LOSE_1 (green) on seat 1; seats 1, 2 and 3 are asked (R19).
Seats 1 and 2 hold green cards and may block; seat 3 holds none. Every seat keeps three cards,
so a block is never a last card. Any seat may be a bot (`bots`); the others are players who
registered over the API.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from sejmi.asgi import application
from tests.support.players import register

HANDS = [["C25", "C29", "C30"], ["C26", "C27", "C28"], ["C31", "C32", "C20"],
         ["C33", "C34", "C35"]]  # fmt: skip
PLAY = {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1}  # LOSE_1 on 1
PASS = {"type": "pass"}
BLOCK = {"type": "block", "card": "C31"}  # seat 2's green card
# No deadline fires by itself; the spectator watches live (R19 is about the present).
OPTIONS = {"block_window_s": 3600, "turn_deadline_s": 86_400, "spectator_delay": 0}

_names = itertools.count()


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


# --- what the watchers receive (the R19 tests by inference) ---------------------------------

QUIET = 0.4  # seconds a socket must stay silent before we say nothing more is coming
TIMEOUT = 5
WATCHERS = (2, 3, 0, None)  # seat 2 (asked), seat 3 (asked), the Kostič, a spectator
HIDDEN_KEYS = {"at", "deadline", "id", "seed_commitment"}  # differ from game to game
# A signed head's hash, key and signature differ from game to game too; its seq must not (a
# sealed pass appends nothing, so no new head tells of it: R19).
SIGNED_HEAD_KEPT = {"seq"}


def normalised(value: Any) -> Any:
    """A payload without what differs between two games (ids, times, seeds, user names)."""
    if isinstance(value, dict):
        return {k: normalised({h: v[h] for h in SIGNED_HEAD_KEPT} if k == "signed_head" and v
                              else v)
                for k, v in value.items() if k not in HIDDEN_KEYS}  # fmt: skip
    if isinstance(value, list):
        return [normalised(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"^r19_\d+_", "r19_", value)
    return value


async def drain(sock: WebsocketCommunicator) -> list[dict]:
    """Every frame that arrives until the socket has been silent for QUIET seconds."""
    frames = []
    while not await sock.receive_nothing(timeout=QUIET):
        frames.append(await sock.receive_json_from(timeout=TIMEOUT))
    return frames


async def open_socket(window, seat: int | None) -> WebsocketCommunicator:
    query = ""
    if seat is not None:
        user = await sync_to_async(window.user)(seat)
        query = f"?token={(await sync_to_async(Token.objects.get)(user=user)).key}"
    sock = WebsocketCommunicator(application, f"/ws/games/{window.gid}/{query}",
                                 headers=[(b"origin", b"http://localhost")])  # fmt: skip
    connected, code = await sock.connect(timeout=TIMEOUT)
    assert connected, code
    return sock


async def seen(window, sockets: dict) -> dict:
    """What every watcher has received since the last look: frames, and its REST reads."""
    out = {}
    for seat, sock in sockets.items():
        out[seat] = {"frames": await drain(sock),
                     "view": await sync_to_async(window.view)(seat),
                     "events": await sync_to_async(window.events)(seat)}  # fmt: skip
    return normalised(out)
