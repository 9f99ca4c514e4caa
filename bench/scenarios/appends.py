"""(1) Appends: events/s through our event store vs plain psycopg INSERTs vs `eventsourcing`.

One workload, the events of real bot games (same types, same payloads), goes through each
contender in rounds that alternate the contenders, so that background load hits them alike;
rates are medians over the rounds, ratios medians of the same-round ratios.

- plain: one `INSERT INTO games_gameevent ...` per event with psycopg in autocommit mode (one
  statement = one transaction), same table, same indexes, same payload; hashes are constants.
- ours: `transaction.atomic()` + `event_store.append` (hash chain, Django ORM), one
  event per transaction, the head kept in memory as `games.table.commit` keeps it
  in the projection;
  ours per command: the events of one command in one transaction, as the service appends.
- eventsourcing: an `Application` with PERSISTENCE_MODULE=eventsourcing.postgres, one aggregate
  event per `save()` (and, for comparison, one `save()` per command); its
  `PostgresApplicationRecorder.insert_events` alone with one stored event per call.
- game_command: the whole write path of `games.table.commands.game_command` in this process
  (row-locked
  projection, engine, append, projection, idempotency row, after-commit broadcast and Celery).
"""

from __future__ import annotations

import json
import random
import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlparse

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate

from bench.harness.env import DATABASE_URL, percentile
from games.engine import Event, RandomBot, execute, fold, new_game
from games.engine.simulate import game_seed

HASH = "f" * 64
TIME_CAP_S = 10.0  # one contender's share of one round, whatever its count


@dataclass
class Workload:
    """Command batches of bot games: games[g][c] is the list of events of command c."""

    games: list[list[list[Event]]]

    def streams(self) -> list[list[Event]]:
        return [[e for batch in game for e in batch] for game in self.games]

    @property
    def events(self) -> int:
        return sum(len(s) for s in self.streams())

    def payload_bytes(self) -> tuple[float, int]:
        sizes = [len(json.dumps(e.data)) for s in self.streams() for e in s]
        return statistics.mean(sizes), max(sizes)


def workload(games: int = 24) -> Workload:
    """Bot games of 2 to 4 players (RandomBot), each kept as its commands' event batches."""
    out = []
    for i in range(games):
        seed, n = game_seed("bench-appends", i), 2 + i % 3
        batches = [new_game(seats=n, seed=seed, options={"bots": list(range(n))})]
        state, bot = fold(batches[0]), RandomBot()
        while state.status == "active":
            seat = state.awaiting[0]
            new, state = execute(state, bot.choose(state, seat), actor=seat, seed=seed)
            batches.append(new)
        out.append(batches)
    return Workload(out)


@dataclass
class Result:
    name: str
    rates: list[float] = field(default_factory=list)  # events/s, one per round

    @property
    def median(self) -> float:
        return statistics.median(self.rates)


def _timed(count: int, step: Callable[[int], int]) -> float:
    """Call step(i) until `count` units are done or the time cap passes; units per second."""
    done, started = 0, time.perf_counter()
    while done < count and time.perf_counter() - started < TIME_CAP_S:
        done += step(done)
    return done / (time.perf_counter() - started)


def _new_games(how_many: int) -> list[int]:
    from django.contrib.auth import get_user_model

    from games.core.models import Game

    user, _ = get_user_model().objects.get_or_create(username="bench-appends")
    return [Game.objects.create(seed=b"\0" * 32, created_by=user).pk for _ in range(how_many)]


def _cycle(work: Workload, games: list[int]) -> Callable[[], tuple[int, int, Event]]:
    """Hands out (game id, seq, event): the workload's streams, each into a game of its own."""
    streams = work.streams()
    state = {"stream": 0, "pos": 0}

    def next_event() -> tuple[int, int, Event]:
        s = streams[state["stream"]]
        if state["pos"] == len(s):
            state["stream"], state["pos"] = state["stream"] + 1, 0
            s = streams[state["stream"]]
        state["pos"] += 1
        return games[state["stream"]], state["pos"], s[state["pos"] - 1]

    return next_event


def plain(work: Workload, count: int) -> float:
    import psycopg
    from psycopg.types.json import Jsonb

    games, now = _new_games(len(work.games)), time.time()
    rows = []
    next_event = _cycle(work, games)
    for _ in range(min(count, work.events)):
        game, seq, e = next_event()
        rows.append((game, seq, e.type, e.v, e.data))
    sql = ("INSERT INTO games_gameevent (game_id, seq, type, v, data, at, prev_hash, hash)"
           " VALUES (%s, %s, %s, %s, %s, to_timestamp(%s), %s, %s)")  # fmt: skip
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:

        def step(i: int) -> int:
            game, seq, type_, v, data = rows[i]
            conn.execute(sql, (game, seq, type_, v, Jsonb(data), now, HASH, HASH))
            return 1

        return _timed(len(rows), step)


