"""The service behind PgBouncer in transaction mode (issue 20, docs/PRODUCTION.md "PgBouncer"):
Debian's pgbouncer (1.18: no prepared-statement tracking) started here on port 6433 with
deploy/pgbouncer.ini's settings and ONE server connection per database and user, so every
transaction of every client connection of the server goes over the same PostgreSQL backend.
A real uvicorn with SEJMI_PGBOUNCER=1 then plays the command path through it: create, join,
moves over REST and over the socket, a spectator's live frames, a replay read.

Without pgbouncer installed the tests skip with the reason; with CI set they fail instead
(.ci/run installs it)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from websockets.sync.client import connect

from tests.support import pgbouncer

PORT = 6433  # this test's (other suites use 55433 and 56432-56439)
CONTROL_PORT = 6434  # the control: a second bouncer, for a moment
SERVICE_ROLE = "sejmi_app"  # tests/django_fixtures.py: the role the service runs as
ROOT = Path(__file__).resolve().parents[2]


def _need_pgbouncer() -> None:
    if pgbouncer.installed():
        return
    why = "pgbouncer is not installed (apt-get install -y pgbouncer; .ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


def _test_database() -> str:
    from django.db import connection

    return connection.settings_dict["NAME"]


@pytest.fixture(scope="module")
def bouncer(django_db_setup, django_db_blocker):
    """PgBouncer on PORT, one server connection per database and user; yields the test
    database's name."""
    _need_pgbouncer()
    with django_db_blocker.unblock():
        name = _test_database()
    with pgbouncer.running(PORT, users=("postgres", SERVICE_ROLE), default_pool_size="1",
                           reserve_pool_size="0", query_wait_timeout="15") as workdir:  # fmt: skip
        yield name, workdir


@pytest.fixture
def control_bouncer():
    """A second bouncer, one server connection, in front of the `postgres` database (no test
    database needed); yields its URL."""
    _need_pgbouncer()
    with pgbouncer.running(CONTROL_PORT, users=("postgres",), default_pool_size="1"):
        yield f"postgresql://postgres@127.0.0.1:{CONTROL_PORT}/postgres"


def test_the_bouncer_pools_by_transaction_so_a_named_prepared_statement_breaks(control_bouncer):
    """The control: what SEJMI_PGBOUNCER avoids does break here. psycopg, left to prepare
    (prepare_threshold 0), names its first statement _pg3_0 on each client connection; two
    clients sharing the one server connection collide on that name. (In session mode the
    second client would wait for a server connection of its own instead.)"""
    with _pair(control_bouncer, prepare_threshold=0) as (first, second):
        assert first.execute("SELECT %s::int", [1]).fetchone() == (1,)
        with pytest.raises(psycopg.errors.DuplicatePreparedStatement):
            second.execute("SELECT %s::text", ["x"])
    with _pair(control_bouncer, prepare_threshold=None) as (first, second):
        assert first.execute("SELECT %s::int", [1]).fetchone() == (1,)
        assert second.execute("SELECT %s::text", ["x"]).fetchone() == ("x",)


def test_the_time_zone_django_sets_per_connection_follows_its_client(control_bouncer):
    """Django sets TimeZone once per new connection (a session-level set_config). PgBouncer
    tracks it per client and sets it on whichever server connection the client gets: another
    client on the same server connection keeps its own."""
    with _pair(control_bouncer) as (first, second):
        before = second.execute("SHOW TimeZone").fetchone()[0]
        first.execute("SELECT set_config('TimeZone', %s, false)", ["America/New_York"])
        assert second.execute("SHOW TimeZone").fetchone()[0] == before != "America/New_York"
        assert first.execute("SHOW TimeZone").fetchone()[0] == "America/New_York"


@contextmanager
def _pair(url: str, **options):
    """Two client connections in autocommit (each statement its own transaction)."""
    with psycopg.connect(url, autocommit=True, **options) as first:
        with psycopg.connect(url, autocommit=True, **options) as second:
            yield first, second


