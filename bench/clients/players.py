"""What the HTTP benchmarks share: bench users with tokens, a game with every seat a client."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class Player:
    username: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}"}


def make_players(count: int, prefix: str) -> list[Player]:
    """Users with DRF tokens, made with the ORM: registering over HTTP would spend a PBKDF2
    hash (about half a second of CPU) per user before anything is measured."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    users = get_user_model().objects
    out = []
    for _ in range(count):
        user = users.create(username=f"{prefix}-{uuid.uuid4().hex[:12]}", password="!")
        out.append(Player(user.username, Token.objects.create(user=user).key))
    return out


async def new_game(http: httpx.AsyncClient, seats: list[Player],
                   options: dict | None = None) -> tuple[int, dict]:  # fmt: skip
    """Seat 0 creates the game and every player joins over HTTP; returns (id, last view)."""
    body = {"seats": len(seats), **({"options": options} if options else {})}
    errors: Counter = Counter()  # a keep-alive connection the server closed: tried again
    _, answer = await timed(http, "POST", "/api/games/", errors, json=body,
                            headers=seats[0].headers)  # fmt: skip
    answer.raise_for_status()
    game = answer.json()["id"]
    for player in seats:
        _, joined = await timed(http, "POST", f"/api/games/{game}/join/", errors, json={},
                                headers=player.headers)  # fmt: skip
        joined.raise_for_status()
    return game, joined.json()


def choose(view: dict, rnd: random.Random) -> dict:
    """A legal command body for this view, with the seq it was read at."""
    if not view["legal"]:
        raise RuntimeError(f"nothing legal in {view}")
    return {"expected_seq": view["seq"], **rnd.choice(view["legal"])}


def client(base: str, connections: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(base_url=base, limits=limits, timeout=30)


BUSY_RETRIES = 3  # 503 `unavailable` answers retried after their Retry-After (docs/PRODUCTION.md)


async def timed(http: httpx.AsyncClient, method: str, url: str, errors: Counter,
                **kwargs) -> tuple[float, httpx.Response]:  # fmt: skip
    """(ms, answer), timed from the first try. One retry when the server closed a keep-alive
    connection under the request: safe for a GET, and a command carries its Idempotency-Key.
    A 503 `unavailable` (the service is overloaded) is retried after its Retry-After, as the
    docs/PRODUCTION.md tells clients to, up to BUSY_RETRIES times; each retry is counted."""
    started = time.perf_counter()
    try:
        answer = await http.request(method, url, **kwargs)
    except httpx.TransportError as err:
        errors[f"retried after {type(err).__name__}"] += 1
        answer = await http.request(method, url, **kwargs)
    for _ in range(BUSY_RETRIES):
        if answer.status_code != 503 or "Retry-After" not in answer.headers:
            break
        errors["retried after 503 unavailable"] += 1
        await asyncio.sleep(float(answer.headers["Retry-After"]))
        answer = await http.request(method, url, **kwargs)
    return (time.perf_counter() - started) * 1000, answer
