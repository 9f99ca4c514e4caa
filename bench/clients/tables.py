"""Tables of bench-load: each plays whole games, one after another, until the run stops.

A table's players are bench users with tokens. Seat 0 creates a game (pace options as below),
everyone connects a websocket (and one anonymous spectator does), then everyone joins and the
game starts. Each player then lives on its socket: when its latest view offers something
legal it thinks, takes the latest view again and sends one command from its `legal` over that
socket (`{"type": "command", "id", "command"}`, API.md), as the table page does; with no answer
in 5 s, or no socket open, the same id goes as the Idempotency-Key of `POST .../commands/`.

Paces (think times drawn per decision):
- live: block window 20 s, 2 min per decision (docs/PLAYING.md's live pace), think 1-3 s;
- correspondence, scaled down from an hour to block and a day per decision to 5 s and 10 s:
  think 1-8 s, and in one decision of ten the player is away and the deadline acts (R21).
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bench.clients.players import BUSY_RETRIES, Player, choose, client, timed
from bench.clients.streams import Stream


@dataclass(frozen=True)
class Pace:
    name: str
    block_window_s: int
    turn_deadline_s: int
    think_s: tuple[float, float]
    away: float  # chance that a player lets one decision time out


LIVE = Pace("live", 20, 120, (1.0, 3.0), 0.0)
SOCKET_ANSWER_S = 5.0  # as the table page: no answer over the socket in 5 s → REST, same key
PASS_SHARE = 0.75
CORRESPONDENCE = Pace("correspondence", 5, 10, (1.0, 8.0), 0.1)


@dataclass
class Record:
    """Everything the clients saw, for the summary (times are time.monotonic())."""

    commands: list[tuple[float, float, str]] = field(default_factory=list)  # (t, ms, pace)
    # the view of a command's seq reaching the sender's socket / the game's spectator:
    deliveries: list[tuple[float, float, str]] = field(default_factory=list)  # (t, ms, via)
    spectated: list[tuple[float, float, str]] = field(default_factory=list)
    posted: list[tuple[int, int, str]] = field(default_factory=list)  # (game, seq, via)
    errors: Counter = field(default_factory=Counter)
    error_times: list[tuple[float, str]] = field(default_factory=list)
    # each refused command: what the player saw and sent, and the service's answer
    refusals: list[dict] = field(default_factory=list)
    retried: Counter = field(default_factory=Counter)  # transport errors retried, same key
    conflicts: Counter = field(default_factory=Counter)  # stale_seq: someone moved first
    streams: list[Stream] = field(default_factory=list)
    games: dict[int, dict] = field(default_factory=dict)  # id -> table facts
    commands_via: Counter = field(default_factory=Counter)
    acked: list[tuple[float, int, int, str]] = field(default_factory=list)  # (t, game, seq, key)
    # game set-ups whose sockets did not all show their first view in time: each stream's state
    setup_failures: list[dict] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors[what] += 1
        self.error_times.append((time.monotonic(), what))


@dataclass
class Endpoints:
    """Where a table sends REST, where its sockets connect, where its spectator connects."""

    http_base: str
    via: str  # a name for the REST endpoint (a node, or the balancer)
    ws_base: str
    spectator_ws_base: str


def _code(answer: httpx.Response) -> str:
    try:
        return answer.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return f"http {answer.status_code}"


def _refusal(view: dict, body: dict, answer: dict, player: Player) -> dict:
    """A refused command with what it was decided on, to find the refusal's cause."""
    facts = ("id", "seq", "phase", "status", "awaiting", "you", "legal")
    return {"at": time.time(), "player": player.username, "sent": body,
            "error": answer.get("error"), "view": {k: view.get(k) for k in facts}}  # fmt: skip


