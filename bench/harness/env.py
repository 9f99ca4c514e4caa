"""Where the benchmarks run: a fresh database, a private Redis database, servers on loopback.

BENCH_DATABASE_URL  default postgres://postgres@127.0.0.1:5432/sejmi_bench (dropped and
                    created afresh by `prepare`, so test databases are never touched)
BENCH_REDIS_URL     default redis://127.0.0.1:6379/14 (flushed before and after a run)
Both must point at loopback; anything else is refused. bench-load points them at its own run's
(`use`). Starting, stopping and waiting for a process is tests/support/processes.py's, shared
with the tests; here it gets the bench's environment.
"""

from __future__ import annotations

import math
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from tests.support import processes
from tests.support.processes import BIN, ROOT, free_port, stop, wait_http

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sejmi_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
BENCH_DATABASES = ("sejmi_bench", "sejmi_bl")  # the only names a benchmark drops and recreates


def _loopback_only(url: str) -> None:
    if urlparse(url).hostname not in LOOPBACK:
        raise SystemExit(f"benchmarks run on loopback only, not {url}")


def use(database_url: str, redis_url: str) -> None:
    """This run's database and Redis (bench-load's, not the defaults): for service_env, the
    fresh database and the CPU readings."""
    global DATABASE_URL, REDIS_URL
    _loopback_only(database_url)
    _loopback_only(redis_url)
    DATABASE_URL, REDIS_URL = database_url, redis_url


def service_env(**extra: str) -> dict[str, str]:
    """The environment of the bench process and of the servers it starts: production-like
    settings (DEBUG off, throttles out of the way, tests/support/processes.service_env) on the
    bench database and Redis."""
    return processes.service_env(**{"DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL, **extra})


def fresh_database(database_url: str = DATABASE_URL, **env: str) -> None:
    """DROP and CREATE a bench database (sejmi_bench* or bench-load's sejmi_bl* only), then
    `manage.py migrate` into it."""
    import psycopg

    _loopback_only(database_url)
    url = urlparse(database_url)
    name = url.path.lstrip("/")
    if not name.startswith(BENCH_DATABASES):
        raise SystemExit(f"refusing to recreate {name!r}: a bench database is sejmi_bench* or"
                         " sejmi_bl*")  # fmt: skip
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT,
                   env=service_env(DATABASE_URL=database_url, **env), check=True,
                   timeout=300)  # fmt: skip


def flush_redis(url: str | None = None) -> None:
    """FLUSHDB of the bench's Redis database (or of `url`'s)."""
    import redis

    client = redis.Redis.from_url(url or REDIS_URL)
    client.flushdb()
    client.close()


def prepare() -> None:
    """Fresh database and Redis DB; this process set up for Django on them."""
    _loopback_only(DATABASE_URL)
    _loopback_only(REDIS_URL)
    fresh_database()
    flush_redis()
    os.environ.update(service_env())
    import django

    django.setup()


def start(argv: Sequence[str], log: Path, **env: str) -> subprocess.Popen:
    """`argv` in a process group of its own, in service_env(**env), its output into `log`."""
    return processes.launch(argv, log, service_env(**env))


COMPOSE = ROOT / "docker-compose.yml"


def compose_uvicorn() -> list[str]:
    """The uvicorn command of docker-compose.yml's web service, as its words: the production
    command, so that the benchmarks run the server as shipped (`sh -c "migrate && collectstatic
    && uvicorn ..."`: the last step)."""
    import yaml

    command = yaml.safe_load(COMPOSE.read_text())["services"]["web"]["command"]
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:2] == ["sh", "-c"]:
        words = shlex.split(words[2].split("&&")[-1])
    if words[:1] == ["exec"]:  # the shell hands its process over to uvicorn (signals reach it)
        words = words[1:]
    if not words or words[0] != "uvicorn":
        raise SystemExit(f"no uvicorn command in the web service of {COMPOSE}: {command!r}")
    return words


def _with(argv: list[str], flag: str, value: str) -> list[str]:
    """argv with `flag value` set: the value replaced where the flag stands, else appended."""
    if flag in argv:
        at = argv.index(flag) + 1
        return [*argv[:at], value, *argv[at + 1 :]]
    return [*argv, flag, value]


