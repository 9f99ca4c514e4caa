"""REST helpers of the deadline and bot tests (games.clock): games started over the API, commands
at the current seq, and polling until the worker or the runner has acted."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.utils import timezone

NO_GREEN = ["C33", "C34", "C35", "C36", "C37", "C38", "C39", "C40"]  # these cannot block green
WAIT_S = 15.0


def wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Poll `check` until it returns something truthy; fail after `timeout` seconds."""
    give_up = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < give_up, f"waited {timeout} s for {what}"
        time.sleep(0.05)


def start_game(creator, others=(), *, seats: int, options: dict, rig: dict | None = None) -> int:
    """Create a game as `creator`, who takes seat 0; `others` take the next free seats."""
    body = {"seats": seats, "options": options, **({"rig": rig} if rig else {})}
    created = creator.post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for client in (creator, *others):
        joined = client.post(f"/api/games/{gid}/join/", {}, format="json")
        assert joined.status_code == 200, joined.content
    return gid


def view(client, gid: int) -> dict:
    return client.get(f"/api/games/{gid}/").json()


def send(client, gid: int, **command) -> dict:
    """Send a command at the game's current seq; the answer's view."""
    body = {"expected_seq": view(client, gid)["seq"], **command}
    answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["view"]


def events(client, gid: int) -> list[dict]:
    return client.get(f"/api/games/{gid}/events/").json()["events"]


def after_first(client, gid: int, type_: str) -> list[dict] | None:
    """The events from the first one of `type_` on, or None while there is none."""
    log = events(client, gid)
    starts = [i for i, e in enumerate(log) if e["type"] == type_]
    return log[starts[0] :] if starts else None


def wait_for_event(client, gid: int, type_: str) -> list[dict]:
    return wait_for(lambda: after_first(client, gid, type_), f"a {type_} event")


def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def wait_until_past(moment: str) -> None:
    wait_for(lambda: timezone.now() > at(moment), f"the deadline {moment} to pass")


# A rigged deck (catalog order, no dice) makes these games short and the same on every run:
# heuristic bots with a random deal can heal each other for thousands of turns.
SHORT_GAME = {"deck": [], "first": 0}
