"""The service the browser tests drive: real processes on loopback, not Django's test client.

Two databases, as the service runs on two: `LiveService.start(log)` is PostgreSQL as production
has it, `LiveService.start(log, database="sqlite")` is `make run`'s shape (a fresh SQLite file,
`manage.py migrate`, no Redis: the in-memory channel layer), which a newcomer meets first.

On PostgreSQL: a fresh database (`<DATABASE_URL's name>_browser_<pid>`), `manage.py migrate`
into it, and uvicorn serving sejmi.asgi on a free port, with bots and deadlines swept in-process
(SEJMI_INPROCESS_RUNNER=1, no Celery) and rigged games allowed. The channel layer is Redis
pub/sub, whose channels are global to the server whatever the DB number: group names are
`game_<id>`, so the service gets a CHANNEL_PREFIX of its own (`sejmi.<its database>.`) and
never hears another service's games. Its Redis database (SEJMI_BROWSER_REDIS_DB, default 7)
holds only what else uses REDIS_URL (nothing with the in-process runner); it is not flushed.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import psycopg

from tests.support.processes import free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]
# The databases of `site` (tests/conftest.py): the page flows run on both.
BOTH = ["postgresql", "sqlite"]
PYTHON = ROOT / ".venv" / "bin" / "python"
UNLIMITED = "1000000/min"  # the suite's pages and clients all come from 127.0.0.1


def database_urls(pid: int) -> tuple[str, str]:
    """(the maintenance database's URL, the fresh database's URL) on DATABASE_URL's server."""
    base = os.environ.get("DATABASE_URL", "")
    url = urlparse(base)
    if url.scheme not in ("postgres", "postgresql", "pgsql"):
        raise RuntimeError(
            "the browser tests need PostgreSQL: run `make test` or set "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/sejmi"
        )
    name = f"{url.path.lstrip('/') or 'sejmi'}_browser_{pid}"
    return url._replace(path="/postgres").geturl(), url._replace(path=f"/{name}").geturl()


