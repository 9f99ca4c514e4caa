"""The capacity of one of each component, for docs/SCALING.md:

    python -m bench.scenarios.capacity [--seconds 20] [--clients 8] [--games 100] [--json FILE]

On a primary with a synchronous standby of its own (bench.harness.pg_pair, ports 56442 / 56443 so as
not to meet a drill), with the schema migrated and `--games` games played a few commands in
through the service's own code (their projections, answers and events are the payloads):

- **commits**: pgbench with the command path's statements (those `game_command` runs in one
  transaction, captured from a real command: the projection locked, standing orders, the
  event inserted, the projection updated with its whole state, the notification cursor, the
  recipients, a notification, a reminder, the stored answer with its view), `--clients`
  and 4 × `--clients` clients for `--seconds`, with the standby synchronous and then
  asynchronous, twice each, alternating; the PostgreSQL processes' CPU seconds (primary and
  standby) from /proc, and the WAL written per transaction;
- **reads on the standby**: pgbench with the reads that the replica serves: a replay's
  (`state_at`: the nearest snapshot, then up to 100 events) and the lobby's (the newest 200
  active games' projections, as `lobby_rows` reads them);
- **broadcasts per Redis**: a redis-server of its own (port 6396), two subscribers (redis-cli)
  subscribed to every game's channel (a game whose sockets sit on two web processes),
  publisher processes publishing the service's real broadcast message (channels_redis's
  msgpack of a `game.committed` batch with the sockets' part of the projection's state,
  games.core.codec.view_state_json): one PUBLISH per round
  trip as the service sends them (4 publishers), then pipelined 50 deep (2); the
  redis-server's CPU seconds.

Figures are per CPU second of the component's own processes as well as per wall second:
the machine has 2 cores shared with the benchmark's clients (and, today, other sessions).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.harness import env, pg_pair

DATABASE = "sejmi_bl_capacity"
REDIS_PORT = 6396
CHANNELS = 100


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def write_script(answer: str, event_data: str) -> str:
    """The command path's statements as one pgbench transaction (games.table.commit, captured
    with CaptureQueriesContext from `game_command`), on a random game and user."""
    return f"""\\set g random(1, :games)
\\set u random(1, :users)
BEGIN;
SELECT p.*, g.seed AS game_seed FROM games_gameprojection p JOIN games_game g ON g.id = p.game_id WHERE p.game_id = :g FOR UPDATE OF p;
SELECT u.username, o.game_id, o.block FROM games_standingorder o JOIN auth_user u ON u.id = o.user_id WHERE u.id = :u AND (o.game_id = :g OR o.game_id IS NULL) ORDER BY o.id;
UPDATE games_gameprojection SET seq = seq + 1, head_hash = md5(random()::text), state = state, updated_at = now() WHERE game_id = :g RETURNING seq AS newseq \\gset
INSERT INTO games_gameevent (game_id, seq, type, v, data, at, prev_hash, hash) VALUES (:g, :newseq, 'card_played', 1, {_sql_literal(event_data)}::jsonb, now(), md5(random()::text) || md5(random()::text), md5(random()::text) || md5(random()::text));
UPDATE games_notificationcursor SET seq = :newseq WHERE game_id = :g;
SELECT u.username, u.id, p.email_mode, p.email FROM auth_user u LEFT JOIN games_notificationprefs p ON p.user_id = u.id WHERE u.id = :u;
INSERT INTO games_notification (user_id, kind, game_id, seq, at, read) VALUES (:u, 'your_turn', :g, :newseq, now(), false);
INSERT INTO games_deadlinereminder (game_id, seq, remind_at, done) VALUES (:g, :newseq, now() + interval '1 day', false);
INSERT INTO games_idempotentanswer (user_id, game_id, key, request_hash, answer, created_at) VALUES (:u, :g, md5(random()::text), md5(random()::text) || md5(random()::text), {_sql_literal(answer)}::jsonb, now());
COMMIT;
"""  # noqa: E501


REPLAY_SCRIPT = """\\set g random(1, :games)
SELECT seq, state FROM games_gamesnapshot WHERE game_id = :g AND seq <= 100 ORDER BY seq DESC LIMIT 1;
SELECT type, data, v FROM games_gameevent WHERE game_id = :g AND seq > 0 AND seq <= 100 ORDER BY seq;
"""  # noqa: E501
LOBBY_SCRIPT = """SELECT * FROM games_gameprojection WHERE status = 'active' ORDER BY game_id DESC LIMIT 200;
"""  # noqa: E501


def _cpu(cluster: pg_pair.Cluster) -> float:
    """CPU seconds of a cluster: its live processes, plus what its postmaster reaped from the
    backends that have exited (cutime + cstime): pgbench's backends are gone when it ends."""
    reaped = 0.0
    try:
        fields = Path(f"/proc/{cluster.pid}/stat").read_text().rsplit(")", 1)[1].split()
        reaped = (int(fields[13]) + int(fields[14])) / env.TICKS
    except OSError:
        pass
    return reaped + sum(env.cpu_s(pid) for pid in pg_pair.cluster_pids(cluster.name))