def uvicorn_argv(port: int | str, workers: int = 2, ws_deflate: bool | None = None,
                 ws: str | None = None) -> list[str]:  # fmt: skip
    """docker-compose.yml's uvicorn command on loopback: `--host 127.0.0.1`, `--port port`,
    `--workers workers` (compose's ${WEB_WORKERS:-4}); every other option as compose has it.
    ws_deflate sets `--ws-per-message-deflate`, ws uvicorn's `--ws` implementation (None: as
    compose has it)."""
    argv = [str(BIN / "uvicorn"), *compose_uvicorn()[1:]]
    argv = _with(_with(_with(argv, "--host", "127.0.0.1"), "--port", str(port)),
                 "--workers", str(workers))  # fmt: skip
    if ws_deflate is not None:
        argv = _with(argv, "--ws-per-message-deflate", str(ws_deflate).lower())
    if ws is not None:
        argv = _with(argv, "--ws", ws)
    return argv


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of one process (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def group_cpu_s(pgid: int) -> float:
    """CPU seconds of every live process in a process group (a server and its workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[2]) == pgid:
                total += cpu_s(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


def group_rss_kb(pgid: int) -> int:
    """Resident memory (KiB) of every live process in a process group."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[2]) != pgid:
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, ValueError, IndexError):
            continue
        total += next((int(line.split()[1]) for line in status.splitlines()
                       if line.startswith("VmRSS:")), 0)  # fmt: skip
    return total


def postgres_cpu_s() -> float:
    """CPU seconds of the PostgreSQL backends connected to the bench database now."""
    import psycopg

    sql = ("SELECT pid FROM pg_stat_activity"
           " WHERE datname = current_database() AND pid <> pg_backend_pid()")  # fmt: skip
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        pids = [row[0] for row in conn.execute(sql)]
    return sum(cpu_s(pid) for pid in pids)


@dataclass(frozen=True)
class Running:
    """A started server: its base URL, and where its CPU time can be read."""

    base: str
    web: int  # process group ids
    celery: int
    runner: int

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far: web workers, Celery worker, the deadline runner, the bench DB's
        backends, this process (the benchmark's clients)."""
        return {"web": group_cpu_s(self.web), "celery": group_cpu_s(self.celery),
                "runner": group_cpu_s(self.runner), "postgres": postgres_cpu_s(),
                "client": time.process_time()}  # fmt: skip


def cpu_per(before: dict[str, float], after: dict[str, float], units: int) -> dict[str, float]:
    """CPU milliseconds per unit of work, by process kind, between two Running.cpu() readings.
    (PostgreSQL backends that closed in between are missed; the pool keeps them open.)"""
    return {k: round((after[k] - before[k]) * 1000 / max(units, 1), 2) for k in after}


@contextmanager
def server(*, ws_deflate: bool | None = None, ws: str | None = None, workers: int = 2,
           logs: Path = Path("/tmp"), web_env: dict[str, str] | None = None,
           ) -> Iterator[Running]:  # fmt: skip
    """The production shape of docker-compose.yml on a free loopback port: its uvicorn command
    with `workers` processes (uvicorn_argv), one Celery worker and the deadline runner
    (`manage.py run_deadlines`), all on sejmi.settings as shipped (service_env: DEBUG off,
    throttles raised) with compose's SEJMI_DEADLINE_RUNNER=1, so that no clock's deadline is
    a Celery task (issue 19); yields it running, stops them after. ws_deflate, ws: uvicorn's
    --ws-per-message-deflate, --ws instead of compose's (for a comparison); web_env: more
    environment for the web workers (LOG_LEVEL=WARNING, production's, to read their warnings)."""
    port = free_port()
    shipped = {"SEJMI_DEADLINE_RUNNER": "1"}  # docker-compose.yml's x-env
    web = start(uvicorn_argv(port, workers, ws_deflate, ws), logs / f"sejmi-bench-web-{port}.log",
                **shipped, **(web_env or {}))  # fmt: skip
    celery_argv = [str(BIN / "celery"), "-A", "sejmi", "worker", "--pool", "solo",
                   "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
                   "--without-heartbeat"]  # fmt: skip
    celery = start(celery_argv, logs / f"sejmi-bench-celery-{port}.log", **shipped)
    runner = start([sys.executable, "manage.py", "run_deadlines"],
                   logs / f"sejmi-bench-runner-{port}.log", **shipped)  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base, web)
        yield Running(base, web.pid, celery.pid, runner.pid)
    finally:
        stop(web)
        stop(celery)
        stop(runner)


@contextmanager
def web_only(log: Path, **env: str) -> Iterator[str]:
    """docker-compose.yml's uvicorn command (2 workers) alone on a free loopback port; yields
    its base URL, stops its process group after."""
    port = free_port()
    web = start(uvicorn_argv(port, 2), log, **env)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base, web)
        yield base
    finally:
        stop(web)


def code_version() -> str:
    """The commit measured (BENCH_COMMIT names it when the tree is an exported snapshot)."""
    if os.environ.get("BENCH_COMMIT"):
        return os.environ["BENCH_COMMIT"]
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()  # fmt: skip
    return (head.stdout.strip() or "unknown") + (" with uncommitted changes" if dirty else "")


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty sample."""
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (5 min {five:.2f})"