def redis_url() -> str:
    """REDIS_URL's server (default 127.0.0.1:6379) with the browser suite's own DB number."""
    url = urlparse(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    return url._replace(path=f"/{os.environ.get('SEJMI_BROWSER_REDIS_DB', '7')}").geturl()


def _drop_leftovers(admin: str, stem: str) -> None:
    """Databases `<stem>_<pid>` of earlier runs whose process is gone (a killed run cannot
    drop its own)."""
    with psycopg.connect(admin, autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT datname FROM pg_database")]
        for name in names:
            head, _, pid = name.rpartition("_")
            if head == stem and pid.isdigit() and not _alive(int(pid)):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class LiveService:
    """A running service: `base` is its http URL. `stop()` ends it and drops its database.
    `admin_url` is the PostgreSQL server's maintenance database ("" on SQLite), `database` the
    service's database name (on SQLite: the file's path)."""

    base: str
    process: subprocess.Popen
    admin_url: str
    database: str
    log: Path

    @property
    def sqlite(self) -> bool:
        return not self.admin_url

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://", 1)

    @classmethod
    def start(cls, log: Path, timeout: float = 60, database: str = "postgresql") -> LiveService:
        """A service on a fresh `database`: "postgresql" (DATABASE_URL's server) or "sqlite"."""
        if database == "sqlite":
            admin, name = "", _sqlite_file()
            env = _sqlite_env(name)
            steps: list[list[str]] = [["migrate", "-v", "0"]]
        else:
            admin, db_url = database_urls(os.getpid())
            name = urlparse(db_url).path.lstrip("/")
            _drop_leftovers(admin, name.rsplit("_", 1)[0])
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')
            env = _service_env(db_url, channel_prefix=f"sejmi.{name}.")
            # As production: the owner migrates and grants; the server runs as the service role.
            steps = [["migrate", "--database", "owner", "-v", "0"], _grant_step()]
        for step in steps:
            done = subprocess.run([str(PYTHON), "manage.py", *step], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=300)  # fmt: skip
            if done.returncode != 0:
                _drop(admin, name)
                raise RuntimeError(f"{step[0]} failed:\n{done.stdout}\n{done.stderr}")
        port = free_port()
        argv = [
            str(PYTHON),
            "-m",
            "uvicorn",
            "sejmi.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
        ]
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "wb") as out:
            process = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        service = cls(f"http://127.0.0.1:{port}", process, admin, name, log)
        try:
            wait_http(service.base, service.process, timeout, tail=service.tail)
        except BaseException:
            service.stop()
            raise
        return service

    def execute(self, sql: str, params: tuple = ()) -> list[tuple]:
        """One statement straight in the service's database (as its owner), its rows. The
        placeholder is `%s` on both databases."""
        if self.sqlite:
            with sqlite3.connect(self.database, timeout=20) as conn:
                return conn.execute(sql.replace("%s", "?"), params).fetchall()
        url = urlparse(self.admin_url)._replace(path=f"/{self.database}").geturl()
        with psycopg.connect(url, autocommit=True) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else []

    def make_staff(self, username: str) -> None:
        """Make a registered user a superuser (as `createsuperuser` would): the admin is theirs."""
        self.execute("UPDATE auth_user SET is_staff = true, is_superuser = true"
                     " WHERE username = %s", (username,))  # fmt: skip

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def mark(self) -> int:
        """Where the server's log stands now (`since` reads what it logged after)."""
        try:
            return len(self.log.read_text(errors="replace").splitlines())
        except OSError:
            return 0

    def since(self, mark: int) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[mark:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        _drop(self.admin_url, self.database)


def _grant_step() -> list[str]:
    """`grant_service_role` for the role the tests run the service as (SEJMI_DB_ROLE), if any."""
    role = os.environ.get("SEJMI_DB_ROLE")
    return ["grant_service_role", "--role", role] if role else ["check"]


def _service_env(db_url: str, channel_prefix: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="tests.browser.server_settings",
        DATABASE_URL=db_url,
        REDIS_URL=redis_url(),
        CHANNEL_PREFIX=channel_prefix,  # its own, whatever the environment says
        SEJMI_ALLOW_RIGGED="1",
        SEJMI_INPROCESS_RUNNER="1",
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SEJMI_THROTTLE_ANON=UNLIMITED,
        SEJMI_THROTTLE_USER=UNLIMITED,
        SEJMI_THROTTLE_COMMANDS=UNLIMITED,
        SEJMI_THROTTLE_REGISTER=UNLIMITED,
        PYTHONPATH=str(ROOT),
    )
    return env


def _sqlite_file() -> str:
    """A fresh file for `make run`'s database, in a directory of its own."""
    return str(Path(tempfile.mkdtemp(prefix="sejmi-sqlite-")) / "db.sqlite3")


def _sqlite_env(path: str) -> dict[str, str]:
    """`make run`'s environment (no Redis, no Celery, the in-process runner) on a fresh SQLite
    file, with the browser suite's throttles and hasher."""
    env = _service_env("", channel_prefix="")
    for name in ("REDIS_URL", "CHANNEL_REDIS_URLS", "CELERY_BROKER_URL", "CHANNEL_PREFIX",
                 "MIGRATE_DATABASE_URL", "DATABASE_REPLICA_URLS", "SEJMI_DB_ROLE",
                 "SEJMI_PGBOUNCER"):  # fmt: skip
        env.pop(name, None)
    env["DATABASE_URL"] = f"sqlite:///{path}"
    return env


def _drop(admin: str, name: str) -> None:
    if not admin:  # SQLite: the file and its directory
        for path in Path(name).parent.glob("db.sqlite3*"):
            path.unlink(missing_ok=True)
        Path(name).parent.rmdir()
        return
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":  # `python -m tests.browser.live [sqlite]`: a service to poke at by hand
    service = LiveService.start(Path("/tmp") / f"sejmi-browser-{os.getpid()}.log",
                                database=(sys.argv[1:] or ["postgresql"])[0])  # fmt: skip
    print(service.base, file=sys.stderr)
    try:
        signal.pause()
    finally:
        service.stop()