def _pgbench(url: str, script: str, clients: int, seconds: float, **defines: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(script)
    os.chmod(f.name, 0o644)
    argv = ["pgbench", "-n", "-f", f.name, "-c", str(clients), "-j", "2", "-T",
            str(int(seconds)), "-M", "prepared", *[f"-D{k}={v}" for k, v in defines.items()],
            url]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 120)
    os.unlink(f.name)
    if done.returncode:
        raise RuntimeError(f"pgbench failed: {done.stderr[-2000:]}")
    tps = float(re.search(r"tps = ([\d.]+) \(without initial", done.stdout).group(1))
    lat = float(re.search(r"latency average = ([\d.]+) ms", done.stdout).group(1))
    count = int(re.search(r"number of transactions actually processed: (\d+)",
                          done.stdout).group(1))  # fmt: skip
    return {"tps": round(tps, 1), "latency_ms": lat, "transactions": count}


def _lsn(cluster: pg_pair.Cluster) -> int:
    query = ("SELECT pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
             " ELSE pg_current_wal_lsn() END, '0/0')")  # fmt: skip
    return int(cluster.sql(query)[0][0])


def _settled(cluster: pg_pair.Cluster) -> None:
    """Wait until the run's backends have exited and been reaped: a backend that has exited
    but not yet been reaped (a zombie) has no command line and is counted nowhere."""
    query = ("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
             " AND pid <> pg_backend_pid()")  # fmt: skip
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and cluster.sql(query)[0][0]:
        time.sleep(0.1)
    time.sleep(0.5)


def _measured(pair: pg_pair.Pair, *clusters: pg_pair.Cluster, run) -> dict:
    for c in clusters:
        _settled(c)
    before = [_cpu(c) for c in clusters]
    wal = _lsn(clusters[0])
    started = time.monotonic()
    out = run()
    wall = time.monotonic() - started
    for c in clusters:
        _settled(c)
    wal = _lsn(clusters[0]) - wal
    out["wal_bytes_per_transaction"] = round(wal / max(1, out["transactions"]))
    cpu = [_cpu(c) - b for c, b in zip(clusters, before, strict=True)]
    out["cpu_s"] = {c.name: round(x, 1) for c, x in zip(clusters, cpu, strict=True)}
    out["per_cpu_s"] = round(out["transactions"] / max(sum(cpu), 1e-9), 1)
    out["wall_s"] = round(wall, 1)
    out["load"] = env.load()
    return out


