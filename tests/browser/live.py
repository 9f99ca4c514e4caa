"""The service the browser tests drive: real processes on loopback, not Django's test client.

A fresh PostgreSQL database (`<DATABASE_URL's name>_browser_<pid>`), `manage.py migrate` into it,
and uvicorn serving sejmi.asgi on a free port, with bots and deadlines swept in-process
(SEJMI_INPROCESS_RUNNER=1, no Celery) and rigged games allowed. The channel layer is Redis
pub/sub, whose channels are global to the server whatever the DB number: group names are
`game_<id>`, so the service gets a CHANNEL_PREFIX of its own (`sejmi.<its database>.`) and
never hears another service's games. Its Redis database (SEJMI_BROWSER_REDIS_DB, default 7)
holds only what else uses REDIS_URL (nothing with the in-process runner); it is not flushed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import psycopg

from tests.support.processes import free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]
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
    """A running service: `base` is its http URL. `stop()` ends it and drops its database."""

    base: str
    process: subprocess.Popen
    admin_url: str
    database: str
    log: Path

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://", 1)

    @classmethod
    def start(cls, log: Path, timeout: float = 60) -> LiveService:
        admin, db_url = database_urls(os.getpid())
        name = urlparse(db_url).path.lstrip("/")
        _drop_leftovers(admin, name.rsplit("_", 1)[0])
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        env = _service_env(db_url, channel_prefix=f"sejmi.{name}.")
        # As production: the owner migrates and grants; the server runs as the service role.
        for step in (["migrate", "--database", "owner", "-v", "0"], _grant_step()):
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

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
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


def _drop(admin: str, name: str) -> None:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":  # `python -m tests.browser.live`: a service to poke at by hand
    service = LiveService.start(Path("/tmp") / f"sejmi-browser-{os.getpid()}.log")
    print(service.base, file=sys.stderr)
    try:
        signal.pause()
    finally:
        service.stop()
