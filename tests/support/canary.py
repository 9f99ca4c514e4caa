"""The leak canary's table: one game, watched by every role over REST, and every payload kept
as a `leaks.Capture` for the checker. Humans choose from their view's `legal` list; bot seats
move through the sweeper, run here (games.tasks.sweep), so each bot batch is its own commit.

Roles over REST: each human seat (a partner, and later an eliminated player, among them), a
spectator (a player with no seat) and an anonymous client. The sockets are in `watchers.py`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.clock import tasks
from games.core.models import GameEvent, GameProjection
from tests.support.leaks import EVENTS, HISTORY, REPLAY, TEXT, VIEW, Capture, Truth

SLOW = {"block_window_s": 3600, "turn_deadline_s": 86_400}  # no deadline fires mid-game
DEEP_EVERY = 25  # commits between the heavier reads (whole log, replays, transcript, markers)
PROBE_EVERY = 10  # commits between illegal commands sent to read their error bodies
ALL_CARDS = [f"C{n:02d}" for n in range(1, 41)]


@dataclass
class Role:
    name: str
    seat: int | None  # the seat the service knows this client as
    client: APIClient
    last: int = 0  # the last seq its events list reached
    view: dict = field(default_factory=dict)  # the last view it read


@dataclass
class Canary:
    gid: int
    variant: str
    humans: dict[int, Role]
    roles: list[Role]  # the humans, then the spectator and the anonymous client
    rnd: random.Random
    captures: list[Capture] = field(default_factory=list)
    head: int = 0
    commits: int = 0
    card_probes: list[tuple[int, str, int, str]] = field(default_factory=list)  # seq, card, answer
    probed: list[int] = field(default_factory=list)  # the seqs at which the Kostič probed
    script: list[tuple[int, dict]] = field(default_factory=list)  # (seat, body) sent first
    delay: int = 0  # the game's spectator_delay (issue 10)

    def url(self, tail: str = "") -> str:
        return f"/api/games/{self.gid}/{tail}"

    def shown(self, viewer: int | None) -> int:
        """The seq `viewer` is shown now: the head, or for a spectator of a delayed running game
        the head `delay` events back (never before the deal). Bookkeeping only."""
        if viewer is not None or not self.delay:
            return self.head
        if GameProjection.objects.get(game_id=self.gid).status != "active":
            return self.head
        started = GameEvent.objects.get(game_id=self.gid, type="game_started").seq
        return max(self.head - self.delay, started)

    def keep(self, role: Role, kind: str, payload: Any, source: str,
             sent: frozenset[str] = frozenset()) -> None:  # fmt: skip
        self.captures.append(Capture(role.name, role.seat, kind, self.head, payload, source, sent))

    def get(self, role: Role, tail: str, kind: str, source: str) -> Any:
        answer = role.client.get(self.url(tail))
        assert answer.status_code < 500, (tail, answer.content)
        kind = kind if answer.status_code == 200 else TEXT
        json_body = answer["Content-Type"].startswith("application/json")
        payload = answer.json() if json_body else answer.content.decode()
        self.keep(role, kind, payload["events"] if kind == EVENTS else payload, source)
        return payload

    def post(self, role: Role, body: dict, source: str, key: str | None = None):
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        answer = role.client.post(self.url("commands/"), body, format="json", **headers)
        assert answer.status_code < 500, (body, answer.content)
        sent = frozenset({body["card"]}) if isinstance(body.get("card"), str) else frozenset()
        if answer.status_code == 200:
            self.head = answer.json()["seq"]
            self.keep(role, VIEW, answer.json()["view"], f"{source} answer")
        else:
            self.keep(role, TEXT, answer.json(), f"{source} {answer.status_code}", sent)
        return answer

    # --- reading -------------------------------------------------------------------------

    def poll(self, role: Role) -> None:
        """What a client does after a change: its view, and (every other time, to spare a
        loaded machine: the list is whole either way) the events it has not seen."""
        role.view = self.get(role, "", VIEW, "GET view")
        if self.commits % 4 < 2:
            events = self.get(role, f"events/?after={role.last}", EVENTS, "GET events?after")
            role.last = max([role.last] + [e["seq"] for e in events["events"]])

    def poll_some(self) -> dict:
        """Half the roles read after each commit, in turn (the sockets hear every commit).
        Returns the newest view read."""
        polled = self.roles[self.commits % 2 :: 2]
        for role in polled:
            self.poll(role)
        return polled[-1].view

    def deep(self) -> None:
        """The heavier reads, for every role: the whole log, two replays, markers, transcript,
        and the refusals of what opens only at the end (audit, export)."""
        for role in self.roles:
            self.get(role, "events/?after=0", EVENTS, "GET events")
            last = self.shown(role.seat)  # a spectator of a delayed game may replay up to it
            for at in {self.rnd.randint(1, last), last}:
                self.get(role, f"replay/?at={at}", REPLAY, "GET replay")
            self.get(role, "markers/", TEXT, "GET markers")
            lang = self.rnd.choice(["en", "cs"])
            self.get(role, f"transcript/?lang={lang}", HISTORY, "GET transcript")
        outsider = self.roles[-1]
        for tail in ("audit/", "export/"):
            self.get(outsider, tail, TEXT, f"GET {tail}")
        lobby = outsider.client.get("/api/games/", {"status": "active"}).json()
        self.keep(outsider, TEXT, lobby, "GET lobby")

    # --- acting ----------------------------------------------------------------------------

    def join_all(self) -> None:
        for seat, role in self.humans.items():
            answer = role.client.post(self.url("join/"), {"seat": seat}, format="json")
            assert answer.status_code == 200, answer.content
            self.head = answer.json()["seq"]
            self.keep(role, VIEW, answer.json(), "POST join answer")

    def turn(self) -> bool:
        """Roles read; now and then the heavy reads and illegal probes; then one commit (a bot
        batch through the sweeper, or a human's random legal command). False once the game
        has ended."""
        now = self.poll_some()
        if now["status"] == "ended":
            return False
        if self.commits % DEEP_EVERY == DEEP_EVERY - 1:
            self.deep()
        if self.commits % PROBE_EVERY == PROBE_EVERY - 1:
            self.probe_errors()
        self.commits += 1
        if not tasks.sweep():
            # Who is awaited now, not at the poll: any command (an illegal probe too) first
            # lets awaited bots act, as a late command first applies a timeout (issue 9).
            # The head too: a view read before a probe let bots act is not the present.
            proj = GameProjection.objects.get(game_id=self.gid)
            self.head = proj.seq  # bookkeeping, no payload
            self.human_move(proj.state["awaiting"])
        self.head = GameProjection.objects.get(game_id=self.gid).seq  # bookkeeping, no payload
        return True

    def human_move(self, awaiting: list[int]) -> None:
        asked = [self.humans[seat] for seat in awaiting if seat in self.humans]
        for role in asked:
            if role.view.get("seq") != self.head:  # not among the roles that just read
                role.view = self.get(role, "", VIEW, "GET view")
        movers = [role for role in asked if role.view["legal"]]
        assert movers, f"nobody may act: {awaiting}"
        seat, chosen = self.script.pop(0) if self.script else (None, None)
        role = self.humans[seat] if chosen else self.rnd.choice(movers)
        if role.view["phase"] == "play" and not self.probed:  # the first human Kostič, once
            self.probe_cards(role)
        body = {"expected_seq": role.view["seq"], **(chosen or self.rnd.choice(role.view["legal"]))}
        answer = self.post(role, body, "POST commands", key=f"c{self.commits}")
        assert answer.status_code == 200, answer.content
        role.view = answer.json()["view"]  # a sealed pass (R19) moves no seq: only his view knows

    def probe_errors(self) -> None:
        """Illegal commands from a random role; their error bodies are payloads too."""
        role = self.rnd.choice(self.roles)
        role.view = self.get(role, "", VIEW, "GET view")  # what is illegal for him right now
        other = self.rnd.choice([c for c in ALL_CARDS if c not in role.view["hand"]])
        bodies = [
            {"type": "pass"},
            {"type": "block", "card": other},
            {"type": "handoff", "card": other, "to": 0},
            {"type": "play", "card": "C99", "effect": 0, "scope": "all", "target": None},
        ]
        for body in bodies:
            if body not in role.view["legal"]:  # illegal for this role now, by construction
                self.post(role, {"expected_seq": self.head, **body}, "POST illegal")
        self.post(role, {"expected_seq": self.head - 1, "type": "pass"}, "POST stale")

    def probe_cards(self, role: Role) -> None:
        """The Kostič plays each card he does not hold: the refusal must read the same whether
        the card lies in another hand, the draw pile or the discard pile (R23)."""
        self.probed.append(self.head)
        for card in ALL_CARDS:
            if card in role.view["hand"]:
                continue
            body = {"expected_seq": self.head, "type": "play", "card": card, "effect": 0,
                    "scope": "all", "target": None}  # fmt: skip
            answer = self.post(role, body, "POST play of a card not held")
            shape = answer.content.decode().replace(card, "C??")
            self.card_probes.append((self.head, card, answer.status_code, shape))

    def truth(self) -> Truth:
        """The whole game as exported once it has ended (R23: public then)."""
        answer = self.roles[-1].client.get(self.url("export/"))
        assert answer.status_code == 200, answer.content
        return Truth.from_export(answer.content.decode())


def token_of(client: APIClient) -> str:
    return Token.objects.get(user__username=client.username).key


def open_canary(make_player, variant: str, seats: int, *, bots: list[int] = (),
                rig: dict | None = None, seed: str = "canary",
                delay: int = 0) -> Canary:  # fmt: skip
    """A game in the lobby: every human has an account (not yet seated), and so does a
    spectator. The humans join with `join_all` (the last join starts the game)."""
    humans = {seat: Role(f"seat{seat}", seat, make_player())
              for seat in range(seats) if seat not in bots}  # fmt: skip
    spectator = Role("spectator", None, make_player())
    anonymous = Role("anonymous", None, APIClient())
    body: dict[str, Any] = {"seats": seats, "variant": variant,
                            "options": {**SLOW, "bots": list(bots),
                                        "spectator_delay": delay}}  # fmt: skip
    if rig is not None:
        body["rig"] = rig
    creator = next(iter(humans.values()))
    created = creator.client.post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    table = Canary(created.json()["id"], variant, humans,
                   [*humans.values(), spectator, anonymous], random.Random(seed),
                   delay=delay)  # fmt: skip
    table.head = created.json()["seq"]
    table.keep(creator, VIEW, created.json(), "POST games answer")
    return table