def _seed(url: str, games: int) -> dict:
    """Migrate, then `games` three-seat games through the service's own commands (a few
    moves each); returns the payloads the scripts use and the broadcast's serialised size."""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=env.ROOT,
                   env=env.service_env(DATABASE_URL=url, REDIS_URL=""), check=True,
                   timeout=600)  # fmt: skip
    os.environ.update(env.service_env(DATABASE_URL=url, REDIS_URL=""))
    import random
    import uuid

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games.core.codec import view_state_json
    from games.core.models import GameEvent, GameProjection, IdempotentAnswer
    from games.table import commands, selectors

    users = [get_user_model().objects.create(username=f"cap-{uuid.uuid4().hex[:10]}")
             for _ in range(30)]  # fmt: skip
    rnd = random.Random(3)
    for _ in range(games):
        seated = rnd.sample(users, 3)
        done = commands.game_create(user=seated[0], seats=3)
        for user in seated:
            commands.game_join(user=user, game_id=done.game_id)
        for _ in range(4):
            proj, state = selectors.current(done.game_id)
            if state.status != "active":
                break
            seat = state.awaiting[0]
            view = selectors.game_view(done.game_id, state, seated[seat], seq=proj.seq,
                                       deadline=None)  # fmt: skip
            if not view["legal"]:
                break
            body = {"expected_seq": proj.seq, **rnd.choice(view["legal"])}
            commands.game_command(user=seated[seat], game_id=done.game_id, body=body,
                                  key=uuid.uuid4().hex)  # fmt: skip
    answer = IdempotentAnswer.objects.order_by("-id").values_list("answer", flat=True).first()
    event = GameEvent.objects.filter(type="card_played").values_list("data", flat=True).first()
    proj = GameProjection.objects.order_by("-seq").first()
    rows = list(GameEvent.objects.filter(game_id=proj.game_id).order_by("-seq")[:3])
    message = {"type": "game.committed", "game": proj.game_id, "seq": proj.seq,
               "events": [{"seq": r.seq, "type": r.type, "v": r.v, "at": r.at.isoformat(),
                           "data": r.data} for r in rows],
               "state": view_state_json(proj.state), "deadline": None}  # fmt: skip
    from channels_redis.serializers import registry

    payload = registry.get_serializer("msgpack").serialize(message)
    users_max = get_user_model().objects.order_by("-id").values_list("id", flat=True).first()
    return {"answer": json.dumps(answer), "event": json.dumps(event or {}),
            "payload": payload, "users": users_max, "games": games,
            "answer_bytes": len(json.dumps(answer)),
            "state_bytes": len(json.dumps(proj.state))}  # fmt: skip


# --- Redis -------------------------------------------------------------------------------


def _publisher(port: int, payload: bytes, counts, i: int, stop, depth: int) -> None:
    import redis

    client = redis.Redis(port=port)
    c = 0
    while not stop.is_set():
        pipe = client.pipeline(transaction=False)
        for _ in range(depth):
            pipe.publish(f"bench__group__game.{c % CHANNELS}", payload)
            c += 1
        pipe.execute()
        counts[i] += depth


def _output_bytes(server) -> int:
    info = server._cli("info", "stats").stdout
    return int(info.split("total_net_output_bytes:")[1].split()[0])


