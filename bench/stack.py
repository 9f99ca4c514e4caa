"""The processes of `make bench-load` on loopback, each of which a fault may kill and restart:
a Redis of the benchmark's own, web nodes (docker-compose.yml's uvicorn command, one process
group per node), Celery workers (compose's worker command), one Celery beat, the deadline
runner (compose's `manage.py run_deadlines`) and, with two nodes, HAProxy in front
(bench/haproxy.cfg).

Nothing here touches the shared Redis on 6379 or a database not named sejmi_bl*.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from bench import env

LOGS = Path("/tmp")
HAPROXY_CFG = env.ROOT / "bench" / "haproxy.cfg"
LAYERS = {"pubsub": "sejmi.settings", "core": "bench.settings_core"}
SETTINGS = LAYERS["pubsub"]  # the settings module of every process started here


def _start(argv: list[str], log: Path, **extra: str) -> subprocess.Popen:
    from bench.scale_out import SERVICE_ENV  # with two nodes: PgBouncer, the channel Redis

    return env.start(argv, log, DJANGO_SETTINGS_MODULE=SETTINGS, **{**SERVICE_ENV, **extra})


def use(database_url: str, redis_port: int, layer: str = "pubsub") -> None:
    """Point bench.env (service_env, the CPU readings) at this run's database and Redis, and
    the processes at the settings of the channel layer to use."""
    global SETTINGS
    SETTINGS = LAYERS[layer]
    name = urlparse(database_url).path.lstrip("/")
    if not name.startswith("sejmi_bl"):
        raise SystemExit(f"bench-load's database is sejmi_bl*, not {name!r}")
    if redis_port == 6379:
        raise SystemExit("bench-load runs a Redis of its own: not on 6379, the shared one")
    env.DATABASE_URL, env.REDIS_URL = database_url, f"redis://127.0.0.1:{redis_port}/0"


def fresh_database() -> None:
    """DROP and CREATE the run's sejmi_bl* database, then `manage.py migrate` into it."""
    import psycopg

    url = urlparse(env.DATABASE_URL)
    if url.hostname not in env.LOOPBACK:
        raise SystemExit(f"benchmarks run on loopback only, not {env.DATABASE_URL}")
    name = url.path.lstrip("/")
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=env.ROOT,
                   env=env.service_env(), check=True, timeout=300)  # fmt: skip


def _wait(check, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up within {timeout} s")


@dataclass
class Redis:
    """redis-server on its own port, no persistence: a restart loses every key, as a crash of
    an unpersisted Redis does (channel-layer groups, queued Celery messages)."""

    port: int

    def _cli(self, *words: str) -> subprocess.CompletedProcess:
        return subprocess.run(["redis-cli", "-p", str(self.port), *words],
                              capture_output=True, text=True, timeout=10)  # fmt: skip

    def up(self) -> bool:
        return self._cli("ping").stdout.strip() == "PONG"

    def start(self) -> None:
        if self.up():
            raise SystemExit(f"something already answers on Redis port {self.port}")
        files = LOGS / f"sejmi-bl-redis-{self.port}"
        subprocess.run(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                        "--save", "", "--appendonly", "no", "--daemonize", "yes",
                        "--maxclients", "10000", "--logfile", f"{files}.log",
                        "--pidfile", f"{files}.pid"], check=True, timeout=10)  # fmt: skip
        _wait(self.up, f"redis on {self.port}")

    def stop(self) -> None:
        self._cli("shutdown", "nosave")
        _wait(lambda: not self.up(), f"redis on {self.port} stopping", 10)

    def restart(self, down_s: float) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return sorted(out)


@dataclass
class WebNode:
    """One node: compose's uvicorn command with `workers` processes on its own port. uvicorn's
    supervisor starts a new worker when one dies (uvicorn >= 0.30)."""

    name: str
    workers: int
    port: int = field(default_factory=env.free_port)
    proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        argv = env.uvicorn_argv(self.port, self.workers)
        self.proc = _start(argv, LOGS / f"sejmi-bl-web-{self.name}-{self.port}.log")
        env.wait_http(self.base, self.proc, timeout=60)

    def worker_pids(self) -> list[int]:
        """The serving processes (multiprocessing's spawn children; not its resource tracker)."""
        return [p for p in _children(self.proc.pid) if _spawned(p)] if self.proc else []

    def kill_worker(self) -> int:
        """SIGKILL one worker process (not the supervisor); returns its pid."""
        pids = self.worker_pids()
        if not pids:
            raise RuntimeError(f"node {self.name} has no worker to kill")
        os.kill(pids[0], signal.SIGKILL)
        return pids[0]


def _spawned(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


WORKER_ARGS: list[str] = []  # bench-load's --worker-args: flags to try on compose's command


def compose_worker(name: str, concurrency: int) -> list[str]:
    """docker-compose.yml's Celery worker command with `--concurrency` for this machine, a
    node name of its own, warnings only in its log, and WORKER_ARGS."""
    import yaml

    command = yaml.safe_load(env.COMPOSE.read_text())["services"]["worker"]["command"]
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:1] != ["celery"]:
        raise SystemExit(f"no celery command in the worker service of {env.COMPOSE}")
    words = [w for w in words[1:] if not w.startswith(("--concurrency", "--loglevel"))]
    return [str(env.BIN / "celery"), *words, f"--concurrency={concurrency}",
            "--loglevel=WARNING", "-n", f"{name}@%h", *WORKER_ARGS]  # fmt: skip


