"""The processes of `make bench-load` on loopback, each of which a fault may kill and restart:
a Redis of the benchmark's own, web nodes (docker-compose.yml's uvicorn command, one process
group per node), Celery workers (compose's worker command), one Celery beat, the deadline
runner (compose's `manage.py run_deadlines`) and, with two nodes, HAProxy in front
(bench/harness/haproxy.cfg).

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

from bench.harness import env, scale_out
from bench.harness.redis_server import Redis

HAPROXY_CFG = env.ROOT / "bench" / "harness" / "haproxy.cfg"
LAYERS = {"pubsub": "sejmi.settings", "core": "bench.harness.settings_core"}


@dataclass
class Shape:
    """How every process of the stack starts: its settings module (the channel layer to use),
    where its log goes, the flags added to compose's worker command, and what a scale-out adds
    to its environment (PgBouncer, the channel layer's Redis servers)."""

    settings: str = LAYERS["pubsub"]
    logs: Path = Path("/tmp")
    worker_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def start(self, argv: list[str], log: str, **extra: str) -> subprocess.Popen:
        return env.start(argv, self.logs / log, DJANGO_SETTINGS_MODULE=self.settings,
                         **{**self.env, **extra})  # fmt: skip


def use(database_url: str, redis_port: int, layer: str = "pubsub") -> Shape:
    """Point bench.harness.env (service_env, the CPU readings) at this run's database and Redis;
    the processes' Shape, on the settings of the channel layer to use."""
    name = urlparse(database_url).path.lstrip("/")
    if not name.startswith("sejmi_bl"):
        raise SystemExit(f"bench-load's database is sejmi_bl*, not {name!r}")
    if redis_port == 6379:
        raise SystemExit("bench-load runs a Redis of its own: not on 6379, the shared one")
    env.use(database_url, f"redis://127.0.0.1:{redis_port}/0")
    return Shape(settings=LAYERS[layer])


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
    shape: Shape
    port: int = field(default_factory=env.free_port)
    proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        argv = env.uvicorn_argv(self.port, self.workers)
        self.proc = self.shape.start(argv, f"sejmi-bl-web-{self.name}-{self.port}.log")
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


def compose_worker(name: str, concurrency: int, extra: list[str] = ()) -> list[str]:
    """docker-compose.yml's Celery worker command with `--concurrency` for this machine, a
    node name of its own, warnings only in its log, and `extra` (bench-load's --worker-args:
    flags to try on compose's command)."""
    import yaml

    command = yaml.safe_load(env.COMPOSE.read_text())["services"]["worker"]["command"]
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:1] != ["celery"]:
        raise SystemExit(f"no celery command in the worker service of {env.COMPOSE}")
    words = [w for w in words[1:] if not w.startswith(("--concurrency", "--loglevel"))]
    return [str(env.BIN / "celery"), *words, f"--concurrency={concurrency}",
            "--loglevel=WARNING", "-n", f"{name}@%h", *extra]  # fmt: skip


@dataclass
class Celery:
    """A Celery worker (its process group: the main process and its pool) or the beat."""

    name: str
    argv: list[str]
    shape: Shape
    proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = self.shape.start(self.argv, f"sejmi-bl-{self.name}.log")

    def kill9(self) -> None:
        """kill -9 of the whole group: the worker and its pool children at once."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc:
            env.stop(self.proc)


def deadline_runner(shape: Shape) -> Celery:
    """docker-compose's `deadlines` service: `manage.py run_deadlines`, PostgreSQL only."""
    return Celery("deadlines", [sys.executable, "manage.py", "run_deadlines"], shape)


def beat(shape: Shape) -> Celery:
    schedule = shape.logs / "sejmi-bl-beat-schedule"
    return Celery("beat", [str(env.BIN / "celery"), "-A", "sejmi", "beat", "--loglevel=WARNING",
                           "-s", str(schedule)], shape)  # fmt: skip


@dataclass
class Stack:
    shape: Shape
    redis: Redis
    nodes: list[WebNode]
    workers: list[Celery]
    beat: Celery
    runner: Celery | None = None  # manage.py run_deadlines (None: beat alone, a comparison)
    balancer: str | None = None  # HAProxy's base URL with two nodes
    scaled: scale_out.ScaledOut | None = None  # with two nodes: PgBouncer, the channel Redis
    started_workers: int = 0

    @property
    def base(self) -> str:
        return self.balancer or self.nodes[0].base

    def new_worker(self, concurrency: int) -> Celery:
        self.started_workers += 1
        argv = compose_worker(f"bl{self.started_workers}", concurrency, self.shape.worker_args)
        worker = Celery(f"worker{self.started_workers}", argv, self.shape)
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
        out = {k: sum(env.group_cpu_s(p) for p in pids) for k, pids in groups.items()}
        return {**out, "postgres": env.postgres_cpu_s(), "client": time.process_time()}


def _haproxy(port: int, nodes: list[WebNode], logs: Path) -> subprocess.Popen:
    names = {"LB_PORT": str(port), "NODE_A_PORT": str(nodes[0].port),
             "NODE_B_PORT": str(nodes[1].port)}  # fmt: skip
    check = subprocess.run(["haproxy", "-c", "-q", "-f", str(HAPROXY_CFG)],
                           env={**os.environ, **names}, capture_output=True, text=True)  # fmt: skip
    if check.returncode:
        raise SystemExit(f"haproxy refuses {HAPROXY_CFG}: {check.stderr}")
    return env.start(["haproxy", "-db", "-f", str(HAPROXY_CFG)],
                     logs / f"sejmi-bl-haproxy-{port}.log", **names)  # fmt: skip


@contextmanager
def running(shape: Shape, *, redis_port: int, nodes: int, web_workers: int, celery_workers: int,
            concurrency: int, sweep: str = "runner"):  # fmt: skip
    """Start everything (a fresh database first), yield the Stack, stop everything after.
    sweep: "runner" as shipped (beat and `manage.py run_deadlines`), or "beat" (beat alone:
    deadlines then depend on the broker, as before run_deadlines; a comparison)."""
    # As docker-compose: with the runner, no Celery ETA task for a clock's deadline (settings).
    os.environ["SEJMI_DEADLINE_RUNNER"] = "1" if sweep == "runner" else "0"
    stack = Stack(shape, Redis(redis_port, shape.logs),
                  [WebNode(chr(ord("a") + i), web_workers, shape) for i in range(nodes)], [],
                  beat(shape), deadline_runner(shape) if sweep == "runner" else None)  # fmt: skip
    with ExitStack() as cleanup:
        stack.redis.start()
        cleanup.callback(stack.redis.stop)
        env.fresh_database(env.DATABASE_URL)
        if nodes > 1:  # compose's shape: PgBouncer, the channel layer on two Redis servers
            stack.scaled = scale_out.start(cleanup, redis_port)
            shape.env.update(stack.scaled.env)
            cleanup.callback(shape.env.clear)
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
            lb = _haproxy(port, stack.nodes, shape.logs)
            cleanup.callback(lambda: env.stop(lb))
            stack.balancer = f"http://127.0.0.1:{port}"
            env.wait_http(stack.balancer, lb)
        yield stack