def redis_broadcasts(payload: bytes, seconds: float, subscribers: int = 2,
                     publishers: int = 2, depth: int = 1) -> dict:  # fmt: skip
    """Subscribers are redis-cli processes (C, writing to /dev/null), so that Redis, not a
    slow reader, is what is measured; each is subscribed to every channel, and each publish
    is delivered to both (checked: both still subscribed at the end, and Redis's output bytes
    against published × payload × subscribers)."""
    from bench.harness.redis_server import Redis

    server = Redis(REDIS_PORT)
    server.start()
    subs = []
    try:
        pid = int(server._cli("info", "server").stdout.split("process_id:")[1].split()[0])
        channels = [f"bench__group__game.{c}" for c in range(CHANNELS)]
        subs = [subprocess.Popen(["redis-cli", "-p", str(REDIS_PORT), "subscribe", *channels],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for _ in range(subscribers)]  # fmt: skip
        time.sleep(1.0)
        stop = multiprocessing.Event()
        sent = multiprocessing.Array("l", publishers)
        pubs = [multiprocessing.Process(target=_publisher,
                                        args=(REDIS_PORT, payload, sent, i, stop, depth))
                for i in range(publishers)]  # fmt: skip
        cpu0, t0, out0 = env.cpu_s(pid), time.monotonic(), _output_bytes(server)
        for p in pubs:
            p.start()
        time.sleep(seconds)
        stop.set()
        for p in pubs:
            p.join(10)
        wall, cpu = time.monotonic() - t0, env.cpu_s(pid) - cpu0
        out = _output_bytes(server) - out0
        listed = server._cli("client", "list").stdout
        still = sum(f"sub={CHANNELS}" in line for line in listed.splitlines())
        published = sum(sent)
        return {"payload_bytes": len(payload), "subscribers_per_channel": subscribers,
                "publishers": publishers, "pipeline_depth": depth,
                "subscribers_still_subscribed": still, "published": published,
                "output_bytes_per_expected": round(out / max(1, published * len(payload)
                                                             * subscribers), 3),
                "published_per_s": round(published / wall), "redis_cpu_s": round(cpu, 1),
                "published_per_redis_cpu_s": round(published / max(cpu, 1e-9)),
                "wall_s": round(wall, 1), "load": env.load()}  # fmt: skip
    finally:
        for p in subs:
            p.terminate()
            p.wait(5)
        server.stop()


# --- the run -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--json")
    args = p.parse_args(argv)
    result: dict = {"started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
                    "command": "python -m bench.scenarios.capacity " + " ".join(sys.argv[1:]),
                    "code": env.code_version(), "load_before": env.load()}  # fmt: skip
    pair = pg_pair.start_pair(56442, 56443)
    try:
        pair.primary.sql(f'CREATE DATABASE "{DATABASE}"')
        primary = pair.primary.url.rsplit("/", 1)[0] + f"/{DATABASE}"
        standby = pair.standby.url.rsplit("/", 1)[0] + f"/{DATABASE}"
        print("capacity: seeding ...", flush=True)
        seed = _seed(primary, args.games)
        result["seed"] = {k: v for k, v in seed.items() if k not in ("payload", "answer", "event")}
        script = write_script(seed["answer"], seed["event"])
        defines = {"games": seed["games"], "users": seed["users"]}
        commits = []
        runs = [(sync, clients) for clients in (args.clients, 4 * args.clients)
                for sync in (True, False, True, False)]  # fmt: skip
        for sync, clients in runs:
            pair.set_synchronous(sync)
            one = _measured(pair, pair.primary, pair.standby, run=lambda c=clients: _pgbench(
                primary, script, c, args.seconds, **defines))  # fmt: skip
            one["synchronous"], one["clients"] = sync, clients
            commits.append(one)
            print(f"  commits {'sync' if sync else 'async'}: {one}", flush=True)
        result["commits"] = commits
        pair.set_synchronous(True)
        reads = {}
        for name, sql in (("replay", REPLAY_SCRIPT), ("lobby", LOBBY_SCRIPT)):
            reads[name] = _measured(pair, pair.standby, run=lambda s=sql: _pgbench(
                standby, s, args.clients, args.seconds, games=seed["games"]))  # fmt: skip
            print(f"  reads {name} on the standby: {reads[name]}", flush=True)
        result["reads"] = reads
    finally:
        pair.stop()
    print("  broadcasts ...", flush=True)
    # depth 1: as the service publishes (one PUBLISH per batch, each its own round trip);
    # depth 50: what one Redis does when its clients pipeline
    result["redis"] = [
        redis_broadcasts(seed["payload"], args.seconds, publishers=4, depth=1),
        redis_broadcasts(seed["payload"], args.seconds, publishers=2, depth=50),
    ]
    print(f"  redis: {result['redis']}", flush=True)
    result["load_after"] = env.load()
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, default=str))
    return result


if __name__ == "__main__":
    main()