@dataclass
class Table:
    number: int
    players: list[Player]
    pace: Pace
    variant: str
    bots: list[int]  # seats the built-in bot plays
    ends: Endpoints
    record: Record
    stop: asyncio.Event
    rnd: random.Random = field(default_factory=random.Random)
    spectator: Stream | None = None
    http: httpx.AsyncClient | None = None

    async def run(self, until: float) -> None:
        """Whole games back to back until `until` (time.monotonic()) or the stop. Each table
        has an HTTP client of its own: httpcore scans its whole pool on every request (a
        readability check per idle connection), so one pool for hundreds of tables costs the
        benchmark more CPU than the requests themselves."""
        async with client(self.ends.http_base, connections=4) as self.http:
            await self._games(until)

    async def _games(self, until: float) -> None:
        while not self.stop.is_set() and time.monotonic() < until:
            try:
                await self._game()
            except (httpx.HTTPError, RuntimeError, TimeoutError) as err:
                self.record.error(f"game setup: {type(err).__name__}")
                await asyncio.sleep(1)

    async def _post(self, url: str, body: dict, player: Player,
                    key: str | None = None) -> tuple[float, httpx.Response]:  # fmt: skip
        headers = dict(player.headers)
        if key:
            headers["Idempotency-Key"] = key
        return await timed(self.http, "POST", url, self.record.retried, json=body,
                           headers=headers)  # fmt: skip

    async def _game(self) -> None:
        # spectator_delay 0: the spectator's stream is checked against the players' (every
        # event, in time), so it watches live, as the games of issue 9's figures did.
        options = {"block_window_s": self.pace.block_window_s,
                   "turn_deadline_s": self.pace.turn_deadline_s, "bots": self.bots,
                   "spectator_delay": 0}  # fmt: skip
        body = {"seats": len(self.players) + len(self.bots), "variant": self.variant,
                "options": options}  # fmt: skip
        _, answer = await self._post("/api/games/", body, self.players[0])
        if answer.status_code != 201:
            raise RuntimeError(f"create: {_code(answer)}")
        game = answer.json()["id"]
        self.record.games[game] = {"pace": self.pace.name, "table": self.number,
                                   "via": self.ends.via}  # fmt: skip
        streams = [Stream(game, f"{self.ends.ws_base}/ws/games/{game}/", p.headers, True)
                   for p in self.players]  # fmt: skip
        spectator = Stream(game, f"{self.ends.spectator_ws_base}/ws/games/{game}/", {}, False)
        ready = [asyncio.Event() for _ in range(len(streams) + 1)]
        readers = [asyncio.create_task(s.run(r))
                   for s, r in zip([*streams, spectator], ready, strict=True)]  # fmt: skip
        try:
            try:
                await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), timeout=60)
            except TimeoutError:
                self.record.setup_failures.append(
                    {"at": time.monotonic(), "game": game,
                     "streams": [s.state() for s in [*streams, spectator]]})  # fmt: skip
                raise
            for player in self.players:
                _, joined = await self._post(f"/api/games/{game}/join/", {}, player)
                if joined.status_code != 200:
                    raise RuntimeError(f"join: {_code(joined)}")
        except BaseException:  # the game is left in its lobby: its sockets go
            for s in [*streams, spectator]:
                await s.close()
            await asyncio.wait(readers, timeout=10)
            raise
        self.record.streams += [*streams, spectator]
        self.spectator = spectator
        await asyncio.gather(*(self._play(p, s) for p, s in
                               zip(self.players, streams, strict=True)))  # fmt: skip
        await self._finish(game, [*streams, spectator], readers)

    async def _finish(self, game: int, streams: list[Stream], readers: list) -> None:
        """An ended game: wait (10 s at most) for every socket to reach its last seq, then close
        them; the run's checks read the streams afterwards. A game the stop cut short, or one
        with a socket still behind after those 10 s (deliveries take longer on a loaded
        machine: closing it would count a late event as a lost one), keeps its sockets open
        until the run has let everything settle."""
        final = max(s.view_seq for s in streams)
        if not any(s.view and s.view["status"] == "ended" for s in streams):
            self.record.games[game]["readers"] = readers
            return
        # By events, not views: a socket reconnected after the end gets the final view first,
        # then the answer to its resync with the events it lacks.
        give_up = time.monotonic() + 10
        while any(s.last < final for s in streams) and time.monotonic() < give_up:
            await asyncio.sleep(0.2)
        self.record.games[game]["ended"] = True
        if any(s.last < final for s in streams):
            self.record.games[game]["readers"] = readers
            return
        for s in streams:
            await s.close()
        _, late = await asyncio.wait(readers, timeout=10)
        if late:  # a stream that would not stop (bench-faults once: one reconnecting then)
            self.record.error("streams still open 10 s after close")
            for reader in late:
                reader.cancel()

    def _ended(self, stream: Stream) -> bool:
        return stream.view is not None and stream.view["status"] == "ended"

    async def _play(self, player: Player, stream: Stream) -> None:
        """One player's decisions until the game ends or the run stops."""
        while not self.stop.is_set() and not self._ended(stream):
            view = stream.view
            if view is None or not view["legal"]:
                await stream.newer(stream.view_seq, timeout=5)
                continue
            if self.rnd.random() < self.pace.away:  # away: this decision times out
                await self._until_not_asked(stream)
                continue
            if await self._think():
                return
            await self._act(player, stream)

    async def _until_not_asked(self, stream: Stream) -> None:
        give_up = time.monotonic() + 10 * self.pace.turn_deadline_s
        while stream.view and stream.view["legal"] and not self.stop.is_set():
            if time.monotonic() > give_up:
                return
            await stream.newer(stream.view_seq, timeout=5)

    async def _think(self) -> bool:
        """Sleep a think time; True when the run stopped meanwhile."""
        try:
            await asyncio.wait_for(self.stop.wait(), timeout=self.rnd.uniform(*self.pace.think_s))
        except TimeoutError:
            return False
        return True

    async def _act(self, player: Player, stream: Stream) -> None:
        """Send one command from the latest view over the player's socket (the table page's
        way; after SOCKET_ANSWER_S without an answer, or with no socket open, the same key
        over REST, as the page falls back); a stale_seq retries at once from the next view
        (the player sees it moved and answers again), at most 5 times."""
        for _ in range(5):
            view = stream.view
            if view is None or not view["legal"] or view["status"] != "active":
                return
            body, key = self._choose(view), uuid.uuid4().hex
            sent = time.monotonic()
            answer = await stream.command(key, body, timeout=SOCKET_ANSWER_S)
            for _ in range(BUSY_RETRIES):  # overloaded: after 1 s, the same id (docs/PRODUCTION.md)
                if answer is None or answer["type"] != "error" or (
                        answer["error"]["code"] != "unavailable"):  # fmt: skip
                    break
                self.record.retried["retried after unavailable (socket)"] += 1
                await asyncio.sleep(1)
                answer = await stream.command(key, body, timeout=SOCKET_ANSWER_S)
            if answer is None:
                self.record.retried["sent over REST (no socket answer)"] += 1
                answer = await self._rest_command(player, view, body, key)
                if answer is None:
                    await stream.newer(view["seq"], timeout=5)
                    return
            ms = (time.monotonic() - sent) * 1000
            if answer["type"] == "ack":
                seq = answer["seq"]
                self.record.acked.append((time.monotonic(), view["id"], seq, key))
                if seq == view["seq"]:  # a sealed pass (R19): the seq stays
                    stream.passed(seq)
                self._done(stream, sent, ms, seq)
                await stream.newer(seq - 1, timeout=30)  # decide on what the socket shows
                return
            code = answer["error"]["code"]
            if code != "stale_seq":
                self.record.error(code)
                self.record.refusals.append(_refusal(view, body, answer, player))
                await stream.newer(view["seq"], timeout=5)
                return
            self.record.conflicts[code] += 1
            await stream.newer(view["seq"], timeout=5)

    async def _rest_command(self, player: Player, view: dict, body: dict,
                            key: str) -> dict | None:  # fmt: skip
        """The command over REST with its key, answered in the socket's shape (ack or error);
        None after a transport failure (counted as an error)."""
        url = f"/api/games/{view['id']}/commands/"
        try:
            _, answer = await self._post(url, body, player, key)
        except httpx.HTTPError as err:
            self.record.error(f"transport: {type(err).__name__}")
            return None
        if answer.status_code == 200:
            return {"type": "ack", "id": key, "seq": answer.json()["seq"]}
        return {"type": "error", "id": key, "error": {"code": _code(answer)}}

    def _choose(self, view: dict) -> dict:
        """A command from `legal`: in a block window a player mostly passes (PASS_SHARE), as
        people do; otherwise any legal command, at random."""
        if view["phase"] == "block" and self.rnd.random() < PASS_SHARE:
            if {"type": "pass"} in view["legal"]:
                return {"expected_seq": view["seq"], "type": "pass"}
        return choose(view, self.rnd)

    def _done(self, stream: Stream, sent: float, ms: float, seq: int) -> None:
        self.record.commands.append((sent, ms, self.pace.name))
        self.record.commands_via[self.ends.via] += 1
        self.record.posted.append((stream.game, seq, self.ends.via))
        loop = asyncio.get_running_loop()
        loop.create_task(self._delivery(stream, sent, seq, self.record.deliveries))
        if self.spectator is not None:
            loop.create_task(self._delivery(self.spectator, sent, seq, self.record.spectated))

    async def _delivery(self, stream: Stream, sent: float, seq: int, into: list) -> None:
        """When the view of `seq` reached `stream` (a batch may come in a later view)."""
        if stream.view_seq >= seq or await stream.newer(seq - 1, timeout=30):
            arrived = stream.view_times.get(seq, time.monotonic())
            into.append((sent, (arrived - sent) * 1000, self.ends.via))
