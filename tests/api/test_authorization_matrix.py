"""The authorization matrix (issue 9): every route of the OpenAPI schema × every role × every
state of a game, with the expected status of each cell written down below. A route the schema
gains without a row here fails the test; no cell answers 500; a refusal leaves every game's
event log exactly as it was."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.core.models import GameEvent
from games.engine.errors import Code

ROLES = ("anonymous", "bad_token", "stranger", "seat0", "seat1", "staff")
STATES = ("lobby", "active", "ended", "missing")  # "missing": a game id that does not exist
MISSING_ID = 987_654_321

# One row per operation: per state, the status each role gets, in the order of ROLES.
# "*" stands for every state. In the lobby only seat 0 has joined (seat 1's player is still a
# stranger there); in the active game seat 0 is the Kostič and sends a legal play.
EVERYONE_READS = {"*": "200 401 200 200 200 200", "missing": "404 401 404 404 404 404"}
EXPECTED: dict[tuple[str, str], dict[str, str]] = {
    ("POST", "/api/auth/register/"): {"*": "201 401 201 201 201 201"},
    ("POST", "/api/auth/token/"): {"*": "200 401 200 200 200 200"},
    ("POST", "/api/ws-ticket/"): {"*": "401 401 200 200 200 200"},  # any account, no game
    ("GET", "/api/games/"): {"*": "200 401 200 200 200 200"},
    ("POST", "/api/games/"): {"*": "401 401 201 201 201 201"},
    ("GET", "/api/replays/"): {"*": "200 401 200 200 200 200"},
    ("GET", "/api/signing-key/"): {"*": "200 401 200 200 200 200"},  # public: check by it
    ("GET", "/api/disputes/"): {"*": "401 401 200 200 200 200"},
    # a dispute seat 0 opened: his and the staff's to read, nobody else's to know of
    ("GET", "/api/disputes/{dispute_id}/"): {"*": "401 401 404 200 404 200",
                                             "missing": "401 401 404 404 404 404"},
    ("GET", "/api/games/{game_id}/"): EVERYONE_READS,
    ("GET", "/api/games/{game_id}/events/"): EVERYONE_READS,
    ("GET", "/api/games/{game_id}/replay/"): EVERYONE_READS,
    ("GET", "/api/games/{game_id}/markers/"): EVERYONE_READS,
    ("GET", "/api/games/{game_id}/transcript/"): EVERYONE_READS,
    # the audit and the export open at the end (R22, R23), for staff at any time
    ("GET", "/api/games/{game_id}/audit/"): {"*": "403 401 403 403 403 200",
                                            "ended": "200 401 200 200 200 200",
                                            "missing": "404 401 404 404 404 404"},
    ("GET", "/api/games/{game_id}/export/"): {"*": "403 401 403 403 403 200",
                                             "ended": "200 401 200 200 200 200",
                                             "missing": "404 401 404 404 404 404"},
    ("POST", "/api/games/{game_id}/join/"): {"lobby": "401 401 200 409 200 200",
                                            "active": "401 401 409 409 409 409",
                                            "ended": "401 401 409 409 409 409",
                                            "missing": "401 401 404 404 404 404"},
    # who may act comes before which seq (issue 21): anyone without a seat is forbidden
    ("POST", "/api/games/{game_id}/commands/"): {"lobby": "401 401 403 409 403 403",
                                                "active": "401 401 403 200 409 403",
                                                "ended": "401 401 403 409 409 403",
                                                "missing": "401 401 404 404 404 404"},
    # notifications and mail preferences: the caller's own, in any state of any game
    ("GET", "/api/notifications/"): {"*": "401 401 200 200 200 200"},
    ("POST", "/api/notifications/read/"): {"*": "401 401 200 200 200 200"},
    ("GET", "/api/me/preferences/"): {"*": "401 401 200 200 200 200"},
    ("PUT", "/api/me/preferences/"): {"*": "401 401 200 200 200 200"},
    # Web Push (issue 28): the key is public; subscriptions are the caller's own (the probe
    # sends no subscription: 400 `invalid` once signed in)
    ("GET", "/api/push/key/"): {"*": "200 401 200 200 200 200"},
    ("GET", "/api/me/push-subscriptions/"): {"*": "401 401 200 200 200 200"},
    ("POST", "/api/me/push-subscriptions/"): {"*": "401 401 400 400 400 400"},
    ("DELETE", "/api/me/push-subscriptions/"): {"*": "401 401 400 400 400 400"},
    # the table's chat (games/chat/rules.py): everyone reads; the players write, from the lobby on
    ("GET", "/api/games/{game_id}/chat/"): EVERYONE_READS,
    ("POST", "/api/games/{game_id}/chat/"): {"lobby": "401 401 403 201 403 403",
                                             "*": "401 401 403 201 201 403",
                                             "missing": "401 401 404 404 404 404"},
    # staff hide a message: the probe names none, so staff get 400 (anyone else 403)
    ("POST", "/api/games/{game_id}/chat/hide/"): {"*": "401 401 403 403 403 400",
                                                  "missing": "401 401 404 404 404 404"},
    ("POST", "/api/games/{game_id}/disputes/"): {"lobby": "401 401 403 201 403 403",
                                                "*": "401 401 403 201 201 403",
                                                "missing": "401 401 404 404 404 404"},
    # standing orders (issue 10): a seated player's own, and anyone's default
    ("GET", "/api/games/{game_id}/standing-order/"): {"lobby": "401 401 403 200 403 403",
                                                     "*": "401 401 403 200 200 403",
                                                     "missing": "401 401 404 404 404 404"},
    ("PUT", "/api/games/{game_id}/standing-order/"): {"lobby": "401 401 403 200 403 403",
                                                     "active": "401 401 403 200 200 403",
                                                     "ended": "401 401 403 409 409 403",
                                                     "missing": "401 401 404 404 404 404"},
    ("GET", "/api/me/standing-order/"): {"*": "401 401 200 200 200 200"},
    ("PUT", "/api/me/standing-order/"): {"*": "401 401 200 200 200 200"},
    # away from a seat: only a seated player leaves (a running game) or takes his seat back
    ("POST", "/api/games/{game_id}/leave/"): {"lobby": "401 401 403 400 403 403",
                                             "active": "401 401 403 200 200 403",
                                             "ended": "401 401 403 409 409 403",
                                             "missing": "401 401 404 404 404 404"},
    ("POST", "/api/games/{game_id}/return/"): {"lobby": "401 401 403 400 403 403",
                                              "active": "401 401 403 400 400 403",
                                              "ended": "401 401 403 409 409 403",
                                              "missing": "401 401 404 404 404 404"},
    # a vacation is any account's own; the probe's body ({}) names no days
    ("GET", "/api/me/vacation/"): {"*": "401 401 200 200 200 200"},
    ("POST", "/api/me/vacation/"): {"*": "401 401 400 400 400 400"},
    ("DELETE", "/api/me/vacation/"): {"*": "401 401 400 400 400 400"},
    # ratings: public; "missing" asks for a username nobody has
    ("GET", "/api/players/{username}/"): EVERYONE_READS,
    ("GET", "/api/leaderboard/"): {"*": "200 401 200 200 200 200"},
    # play on from a moment (issue 30): forks of an ended game only (409 game_not_over while it
    # runs, for everyone); the probe's body ({}) names no moment, so 400 at the end
    ("GET", "/api/games/{game_id}/forks/"): EVERYONE_READS,
    ("POST", "/api/games/{game_id}/forks/"): {"*": "401 401 409 409 409 409",
                                             "ended": "401 401 400 400 400 400",
                                             "missing": "401 401 404 404 404 404"},
    # notes: each caller's own (and the public ones after the end); the probe's body is empty
    ("GET", "/api/games/{game_id}/notes/"): EVERYONE_READS,
    ("POST", "/api/games/{game_id}/notes/"): {"*": "401 401 400 400 400 400",
                                             "missing": "401 401 404 404 404 404"},
    # staff hide a public note, as a chat message: the probe's body gives no reason (400)
    ("POST", "/api/games/{game_id}/notes/{note_id}/hide/"): {"*": "401 401 403 403 403 400"},
    # odds: of an ended game, computed in the background (202 until then)
    ("GET", "/api/games/{game_id}/odds/"): {"*": "409 401 409 409 409 409",
                                           "ended": "202 401 202 202 202 202",
                                           "missing": "404 401 404 404 404 404"},
    # tournaments (issue 27): public to read; the probe names one nobody has, and its body ({})
    # no settings
    ("GET", "/api/tournaments/"): {"*": "200 401 200 200 200 200"},
    ("POST", "/api/tournaments/"): {"*": "401 401 400 400 400 400"},
    ("GET", "/api/tournaments/{tournament_id}/"): {"*": "404 401 404 404 404 404"},
    ("GET", "/api/tournaments/{tournament_id}/events/"): {"*": "404 401 404 404 404 404"},
    ("POST", "/api/tournaments/{tournament_id}/join/"): {"*": "401 401 404 404 404 404"},
    ("POST", "/api/tournaments/{tournament_id}/leave/"): {"*": "401 401 404 404 404 404"},
    ("POST", "/api/tournaments/{tournament_id}/start/"): {"*": "401 401 404 404 404 404"},
}  # fmt: skip

# Two seats; seat 0 starts and holds C33, whose red effect (LOSE_1 on everyone) ends the game
# once seat 1 (one life, no red card to block with) passes (R17).
RIG = {"lives": [6, 1], "first": 0, "hands": [["C33", "C27", "C03"], ["C25", "C26", "C29"]]}
PLAY = {"type": "play", "card": "C33", "effect": 1, "scope": "all", "target": None}


def expected(route: tuple[str, str], state: str, role: str) -> int:
    row = EXPECTED[route]
    statuses = row.get(state, row.get("*"))
    assert statuses is not None, f"{route} has no expectation for {state}"
    return int(statuses.split()[ROLES.index(role)])


@dataclass
class World:
    """Every role's client and a game in each state, rebuilt after a cell changed it."""

    clients: dict[str, APIClient]
    make_player: Any
    games: dict[str, int] = field(default_factory=dict)
    disputes: dict[str, int] = field(default_factory=dict)

    def build(self, state: str) -> None:
        if state == "missing":
            self.games[state], self.disputes[state] = MISSING_ID, MISSING_ID
            return
        seat0, seat1 = self.clients["seat0"], self.clients["seat1"]
        options = {"block_window_s": 3600, "turn_deadline_s": 86_400}
        gid = seat0.post("/api/games/", {"seats": 2, "options": options, "rig": RIG},
                         format="json").json()["id"]  # fmt: skip
        for client in [seat0] if state == "lobby" else [seat0, seat1]:
            assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
        if state == "ended":
            for client, body in [(seat0, PLAY), (seat1, {"type": "pass"})]:
                seq = client.get(f"/api/games/{gid}/").json()["seq"]
                answer = client.post(f"/api/games/{gid}/commands/", {"expected_seq": seq, **body},
                                     format="json")  # fmt: skip
                assert answer.status_code == 200, answer.content
            assert seat0.get(f"/api/games/{gid}/").json()["status"] == "ended"
        # At seq 1: the probe below disputes the whole game, not a duplicate of this one.
        dispute = seat0.post(f"/api/games/{gid}/disputes/", {"reason": "matrix", "seq": 1},
                             format="json")  # fmt: skip
        assert dispute.status_code == 201, dispute.content
        self.games[state], self.disputes[state] = gid, dispute.json()["id"]

    def request(self, role: str, method: str, path: str, state: str):
        gid = self.games[state]
        url = path.format(game_id=gid, dispute_id=self.disputes[state],
                          username=self.username(state), note_id=MISSING_ID,
                          tournament_id=MISSING_ID)  # fmt: skip
        client = self.clients[role]
        if method == "GET":
            return client.get(url, {"at": 1, "after": 0, "lang": "en"})
        if method == "DELETE":
            return client.delete(url, self.body(path, gid), format="json")
        send = client.put if method == "PUT" else client.post
        return send(url, self.body(path, gid), format="json")

    def username(self, state: str) -> str:
        return "nobody-here" if state == "missing" else self.clients["seat0"].username

    def body(self, path: str, gid: int) -> dict:
        if path.endswith("/register/"):
            return {"username": f"newcomer{next(NEWCOMERS)}", "password": "s3cret-pass-1"}
        if path.endswith("/token/"):
            return {"username": self.clients["seat0"].username, "password": "s3cret-pass-1"}
        if path == "/api/games/":
            return {"seats": 2}
        if path.endswith("/commands/"):
            view = self.clients["staff"].get(f"/api/games/{gid}/")
            seq = view.json()["seq"] if view.status_code == 200 else 1
            return {"expected_seq": seq, **PLAY}
        if path.endswith("/disputes/"):
            return {"reason": "a probe of the matrix"}
        if path.endswith("/notifications/read/"):
            return {"all": True}
        if path.endswith("/me/preferences/"):
            return {"email_mode": "digest"}
        if path.endswith("/standing-order/"):
            return {"block": "never"}
        if path.endswith("/chat/"):
            return {"channel": "table", "text": "a probe of the matrix"}
        return {}


