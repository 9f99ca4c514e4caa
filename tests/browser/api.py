"""The suite's side door: players and games made over the public REST API (API.md), with a
token, so that a test spends its browser time on what it checks."""

from __future__ import annotations

import itertools
import os
import random
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

PASSWORD = "cards-on-the-table-42"
CARD_ID = re.compile(r"\bC\d\d\b")
_numbers = itertools.count(1)


def card_ids(value: Any) -> set[str]:
    """Every card id anywhere in a JSON value or a text."""
    if isinstance(value, str):
        return set(CARD_ID.findall(value))
    if isinstance(value, dict):
        return set().union(set(), *(card_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(card_ids(v) for v in value))
    return set()


@dataclass
class Player:
    """A registered user with a token client on the live service."""

    base: str
    username: str
    token: str
    http: httpx.Client = field(repr=False)

    def get(self, path: str, **params: Any) -> Any:
        answer = self.http.get(path, params=params)
        assert answer.status_code == 200, (path, answer.status_code, answer.text)
        return answer.json()

    def post(self, path: str, body: Any, status: int = 200, **headers: str) -> Any:
        answer = self.http.post(path, json=body, headers=headers)
        assert answer.status_code == status, (path, answer.status_code, answer.text)
        return answer.json()

    def view(self, gid: int) -> dict[str, Any]:
        return self.get(f"/api/games/{gid}/")

    def join(self, gid: int, seat: int | None = None) -> dict[str, Any]:
        return self.post(f"/api/games/{gid}/join/", {"seat": seat})

    def command(self, gid: int, body: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        """Send one command with expected_seq = `seq` (default: the current view's)."""
        if seq is None:
            seq = self.view(gid)["seq"]
        return self.post(
            f"/api/games/{gid}/commands/",
            {"expected_seq": seq, **body},
            **{"Idempotency-Key": uuid.uuid4().hex},
        )

    def create_game(
        self, seats: int, *, variant: str = "standard", rig: dict | None = None, **options: Any
    ) -> int:
        """A new game's id. Spectators see it live (spectator_delay 0: API.md, Correspondence)
        unless `spectator_delay` is given."""
        body: dict[str, Any] = {
            "seats": seats,
            "variant": variant,
            "options": {"spectator_delay": 0, **options},
        }
        if rig is not None:
            body["rig"] = rig
        answer = self.http.post("/api/games/", json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()["id"]


def register(base: str, stem: str = "p") -> Player:
    """A new user (username unique per run and process) and its token."""
    username = f"{stem}{next(_numbers)}x{os.getpid() % 10000}"
    http = httpx.Client(base_url=base, timeout=15)
    answer = http.post("/api/auth/register/", json={"username": username, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    token = answer.json()["token"]
    http.headers["Authorization"] = f"Token {token}"
    return Player(base, username, token, http)


def page_session(player: Player, **headers: str) -> httpx.Client:
    """A cookie client logged in through the /login/ form as a browser is (session and CSRF
    cookies), for the server-rendered pages; `headers` go with every request (Accept-Language)."""
    http = httpx.Client(base_url=player.base, timeout=15, headers=headers)
    assert http.get("/login/").status_code == 200
    form = {"username": player.username, "password": PASSWORD,
            "csrfmiddlewaretoken": http.cookies["csrftoken"]}  # fmt: skip
    answer = http.post("/login/", data=form)
    assert answer.status_code == 302, (answer.status_code, answer.text[-2000:])
    return http


def public(base: str, path: str, **params: Any) -> Any:
    """An anonymous GET: what a spectator may see."""
    answer = httpx.get(f"{base}{path}", params=params, timeout=15)
    assert answer.status_code == 200, (path, answer.status_code, answer.text)
    return answer.json()


def wait_until(check, timeout: float = 10, what: str = "condition", every: float = 0.05) -> Any:
    """Poll `check()` until it returns something truthy; that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


def settled(player: Player, gid: int, check, timeout: float = 10) -> int:
    """Wait until the game, as `player` sees it, passes `check(view)`; its seq then."""

    def reached():
        view = player.view(gid)
        return view if check(view) else None

    return wait_until(reached, timeout, "the game to reach the next step")["seq"]


def play_out(gid: int, players: list[Player], rnd: random.Random, timeout: float = 60) -> dict:
    """Random legal commands from every seated player until the game ends (bots and the
    in-process runner do the rest); the last view of players[0]."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        acted = False
        for player in players:
            view = player.view(gid)
            if view["status"] == "ended":
                return view
            if view["legal"]:
                answer = player.http.post(
                    f"/api/games/{gid}/commands/",
                    json={"expected_seq": view["seq"], **rnd.choice(view["legal"])},
                )
                assert answer.status_code in (200, 409), answer.text  # 409: a bot was first
                acted = True
        if not acted:
            time.sleep(0.05)
    raise AssertionError(f"game {gid} did not end within {timeout} s")
