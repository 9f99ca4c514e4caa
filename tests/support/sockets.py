"""A rigged three-seat table and websockets to it through the whole ASGI stack (origin check,
token auth, the consumer, channels_redis): what the live, table, chat and overload tests share.
The `table` and `sockets` fixtures (tests/django_fixtures.py) are built from these."""

from __future__ import annotations

from dataclasses import dataclass

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from sejmi.asgi import application

TIMEOUT = 5  # seconds a frame may take to arrive
QUIET = 0.3  # how long a socket must stay silent when nothing is due
HANDS = [["C25", "C26", "C29"], ["C30", "C33", "C01"], ["C02", "C03", "C04"]]
DECK = ["C10", "C11", "C12"]  # seat 0 draws C10 at the end of the first turn
OPTIONS = {
    "block_window_s": 3600,
    "turn_deadline_s": 86_400,  # no deadline fires mid-test
    "spectator_delay": 0,
}  # spectators watch live here (delays: test_spectator_delay)
PLAY = {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1}  # LOSE_1 on 1
PASS = {"type": "pass"}


@dataclass
class Table:
    """A rigged three-seat game, started, seat 0 on turn (R2 skipped by `first`)."""

    gid: int
    seats: list[APIClient]
    tokens: list[str]
    spectator: APIClient

    def client(self, seat: int | None) -> APIClient:
        return self.spectator if seat is None else self.seats[seat]

    def token(self, seat: int | None) -> str | None:
        return None if seat is None else self.tokens[seat]


def new_table(make_player) -> Table:
    """A rigged three-seat game of new players (the `table` fixture's; SEJMI_ALLOW_RIGGED on)."""
    seats = [make_player() for _ in range(3)]
    rig = {"hands": HANDS, "deck": DECK, "first": 0}
    created = seats[0].post("/api/games/", {"seats": 3, "options": OPTIONS, "rig": rig},
                            format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, client in enumerate(seats):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    tokens = [Token.objects.get(user__username=c.username).key for c in seats]
    return Table(gid, seats, tokens, APIClient())


def communicator(gid: int, token: str | None = None, headers=None) -> WebsocketCommunicator:
    path = f"/ws/games/{gid}/" + (f"?token={token}" if token else "")
    headers = [(b"origin", b"http://localhost")] if headers is None else headers
    return WebsocketCommunicator(application, path, headers=headers)


async def change(sock: WebsocketCommunicator) -> tuple[list[dict], dict]:
    """The frames of one change: its events, then the view that closes it."""
    events = []
    while True:
        frame = await sock.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "view":
            return events, frame["view"]
        assert frame["type"] == "event", frame
        events.append(frame["event"])


async def command(table: Table, seat: int, body: dict, *, expected: int = 200) -> dict:
    view = await rest(table, seat, f"/api/games/{table.gid}/")
    answer = await sync_to_async(table.seats[seat].post)(
        f"/api/games/{table.gid}/commands/", {"expected_seq": view["seq"], **body}, format="json"
    )
    assert answer.status_code == expected, answer.content
    return answer.json()


async def rest(table: Table, seat: int | None, path: str) -> dict:
    answer = await sync_to_async(table.client(seat).get)(path)
    assert answer.status_code == 200, answer.content
    return answer.json()


async def rest_events(table: Table, seat: int | None, after: int = 0) -> list[dict]:
    path = f"/api/games/{table.gid}/events/?after={after}"
    return (await rest(table, seat, path))["events"]


async def send_command(sock, id_: str, body: dict) -> dict:
    """Send a command frame and return this socket's answer to it (ack or error), skipping
    the broadcast frames that may come first."""
    await sock.send_json_to({"type": "command", "id": id_, "command": body})
    while True:
        frame = await sock.receive_json_from(timeout=TIMEOUT)
        if frame["type"] in ("ack", "error"):
            return frame