NEWCOMERS = itertools.count()


@pytest.fixture
def world(make_player, make_staff, rigged, no_throttles, no_celery) -> World:
    clients = {"anonymous": APIClient(), "bad_token": APIClient(), "stranger": make_player(),
               "seat0": make_player(), "seat1": make_player(), "staff": make_staff()}  # fmt: skip
    clients["bad_token"].credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    world = World(clients, make_player)
    for state in STATES:
        world.build(state)
    return world


def schema_operations(client: APIClient) -> set[tuple[str, str]]:
    schema = client.get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    return {
        (method.upper(), path)
        for path, operations in schema.json()["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    }


def log_snapshot() -> tuple[int, str | None]:
    last = GameEvent.objects.order_by("-id").values_list("hash", flat=True).first()
    return GameEvent.objects.count(), last


@pytest.mark.django_db
def test_every_route_of_the_schema_has_a_row_in_the_matrix(client):
    operations = schema_operations(APIClient())
    assert operations == set(EXPECTED), {
        "routes without a row": sorted(operations - set(EXPECTED)),
        "rows without a route": sorted(set(EXPECTED) - operations),
    }


@pytest.mark.django_db
def test_every_route_role_and_state_answers_as_the_matrix_says(world, monkeypatch):
    # The matrix files a dispute per route, role and state: the caps (issue 32, 429 too_many,
    # tests/replays/test_caps.py) would answer for the routes.
    monkeypatch.setattr("replays.disputes.services.OPEN_PER_GAME", 10**6)
    monkeypatch.setattr("replays.disputes.services.OPEN_IN_ALL", 10**6)
    mismatches = []
    for (method, path), state, role in itertools.product(sorted(EXPECTED), STATES, ROLES):
        before = log_snapshot()
        answer = world.request(role, method, path, state)
        want = expected((method, path), state, role)
        cell = f"{method} {path} [{state}] as {role}"
        assert answer.status_code < 500, (cell, answer.content)
        if answer.status_code != want:
            mismatches.append(f"{cell}: {answer.status_code} (expected {want}) {answer.content!r}")
        if answer.status_code >= 400:
            error = answer.json()["error"]
            assert Code.of(error["code"]).status == answer.status_code, (cell, error)
            assert log_snapshot() == before, f"{cell} was refused but the event log changed"
        elif method == "POST" and path.startswith("/api/games/{game_id}/") and state != "missing":
            world.build(state)  # a join or a command landed: the next cell gets a fresh game
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.django_db
def test_methods_no_route_declares_are_refused_and_change_nothing(world):
    for (_, path), method in itertools.product(sorted(EXPECTED), ("GET", "POST", "PUT", "PATCH",
                                                                  "DELETE")):  # fmt: skip
        if (method, path) in EXPECTED:
            continue
        url = path.format(game_id=world.games["active"], dispute_id=world.disputes["active"],
                          username=world.username("active"), note_id=MISSING_ID,
                          tournament_id=MISSING_ID)  # fmt: skip
        for role, allowed in (("staff", {405}), ("anonymous", {401, 405})):
            before = log_snapshot()
            answer = world.clients[role].generic(method, url, "{}", content_type="application/json")
            assert answer.status_code in allowed, (method, url, role, answer.content)
            assert answer.json()["error"]["code"] in ("method_not_allowed", "not_authenticated")
            assert log_snapshot() == before
