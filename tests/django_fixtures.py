"""Fixtures for every Django test (loaded by tests/conftest.py when pytest-django is active).
pytest-django supplies the client, db and settings fixtures. Each fixture that tests of more
than one folder use is defined here, once; a folder's own go in its conftest.py. Helpers that
are not fixtures live in tests/support/.

Tests run against PostgreSQL: `make test` exports DATABASE_URL (and REDIS_URL). It cannot be
set here, because pytest-django loads the settings before any conftest is imported.
"""

import io
import os
from collections.abc import Iterator

import pytest
import pytest_asyncio
from django.db import connection

SERVICE_ROLE = "sejmi_app"  # the role docker-compose's service runs as (grant_service_role)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Refuse to run database tests on the SQLite dev default. Then the tests run the service
    as production does (issue 21): the test database is migrated as its owner, the service's
    role gets its grants (`grant_service_role`), and every connection of the service — this
    process's, and the servers and workers the tests start (SEJMI_DB_ROLE) — acts as that
    role, so a statement needing a right the service lacks fails here as it would there."""
    if connection.vendor != "postgresql":
        pytest.fail(
            "database tests need PostgreSQL: run `make test` or set "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/sejmi"
        )
    from django.core.management import call_command
    from django.db import connections

    with django_db_blocker.unblock():
        call_command("grant_service_role", database="default", role=SERVICE_ROLE,
                     stdout=io.StringIO())  # fmt: skip
    service = connections["default"]
    os.environ["SEJMI_DB_ROLE"] = SERVICE_ROLE
    service.settings_dict["OPTIONS"]["options"] = f"-c role={SERVICE_ROLE}"  # as settings do
    service.close()
    service.close_pool()  # pooled connections were opened as the owner
    yield
    # pytest-django drops the test database next: only its owner may.
    os.environ.pop("SEJMI_DB_ROLE", None)
    service.settings_dict["OPTIONS"].pop("options", None)
    service.close()
    service.close_pool()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Registration hashes a password; the default hasher costs ~0.3 s a user on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _followers_inline(settings, monkeypatch):
    """The followers (notifications, ratings, stats: games.core.followers) catch a game up
    right after each COMMIT in the committing thread, so a test reads what they did at once.
    Tests of the other ways of waking them set SEJMI_FOLLOW themselves.

    A test without `transaction=True` runs inside a transaction of its own that never commits,
    so no on-commit callback would ever run: there the wake-up runs when the service's own
    outermost transaction ends (what would have been its COMMIT), unless it was rolled back."""
    from django.db import transaction

    from games.core import followers

    settings.SEJMI_FOLLOW = "inline"
    woken: list[int] = []
    on_commit_wake, atomic_exit = followers.on_commit_wake, transaction.Atomic.__exit__

    def under_the_test_only() -> bool:
        blocks = transaction.get_connection().atomic_blocks
        return bool(blocks) and all(getattr(a, "_from_testcase", False) for a in blocks)

    def wake_later(game_id: int) -> None:
        blocks = transaction.get_connection().atomic_blocks
        if blocks and getattr(blocks[0], "_from_testcase", False):
            woken.append(game_id)
        else:
            on_commit_wake(game_id)

    def exit_then_wake(self, exc_type, exc_value, traceback):
        done = atomic_exit(self, exc_type, exc_value, traceback)
        if woken and under_the_test_only():
            games = list(dict.fromkeys(woken))
            woken.clear()
            if exc_type is None:
                for game_id in games:
                    followers.wake(game_id)
        return done

    monkeypatch.setattr(followers, "on_commit_wake", wake_later)
    monkeypatch.setattr(transaction.Atomic, "__exit__", exit_then_wake)


@pytest.fixture(scope="session", autouse=True)
def _flush_through_the_truncate_guard():
    """transactional_db tests end with a flush: one TRUNCATE of every table, which the
    append-only tables refuse (games/append_only.py). Between tests only, the flush switches
    their TRUNCATE guard off and on again in its own transaction, as the tables' owner may."""
    from unittest import mock

    from django.db.backends.postgresql.operations import DatabaseOperations

    from games.append_only import APPEND_ONLY

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, **options):
        sql = original(self, style, tables, **options)
        guards = [(table, guard) for table, (_, guard) in APPEND_ONLY.items() if table in tables]
        if not sql or not guards:
            return sql
        off = [f"ALTER TABLE {table} DISABLE TRIGGER {guard};" for table, guard in guards]
        on = [f"ALTER TABLE {table} ENABLE TRIGGER {guard};" for table, guard in guards]
        # Only the owner may switch a trigger off, or TRUNCATE: the flush steps out of the
        # service's role (SET ROLE, above) and back.
        role = os.environ.get("SEJMI_DB_ROLE")
        out, back = (["SET ROLE NONE;"], [f"SET ROLE {role};"]) if role else ([], [])
        return [*out, *off, *sql, *on, *back]

    with mock.patch.object(DatabaseOperations, "sql_flush", sql_flush):
        yield


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Every test starts with no throttle counted: the counters live in the cache."""
    from django.core.cache import cache

    cache.clear()
    yield


# --- players ----------------------------------------------------------------------------------


@pytest.fixture
def make_player(db):
    """`make_player(name=None)` → an APIClient registered and authenticated by token."""
    from tests.support.players import register

    return lambda name=None: register(name=name)


@pytest.fixture
def player(make_player):
    return make_player()


@pytest.fixture
def trio(make_player):
    return make_player("alice"), make_player("bob"), make_player("carol")


@pytest.fixture
def make_staff(make_player):
    """`make_staff()` → a registered player whose account is staff (is_staff)."""
    from rest_framework.authtoken.models import Token

    def make():
        client = make_player()
        user = Token.objects.get(user__username=client.username).user
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        return client

    return make


# --- settings ---------------------------------------------------------------------------------


@pytest.fixture
def rigged(settings):
    """Rigged games allowed (SEJMI_ALLOW_RIGGED; API.md: tests and demos only): decks and hands
    the test chooses."""
    settings.SEJMI_ALLOW_RIGGED = True


@pytest.fixture
def no_throttles(monkeypatch):
    """DRF's rates out of the way: a test that plays whole games for several roles sends more
    requests a minute than the anonymous rate allows, which is not what it is about."""
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    rates = {scope: "1000000/min" for scope in SimpleRateThrottle.THROTTLE_RATES}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()


@pytest.fixture
def no_celery(settings):
    """Nothing sent to Celery at commit: the test moves bots itself (games.tasks.sweep)."""
    settings.SEJMI_SEND_TASKS = False


# --- a rigged table and its sockets (tests/support/sockets.py) --------------------------------


@pytest.fixture
def table(settings, make_player):
    """A rigged three-seat game of new players, started, seat 0 on turn."""
    from tests.support.sockets import new_table

    settings.SEJMI_ALLOW_RIGGED = True
    return new_table(make_player)


@pytest_asyncio.fixture
async def sockets():
    """`open(gid, token=None, headers=...)` → (communicator, first view); all closed at the end."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    from tests.support.sockets import TIMEOUT, communicator

    opened = []

    async def open_(gid: int, token: str | None = None, headers=None):
        sock = communicator(gid, token, headers)
        opened.append(sock)
        connected, code = await sock.connect(timeout=TIMEOUT)
        assert connected, code
        first = await sock.receive_json_from(timeout=TIMEOUT)
        assert first["type"] == "view", first
        return sock, first["view"]

    yield open_
    for sock in opened:
        await sock.disconnect()
    await sync_to_async(connections.close_all)()  # the ORM's worker thread lets go of the test DB