def _settings_with(**env: str) -> dict:
    """sejmi.settings' DATABASES as a fresh process with `env` computes them."""
    code = ("import json, django; from django.conf import settings; django.setup(); "
            "print(json.dumps({a: {k: d[k] for k in ('OPTIONS', 'DISABLE_SERVER_SIDE_CURSORS')}"
            " for a, d in settings.DATABASES.items()}, default=str))")  # fmt: skip
    clean = {k: v for k, v in os.environ.items() if k not in ("SEJMI_PGBOUNCER", "SEJMI_DB_ROLE")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "sejmi.settings", **env},
                          timeout=60)  # fmt: skip
    if done.returncode:
        raise RuntimeError(done.stderr[-1500:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_sejmi_pgbouncer_turns_off_what_transaction_pooling_breaks():
    url = "postgres://sejmi_app@127.0.0.1:6432/sejmi"
    behind = _settings_with(DATABASE_URL=url, SEJMI_PGBOUNCER="1")
    for alias in ("default", "owner"):
        assert behind[alias]["OPTIONS"]["prepare_threshold"] is None
        assert behind[alias]["DISABLE_SERVER_SIDE_CURSORS"] is True
    # Server-side binding stays: each statement is the unnamed one, sent whole with its Sync.
    assert behind["default"]["OPTIONS"]["server_side_binding"] is True
    direct = _settings_with(DATABASE_URL=url, SEJMI_PGBOUNCER="0")
    assert direct["default"]["DISABLE_SERVER_SIDE_CURSORS"] is False
    with pytest.raises(RuntimeError, match="SEJMI_DB_ROLE does not work behind PgBouncer"):
        _settings_with(DATABASE_URL=url, SEJMI_PGBOUNCER="1", SEJMI_DB_ROLE="sejmi_app")


@pytest.fixture(scope="module")
def server_behind_the_bouncer(bouncer, tmp_path_factory):
    """One uvicorn with two workers, logging in to the bouncer as the service's role
    (SEJMI_DB_ROLE's startup option is refused there)."""
    from django.conf import settings

    from tests.support.processes import free_port, start, stop, wait_http
    from tests.support.processes import venv_bin as _venv_bin

    name, workdir = bouncer
    port = free_port()
    log = tmp_path_factory.mktemp("bounced") / "uvicorn.log"
    argv = [str(_venv_bin("uvicorn")), "sejmi.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--workers", "2", "--no-access-log"]  # fmt: skip
    server = start(argv, log, DATABASE_URL=f"postgres://{SERVICE_ROLE}@127.0.0.1:{PORT}/{name}",
                   SEJMI_PGBOUNCER="1", SEJMI_DB_ROLE="", REDIS_URL=settings.REDIS_URL or "",
                   CHANNEL_PREFIX=settings.CHANNEL_PREFIX, SEJMI_ALLOW_RIGGED="1",
                   LOG_LEVEL="WARNING")  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, server, timeout=60, tail=lambda: log.read_text()[-2000:])
        yield base, log, workdir
    finally:
        stop(server)


def _frames(sock, until_seq: int, timeout: float = 15) -> list[int]:
    """The event seqs a socket receives until one reaches `until_seq`."""
    seqs: list[int] = []
    while not seqs or seqs[-1] < until_seq:
        frame = json.loads(sock.recv(timeout=timeout))
        if frame["type"] == "event":
            seqs.append(frame["event"]["seq"])
    return seqs


@pytest.mark.django_db(transaction=True)
def test_the_command_path_runs_through_pgbouncer_in_transaction_mode(server_behind_the_bouncer):
    from tests.browser.api import register

    base, log, workdir = server_behind_the_bouncer
    name = _test_database()
    alice, bob = register(base, "bnc"), register(base, "bnc")
    gid = alice.create_game(2)
    for player in (alice, bob):
        player.join(gid)
    ws = base.replace("http://", "ws://") + f"/ws/games/{gid}/"
    rnd = random.Random(20)
    seated = {"Origin": base, "Authorization": f"Token {alice.token}"}
    with connect(ws, additional_headers={"Origin": base}, open_timeout=15) as spectator, \
            connect(ws, additional_headers=seated, open_timeout=15) as own:  # fmt: skip
        start = alice.view(gid)["seq"]
        moves = 0
        while moves < 6:
            for player in (alice, bob):
                view = player.view(gid)
                assert view["status"] != "ended", "the game ended before six moves"
                if not view["legal"]:
                    continue
                body = {"expected_seq": view["seq"], **rnd.choice(view["legal"])}
                if player is alice and moves % 2:  # every other of alice's over the socket
                    key = uuid.uuid4().hex
                    own.send(json.dumps({"type": "command", "id": key, "command": body}))
                    while (frame := json.loads(own.recv(timeout=15)))["type"] != "ack":
                        assert frame["type"] != "error", frame
                    assert frame["id"] == key
                else:
                    player.command(gid, body, seq=view["seq"])
                moves += 1
        final = alice.view(gid)["seq"]
        assert final > start
        assert _frames(spectator, final) == list(range(start + 1, final + 1))
        clients = [c for c in pgbouncer.show(PORT, "CLIENTS") if c[1] == SERVICE_ROLE]
        servers = [s for s in pgbouncer.show(PORT, "SERVERS") if s[1] == SERVICE_ROLE]
    replay = alice.get(f"/api/games/{gid}/replay/", at=start + 1)
    assert replay["seq"] == start + 1
    events = alice.get(f"/api/games/{gid}/events/")
    listed = events if isinstance(events, list) else events.get("events", events.get("results"))
    assert [e["seq"] for e in listed][-1] == final
    # Every client connection of the server shared the one backend: transaction pooling.
    assert len(clients) >= 2 and len(servers) == 1, (clients, servers)
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}") as direct:
        backends = direct.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND datname = %s",
            [SERVICE_ROLE, name]).fetchone()[0]  # fmt: skip
    assert backends == 1
    told = log.read_text()
    assert "Traceback" not in told and "prepared statement" not in told, told[-3000:]
    assert "prepared statement" not in pgbouncer.log_tail(workdir, 100_000)
