"""bench-nodes in docker-compose.yml's shape past one of each (issue 20): PgBouncer in transaction
mode in front of PostgreSQL (tests/support/pgbouncer.py, deploy/pgbouncer.ini's settings) and
the live stream's channel layer over two Redis servers of the run's own (CHANNEL_REDIS_URLS),
with Celery's broker left alone on the run's Redis (the one bench-faults restarts). `start`
returns what every service process the stack starts must have in its environment; the
benchmark's own process keeps the direct database URL (a fresh database, the audits, the CPU
readings).
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from urllib.parse import urlparse

from bench.harness import env
from bench.harness.redis_server import Redis
from tests.support import pgbouncer

BOUNCER_PORT = 6435  # tests/core/test_pgbouncer.py has 6433 and 6434
CHANNEL_PORT_OFFSETS = (3, 4)  # the run's Redis port + these: 6393, 6394 (the tests: 6391, 6392)


@dataclass
class ScaledOut:
    """What `start` started: the environment of every service process, the channel layer's
    Redis ports."""

    env: dict[str, str] = field(default_factory=dict)
    channel_ports: list[int] = field(default_factory=list)


def start(cleanup: ExitStack, redis_port: int) -> ScaledOut:
    """PgBouncer in front of the run's database and the channel layer on two more Redis
    servers, all stopped when `cleanup` closes."""
    scaled = ScaledOut()
    scaled.env.update(through_pgbouncer(cleanup))
    scaled.channel_ports = channel_layer_on_two_redis(cleanup, redis_port)
    scaled.env["CHANNEL_REDIS_URLS"] = ",".join(
        f"redis://127.0.0.1:{port}/0" for port in scaled.channel_ports
    )
    return scaled


def through_pgbouncer(cleanup: ExitStack) -> dict[str, str]:
    """Start PgBouncer in front of the run's database (until `cleanup` closes); the service
    processes connect through it with SEJMI_PGBOUNCER=1 (the environment returned)."""
    url = urlparse(env.DATABASE_URL)
    user = url.username or "postgres"
    cleanup.enter_context(pgbouncer.running(BOUNCER_PORT, users=(user,)))
    bounced = url._replace(netloc=f"{user}@127.0.0.1:{BOUNCER_PORT}").geturl()
    return {"DATABASE_URL": bounced, "SEJMI_PGBOUNCER": "1"}


def channel_layer_on_two_redis(cleanup: ExitStack, redis_port: int) -> list[int]:
    """Two more Redis servers (no persistence) carrying the channel layer's groups; their
    ports."""
    servers = [Redis(redis_port + k) for k in CHANNEL_PORT_OFFSETS]
    for server in servers:
        server.start()
        cleanup.callback(server.stop)
    return [s.port for s in servers]


def figures(scaled: ScaledOut) -> dict:
    """What each channel-layer Redis carried (its PUBLISH and SUBSCRIBE calls so far), and
    PgBouncer's pools: read before the stack stops."""
    import redis

    out: dict = {"channel_redis": {}}
    for port in scaled.channel_ports:
        client = redis.Redis(port=port)
        stats = client.info("commandstats")
        client.close()
        out["channel_redis"][port] = {
            what: stats.get(f"cmdstat_{what}", {}).get("calls", 0)
            for what in ("publish", "subscribe", "unsubscribe")
        }
    if scaled.env.get("SEJMI_PGBOUNCER"):
        out["pgbouncer"] = {"port": BOUNCER_PORT,
                            "settings": {k: v for k, v in pgbouncer.settings().items()
                                         if k in ("pool_mode", "default_pool_size",
                                                  "reserve_pool_size")}}  # fmt: skip
    return out
