"""Bot clients for the REST API tests: every seat is a registered user who plays over HTTP
only, choosing among the `legal` bodies its own view offers (API.md, View)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

from games.core.models import GameEvent
from games.engine import Join, execute, fold, new_game, parse_command
from games.engine import events as ev

CARD_ID = re.compile(r"^C\d\d$")


@dataclass
class Table:
    """A game over HTTP: its id, one client per seat, and every command that landed."""

    gid: int
    seats: list[APIClient]
    sent: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def url(self, tail: str = "") -> str:
        return f"/api/games/{self.gid}/{tail}"


def open_table(make_player, seats: int = 2, variant: str = "standard", *,
               options: dict | None = None, rig: dict | None = None) -> Table:  # fmt: skip
    """Seat 0 creates the game, then seat by seat every player joins (the last join starts it)."""
    clients = [make_player() for _ in range(seats)]
    body: dict[str, Any] = {"seats": seats, "variant": variant}
    if options is not None:
        body["options"] = options
    if rig is not None:
        body["rig"] = rig
    created = clients[0].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    table = Table(created.json()["id"], clients)
    for seat, client in enumerate(clients):
        joined = client.post(table.url("join/"), {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return table


def send(client: APIClient, gid: int, body: Any, *, key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(f"/api/games/{gid}/commands/", body, format="json", **headers)


def event_count(gid: int) -> int:
    return GameEvent.objects.filter(game_id=gid).count()


def step(table: Table, rnd: random.Random, view: dict | None = None) -> dict | None:
    """One command, chosen at random from the `legal` list of a seat that may act. Returns
    the view that came with the answer, or None when the game has ended."""
    view = view or table.seats[0].get(table.url()).json()
    if view["status"] == "ended":
        return None
    for seat in view["awaiting"]:  # R19: those asked stay listed; who passed has no legal
        mine = table.seats[seat].get(table.url()).json()
        if mine["legal"]:
            body = {"expected_seq": mine["seq"], **rnd.choice(mine["legal"])}
            answer = send(table.seats[seat], table.gid, body)
            assert answer.status_code == 200, answer.content
            table.sent.append((seat, body))
            return answer.json()["view"]
    raise AssertionError(f"nobody may act: {view}")


def play_to_end(table: Table, rnd: random.Random, max_commands: int = 5000) -> dict:
    """Random legal commands until the game ends; returns seat 0's final view."""
    view = None
    for _ in range(max_commands):
        view = step(table, rnd, view)
        if view is None:
            return table.seats[0].get(table.url()).json()
    raise AssertionError(f"game {table.gid} did not end in {max_commands} commands")


def engine_events(events: list[dict], sent: list[tuple[int, dict]]) -> list[tuple[str, dict]]:
    """What the engine alone makes of the same game: the settings of its first event, the seed
    revealed in its last (R22), the joins in order, then every command that was sent."""
    created, ended = events[0], events[-1]
    assert created["type"] == ev.GAME_CREATED and ended["type"] == ev.GAME_ENDED
    seed = bytes.fromhex(ended["data"]["seed"])
    d = created["data"]
    out = new_game(seats=d["seats"], seed=seed, variant=d["variant"], options=d["options"],
                   rig=d["rig"])  # fmt: skip
    state = fold(out)
    joins = [e["data"] for e in events if e["type"] == ev.SEAT_TAKEN and not e["data"]["bot"]]
    commands = [(None, Join(j["name"], j["seat"])) for j in joins]
    commands += [(seat, parse_command({k: v for k, v in body.items() if k != "expected_seq"}))
                 for seat, body in sent]  # fmt: skip
    for seat, command in commands:
        new, state = execute(state, command, actor=seat, seed=seed)
        out += new
    return [(e.type, e.data) for e in out]


def card_ids(value: Any) -> set[str]:
    """Every card id anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD_ID.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(card_ids(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_ids(v) for v in value)) if value else set()
    return set()


def assert_error(response, status: int, code: str) -> None:
    """API.md: a 4xx with exactly `{"error": {"code", "message"}}`."""
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body


def a_legal_command(gid: int, seats: list[APIClient]) -> tuple[APIClient, dict]:
    """Some seat that may act, and one of its legal bodies (with expected_seq)."""
    for client in seats:
        view = client.get(f"/api/games/{gid}/").json()
        if view["legal"]:
            return client, {"expected_seq": view["seq"], **view["legal"][0]}
    raise AssertionError("nobody may act")