@dataclass
class Celery:
    """A Celery worker (its process group: the main process and its pool) or the beat."""

    name: str
    argv: list[str]
    proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = _start(self.argv, LOGS / f"sejmi-bl-{self.name}.log")

    def kill9(self) -> None:
        """kill -9 of the whole group: the worker and its pool children at once."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc:
            env.stop(self.proc)


def deadline_runner() -> Celery:
    """docker-compose's `deadlines` service: `manage.py run_deadlines`, PostgreSQL only."""
    return Celery("deadlines", [sys.executable, "manage.py", "run_deadlines"])


def beat() -> Celery:
    schedule = LOGS / "sejmi-bl-beat-schedule"
    return Celery("beat", [str(env.BIN / "celery"), "-A", "sejmi", "beat", "--loglevel=WARNING",
                           "-s", str(schedule)])  # fmt: skip


@dataclass
class Stack:
    redis: Redis
    nodes: list[WebNode]
    workers: list[Celery]
    beat: Celery
    runner: Celery | None = None  # manage.py run_deadlines (None: beat alone, a comparison)
    balancer: str | None = None  # HAProxy's base URL with two nodes
    started_workers: int = 0

    @property
    def base(self) -> str:
        return self.balancer or self.nodes[0].base

    def new_worker(self, concurrency: int) -> Celery:
        self.started_workers += 1
        worker = Celery(f"worker{self.started_workers}",
                        compose_worker(f"bl{self.started_workers}", concurrency))  # fmt: skip
        worker.start()
        return worker

    def replace_worker(self, index: int, concurrency: int) -> None:
        """kill -9 worker `index` and start another in its place."""
        self.workers[index].kill9()
        self.workers[index] = self.new_worker(concurrency)

    def cpu(self) -> dict[str, float]:
        groups = {
            "web": [n.proc.pid for n in self.nodes if n.proc],
            "celery": [w.proc.pid for w in [*self.workers, self.beat] if w.proc],
            "deadlines": [self.runner.proc.pid] if self.runner and self.runner.proc else [],
        }
        out = {k: sum(env._group_cpu_s(p) for p in pids) for k, pids in groups.items()}
        return {**out, "postgres": env._postgres_cpu_s(), "client": time.process_time()}


def _haproxy(port: int, nodes: list[WebNode]) -> subprocess.Popen:
    names = {"LB_PORT": str(port), "NODE_A_PORT": str(nodes[0].port),
             "NODE_B_PORT": str(nodes[1].port)}  # fmt: skip
    check = subprocess.run(["haproxy", "-c", "-q", "-f", str(HAPROXY_CFG)],
                           env={**os.environ, **names}, capture_output=True, text=True)  # fmt: skip
    if check.returncode:
        raise SystemExit(f"haproxy refuses {HAPROXY_CFG}: {check.stderr}")
    return env.start(["haproxy", "-db", "-f", str(HAPROXY_CFG)],
                     LOGS / f"sejmi-bl-haproxy-{port}.log", **names)  # fmt: skip


@contextmanager
def running(*, redis_port: int, nodes: int, web_workers: int, celery_workers: int,
            concurrency: int, sweep: str = "runner"):  # fmt: skip
    """Start everything (a fresh database first), yield the Stack, stop everything after.
    sweep: "runner" as shipped (beat and `manage.py run_deadlines`), or "beat" (beat alone:
    deadlines then depend on the broker, as before run_deadlines; a comparison)."""
    # As docker-compose: with the runner, no Celery ETA task for a clock's deadline (settings).
    os.environ["SEJMI_DEADLINE_RUNNER"] = "1" if sweep == "runner" else "0"
    stack = Stack(Redis(redis_port), [WebNode(chr(ord("a") + i), web_workers)
                                      for i in range(nodes)], [], beat(),
                  deadline_runner() if sweep == "runner" else None)  # fmt: skip
    with ExitStack() as cleanup:
        stack.redis.start()
        cleanup.callback(stack.redis.stop)
        fresh_database()
        if nodes > 1:  # compose's shape: PgBouncer, the channel layer on two Redis servers
            from bench import scale_out

            scale_out.through_pgbouncer(cleanup)
            scale_out.channel_layer_on_two_redis(cleanup, redis_port)
        for node in stack.nodes:
            cleanup.callback(lambda n=node: n.proc and env.stop(n.proc))
            node.start()
        cleanup.callback(lambda: [w.stop() for w in stack.workers])
        stack.workers = [stack.new_worker(concurrency) for _ in range(celery_workers)]
        cleanup.callback(stack.beat.stop)
        stack.beat.start()
        if stack.runner:
            cleanup.callback(stack.runner.stop)
            stack.runner.start()
        if nodes > 1:
            port = env.free_port()
            lb = _haproxy(port, stack.nodes)
            cleanup.callback(lambda: env.stop(lb))
            stack.balancer = f"http://127.0.0.1:{port}"
            env.wait_http(stack.balancer, lb)
        yield stack