def ours(work: Workload, count: int) -> float:
    from django.db import connection, transaction
    from django.utils import timezone

    from games.core import event_store

    games = _new_games(len(work.games))
    next_event = _cycle(work, games)
    heads: dict[int, str] = {}
    connection.ensure_connection()

    def step(_: int) -> int:
        game, seq, e = next_event()
        with transaction.atomic():
            rows = event_store.append(game_id=game, head_seq=seq - 1,
                                      head_hash=heads.get(game, event_store.GENESIS),
                                      events=[e], at=timezone.now())  # fmt: skip
        heads[game] = rows[-1].hash
        return 1

    return _timed(min(count, work.events), step)


def ours_per_command(work: Workload, count: int) -> tuple[float, float]:
    """Events/s and commands/s when each command's events share one transaction."""
    from django.db import transaction
    from django.utils import timezone

    from games.core import event_store

    games = _new_games(len(work.games))
    batches = [(games[g], batch) for g, game in enumerate(work.games) for batch in game]
    heads: dict[int, tuple[int, str]] = {}
    commands = 0

    def step(_: int) -> int:
        nonlocal commands
        game, events = batches[commands]
        seq, head = heads.get(game, (0, event_store.GENESIS))
        with transaction.atomic():
            rows = event_store.append(game_id=game, head_seq=seq, head_hash=head, events=events,
                                      at=timezone.now())  # fmt: skip
        heads[game] = (rows[-1].seq, rows[-1].hash)
        commands += 1
        return len(events)

    started = time.perf_counter()
    rate = _timed(min(count, work.events), step)
    return rate, commands / (time.perf_counter() - started)


class GameLog(Aggregate):
    """One game's events as one eventsourcing aggregate; each of our events is one of its."""

    def __init__(self) -> None:
        self.count = 0

    class Recorded(Aggregate.Event):
        type: str
        v: int
        data: dict

        def apply(self, aggregate: GameLog) -> None:
            aggregate.count += 1


class BenchLog(Application):
    name = "SejmiBench"


def _es_application() -> BenchLog:
    """The library's PostgreSQL persistence on the bench database (its own table)."""
    url = urlparse(DATABASE_URL)
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": url.path.lstrip("/"),
        "POSTGRES_HOST": url.hostname, "POSTGRES_PORT": str(url.port or 5432),
        "POSTGRES_USER": url.username or "postgres", "POSTGRES_PASSWORD": url.password or "",
        "POSTGRES_POOL_SIZE": "1",
    }  # fmt: skip
    return BenchLog(env=env)


def eventsourcing_app(work: Workload, count: int) -> float:
    app = _es_application()
    logs = [GameLog() for _ in work.games]
    app.save(*logs)  # the Created events are not timed
    streams = work.streams()
    order = [(g, e) for g, s in enumerate(streams) for e in s][: min(count, work.events)]

    def step(i: int) -> int:
        g, e = order[i]
        logs[g].trigger_event(GameLog.Recorded, type=e.type, v=e.v, data=e.data)
        app.save(logs[g])
        return 1

    try:
        return _timed(len(order), step)
    finally:
        app.close()


def eventsourcing_app_per_command(work: Workload, count: int) -> float:
    """Events/s when one `save()` holds the aggregate events of one of our commands."""
    app = _es_application()
    logs = [GameLog() for _ in work.games]
    app.save(*logs)
    batches = iter([(g, batch) for g, game in enumerate(work.games) for batch in game])

    def step(_: int) -> int:
        g, events = next(batches)
        for e in events:
            logs[g].trigger_event(GameLog.Recorded, type=e.type, v=e.v, data=e.data)
        app.save(logs[g])
        return len(events)

    try:
        return _timed(min(count, work.events), step)
    finally:
        app.close()


def eventsourcing_recorder(work: Workload, count: int) -> float:
    from eventsourcing.persistence import StoredEvent

    app = _es_application()
    recorder = app.recorder
    streams = work.streams()
    ids = [uuid.uuid4() for _ in streams]
    order = [(g, v, e) for g, s in enumerate(streams) for v, e in enumerate(s, start=1)]
    order = order[: min(count, work.events)]

    def step(i: int) -> int:
        g, version, e = order[i]
        state = json.dumps({"type": e.type, "v": e.v, "data": e.data}).encode()
        recorder.insert_events([StoredEvent(ids[g], version, "bench:Recorded", state)])
        return 1

    try:
        return _timed(len(order), step)
    finally:
        app.close()


