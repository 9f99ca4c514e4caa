"""Real processes on loopback, for the tests and the benchmarks alike: a free port, a server
started in a process group of its own, stopped with its children, waited for until it answers.

Free of Django at import; `test_database_url` reads the running test's connection.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
UNLIMITED = "1000000/min"


def venv_bin(name: str) -> Path:
    """An executable of this interpreter's virtualenv (uvicorn, celery)."""
    return BIN / name


def service_env(**extra: str) -> dict[str, str]:
    """The environment of a server started here: production-like settings (DEBUG off, no
    in-process runner, no rigged games, throttles out of the way) over this process's own;
    `extra` (DATABASE_URL, REDIS_URL, ...) wins."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="sejmi.settings",
        DEBUG="0",
        SEJMI_INPROCESS_RUNNER="0",
        SEJMI_ALLOW_RIGGED="0",
        SEJMI_THROTTLE_ANON=UNLIMITED,
        SEJMI_THROTTLE_USER=UNLIMITED,
        SEJMI_THROTTLE_COMMANDS=UNLIMITED,
        SEJMI_THROTTLE_REGISTER=UNLIMITED,
        LOG_LEVEL="ERROR",
    )
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(argv: Sequence[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    """`argv` in a new session (so `stop` reaches its workers), its output into `log`."""
    with open(log, "wb") as out:  # the child keeps its own handle
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


def start(argv: Sequence[str], log: Path, **env: str) -> subprocess.Popen:
    """`launch` with `service_env(**env)`."""
    return launch(argv, log, service_env(**env))


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM the process group we started (uvicorn's workers, celery's), then SIGKILL."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def wait_http(base: str, proc: subprocess.Popen, timeout: float = 30,
              tail: Callable[[], str] = str) -> None:  # fmt: skip
    """Wait until the server at `base` answers the lobby (benchmarks and the tests' live
    servers); RuntimeError, with `tail()` (its log's end), if it exits or stays silent."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}: {tail()}")
        try:
            if httpx.get(f"{base}/api/games/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {timeout} s: {tail()}")


def database_url() -> str:
    """This run's test database (pytest-django's), which a server the test starts must share."""
    from urllib.parse import quote

    from django.db import connection

    s = connection.settings_dict
    auth = quote(s["USER"] or "") + (f":{quote(s['PASSWORD'])}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