WS_TIMEOUT = 10  # seconds a websocket may take to connect (a busy 2-core machine)


@pytest_asyncio.fixture
async def open_socket():
    """`await open_socket(gid, token=None)` → a connected WebsocketCommunicator through the whole
    ASGI stack (origin check, token auth by header, channels_redis). Every socket is closed at
    the end."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    opened = []

    async def open_(gid: int, token: str | None = None):
        from sejmi.asgi import application

        headers = [(b"origin", b"http://localhost")]
        if token is not None:  # API.md: the same auth as REST (no secret in the URL)
            headers.append((b"authorization", f"Token {token}".encode()))
        sock = WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)
        connected, code = await sock.connect(timeout=WS_TIMEOUT)
        assert connected, f"socket to game {gid} refused: {code}"
        opened.append(sock)
        return sock

    yield open_
    for sock in opened:
        await sock.disconnect()
    await sync_to_async(connections.close_all)()  # the ORM's worker thread lets go of the DB


# --- real processes ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def uvicorn_server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """A real uvicorn with two worker processes on loopback, on this run's test database
    (tests that use it need django_db(transaction=True), so the server sees their rows).
    Yields its base URL, e.g. http://127.0.0.1:PORT."""
    from django.conf import settings

    from tests.support.processes import database_url, free_port, start, stop, venv_bin, wait_http

    port = free_port()
    log = tmp_path_factory.mktemp("uvicorn") / "uvicorn.log"
    argv = [str(venv_bin("uvicorn")), "sejmi.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--workers", "2", "--no-access-log"]  # fmt: skip
    with django_db_blocker.unblock():
        url = database_url()
    # CHANNEL_PREFIX: this process's (derived from the configured database name, not the test
    # one), so the server's sockets hear what this process commits and broadcasts.
    server = start(argv, log, DATABASE_URL=url, REDIS_URL=settings.REDIS_URL or "",
                   CHANNEL_PREFIX=settings.CHANNEL_PREFIX, SEJMI_ALLOW_RIGGED="1",
                   LOG_LEVEL="ERROR")  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base, server, timeout=60, tail=lambda: log.read_text()[-2000:])
        yield base
    finally:
        stop(server)


@pytest.fixture
def celery_deadline_worker(transactional_db, settings):
    """A real Celery worker consuming the Redis broker in a thread of this process (so it sees
    committed data only: use it with django_db(transaction=True)). Yields a TaskProbe; fails
    the test if any task raised."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_failure, task_postrun
    from kombu.asynchronous import set_event_loop

    from sejmi.celery import app
    from tests.support.celery_probe import TaskProbe

    if not settings.SEJMI_SEND_TASKS:
        pytest.fail("deadline tests need REDIS_URL set and SEJMI_INPROCESS_RUNNER off (make test)")
    app.control.purge()  # tasks left by earlier tests that ran without a worker
    probe = TaskProbe()
    task_postrun.connect(probe.finished, weak=False)
    task_failure.connect(probe.failed, weak=False)
    # kombu keeps one event loop per process; a stopped worker's loop still drives that
    # worker's timer, so a new worker would never fire its ETA tasks: give it a fresh loop.
    set_event_loop(None)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
            yield probe
    finally:
        task_postrun.disconnect(probe.finished)
        task_failure.disconnect(probe.failed)
        set_event_loop(None)
    assert not probe.failures, probe.failures