def game_command_path(count: int) -> tuple[float, float, list[float]]:
    """games.table.commands.game_command for humans in every seat, in-process (no HTTP).
    Returns events/s, commands/s and per-command latencies in ms."""
    from django.contrib.auth import get_user_model

    import games.tasks  # noqa: F401 (registers the deadline task the commits schedule, as the web does)
    from games.table import commands, selectors

    users = [get_user_model().objects.create(username=f"bench-cmd-{uuid.uuid4().hex[:10]}")
             for _ in range(4)]  # fmt: skip
    rnd = random.Random(7)

    def new_table(n: int) -> int:
        done = commands.game_create(user=users[0], seats=n)
        for user in users[:n]:
            commands.game_join(user=user, game_id=done.game_id)
        return done.game_id

    game, n, times, events = new_table(2), 2, [], 0
    deadline = time.perf_counter() + TIME_CAP_S
    while len(times) < count and time.perf_counter() < deadline:
        proj, state = selectors.current(game)
        if state.status != "active":
            n = 2 + (n - 1) % 3
            game = new_table(n)
            continue
        for seat in state.awaiting:  # R19: who passed stays listed until the window closes
            legal = selectors.game_view(game, state, users[seat], seq=proj.seq, deadline=None)
            if legal["legal"]:
                break
        body = {"expected_seq": proj.seq, **rnd.choice(legal["legal"])}
        started = time.perf_counter()
        answer = commands.game_command(user=users[seat], game_id=game, body=body,
                                       key=uuid.uuid4().hex)  # fmt: skip
        times.append(time.perf_counter() - started)
        events += answer["seq"] - proj.seq
    busy = sum(times)
    return events / busy, len(times) / busy, [t * 1000 for t in times]


def _ratio(results: dict[str, Result], a: str, b: str) -> float:
    """Median over rounds of a's rate ÷ b's rate in the same round: background load drifts,
    and the two ran seconds apart."""
    pairs = zip(results[a].rates, results[b].rates, strict=True)
    return round(statistics.median(x / y for x, y in pairs), 2)


def run(rounds: int = 7, count: int = 600, commands: int = 150) -> dict:
    """Every contender `rounds` times, alternating; returns the figures for the report."""
    work = workload()
    names = ("plain", "ours", "es_app", "es_recorder", "ours_cmd", "es_app_cmd", "game_command")
    results = {name: Result(name) for name in names}
    cmd_rates, path_rates, cmd_latency = [], [], []
    for _ in range(rounds):
        results["plain"].rates.append(plain(work, count))
        results["ours"].rates.append(ours(work, count))
        results["es_app"].rates.append(eventsourcing_app(work, count))
        results["es_recorder"].rates.append(eventsourcing_recorder(work, count))
        rate, per_cmd = ours_per_command(work, count)
        results["ours_cmd"].rates.append(rate)
        cmd_rates.append(per_cmd)
        results["es_app_cmd"].rates.append(eventsourcing_app_per_command(work, count))
        ev_rate, c_rate, lat = game_command_path(commands)
        results["game_command"].rates.append(ev_rate)
        path_rates.append(c_rate)
        cmd_latency += lat
    mean_size, max_size = work.payload_bytes()
    r = {k: v.median for k, v in results.items()}
    return {
        "rounds": rounds, "count": count, "commands": commands,
        "payload_mean_bytes": round(mean_size), "payload_max_bytes": max_size,
        "events_per_command": round(work.events / sum(len(g) for g in work.games), 2),
        "rates": {k: [round(x) for x in v.rates] for k, v in results.items()},
        "median": {k: round(v) for k, v in r.items()},
        "ours_cmd_commands_per_s": round(statistics.median(cmd_rates)),
        "game_command_commands_per_s": round(statistics.median(path_rates)),
        "game_command_ms_p50": round(percentile(cmd_latency, 50), 2),
        "game_command_ms_p99": round(percentile(cmd_latency, 99), 2),
        "ratio_ours_plain": _ratio(results, "ours", "plain"),
        "ratio_ours_es_app": _ratio(results, "ours", "es_app"),
        "ratio_ours_es_recorder": _ratio(results, "ours", "es_recorder"),
        "ratio_ours_cmd_plain": _ratio(results, "ours_cmd", "plain"),
        "ratio_ours_cmd_es_app": _ratio(results, "ours_cmd", "es_app"),
        "ratio_ours_cmd_es_app_cmd": _ratio(results, "ours_cmd", "es_app_cmd"),
    }  # fmt: skip
