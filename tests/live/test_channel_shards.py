"""The live stream over two Redis servers (issue 20, settings' CHANNEL_REDIS_URLS): channels_redis
hashes each group's channel onto one of the hosts and subscribes it there; every publisher
(games.core.pubsub's blocking `publish`, the layer's own group_send) must send it to that same
host, or the group's sockets hear nothing. Two real redis-servers started here (ports 6391 and
6392, no persistence); two layer instances, or two uvicorn servers, are the two nodes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import uuid

import pytest
import redis
from websockets.sync.client import connect

from games.core.pubsub import PubSubLayer
from tests.support.loops import in_own_loop

PORTS = (6391, 6392)
TIMEOUT = 5  # seconds a message may take


def _ping(port: int) -> bool:
    try:
        return redis.Redis(port=port, socket_connect_timeout=0.2).ping()
    except redis.RedisError:
        return False


@pytest.fixture(scope="module")
def two_redis(tmp_path_factory):
    """Two redis-servers of this module's own; yields their URLs in the layer's order."""
    servers = []
    try:
        for port in PORTS:
            if _ping(port):
                pytest.fail(f"something already answers on Redis port {port}")
            servers.append(subprocess.Popen(
                ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(tmp_path_factory.mktemp("redis"))],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))  # fmt: skip
        deadline = time.monotonic() + 15
        while not all(_ping(p) for p in PORTS):
            assert time.monotonic() < deadline, "the two redis-servers did not come up"
            time.sleep(0.05)
        yield [f"redis://127.0.0.1:{port}/0" for port in PORTS]
    finally:
        for server in servers:
            server.kill()
            server.wait()


def _layer(urls: list[str], prefix: str) -> PubSubLayer:
    """A node's layer, configured as settings configure it from CHANNEL_REDIS_URLS."""
    return PubSubLayer(hosts=[{"address": u, "socket_connect_timeout": 1} for u in urls],
                       prefix=prefix)  # fmt: skip


def _groups_on_each_host(prefix: str) -> list[set[str]]:
    """The groups subscribed on each Redis (PUBSUB CHANNELS), by host."""
    out = []
    for port in PORTS:
        client = redis.Redis(port=port)
        names = client.pubsub_channels(f"{prefix}__group__*")
        out.append({n.decode().split("__group__", 1)[1] for n in names})
        client.close()
    return out


def test_groups_spread_over_both_redis_and_every_socket_on_both_nodes_hears_every_broadcast(
    two_redis,
):
    in_own_loop(_two_nodes(two_redis), timeout=120)


async def _two_nodes(urls: list[str]) -> None:
    prefix = f"shards.{uuid.uuid4().hex[:8]}."
    node_a, node_b, runner = (_layer(urls, prefix) for _ in range(3))  # runner: publish only
    groups = [f"game_{n}" for n in range(1, 17)]
    sockets: dict[str, list[tuple[PubSubLayer, str]]] = {g: [] for g in groups}
    for group in groups:
        for node in (node_a, node_a, node_b):  # two sockets on node a, one on node b
            channel = await node.new_channel()
            await node.group_add(group, channel)
            sockets[group].append((node, channel))
    try:
        on_host = _groups_on_each_host(prefix)
        assert all(on_host), f"every group landed on one Redis: {on_host}"
        assert on_host[0] | on_host[1] == set(groups) and not on_host[0] & on_host[1]
        for group in groups:  # where publish sends it is where the nodes subscribed it
            assert group in on_host[runner.host_index(group)]

        for group in groups:
            # The deadline runner's (or a request thread's) blocking publish, then node b's
            # own async group_send.
            await asyncio.to_thread(runner.publish, group, {"type": "t.blocking", "g": group})
            await node_b.group_send(group, {"type": "t.async", "g": group})
        for group in groups:
            for node, channel in sockets[group]:
                got = [await asyncio.wait_for(node.receive(channel), TIMEOUT) for _ in range(2)]
                assert got == [{"type": "t.blocking", "g": group},
                               {"type": "t.async", "g": group}], (group, channel)  # fmt: skip
        for node, channel in (s for group in groups for s in sockets[group]):
            with pytest.raises(asyncio.TimeoutError):  # nothing of another group
                await asyncio.wait_for(node.receive(channel), 0.05)
    finally:
        for node in (node_a, node_b, runner):
            await node.flush()


def test_one_host_list_is_the_single_redis_url(settings):
    """Without CHANNEL_REDIS_URLS the layer has REDIS_URL alone (as before)."""
    import os

    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    if os.environ.get("CHANNEL_REDIS_URLS"):
        pytest.skip("CHANNEL_REDIS_URLS is set for this run")
    assert [h["address"] for h in hosts] == [settings.REDIS_URL]


# Two uvicorn servers (two nodes) on the test database, each with the two Redis servers.


@pytest.fixture(scope="module")
def two_nodes(two_redis, django_db_setup, django_db_blocker, tmp_path_factory):
    from django.conf import settings

    from tests.support.processes import database_url as _database_url
    from tests.support.processes import free_port, start, stop, wait_http
    from tests.support.processes import venv_bin as _venv_bin

    with django_db_blocker.unblock():
        url = _database_url()
    prefix = f"shards.{uuid.uuid4().hex[:8]}."
    nodes, bases = [], []
    try:
        for name in ("a", "b"):
            port = free_port()
            log = tmp_path_factory.mktemp(f"node_{name}") / "uvicorn.log"
            argv = [str(_venv_bin("uvicorn")), "sejmi.asgi:application", "--host", "127.0.0.1",
                    "--port", str(port), "--workers", "1", "--no-access-log"]  # fmt: skip
            nodes.append(start(argv, log, DATABASE_URL=url, REDIS_URL=settings.REDIS_URL,
                               CHANNEL_REDIS_URLS=",".join(two_redis), CHANNEL_PREFIX=prefix,
                               LOG_LEVEL="WARNING"))  # fmt: skip
            bases.append(f"http://127.0.0.1:{port}")
            wait_http(
                bases[-1], nodes[-1], timeout=60, tail=lambda log=log: log.read_text()[-2000:]
            )
        yield bases, prefix
    finally:
        for node in nodes:
            stop(node)


@pytest.mark.django_db(transaction=True)
def test_spectators_on_both_nodes_get_every_event_of_games_on_both_redis(two_nodes, two_redis):
    from tests.browser.api import register

    (node_a, node_b), prefix = two_nodes
    layer = _layer(two_redis, prefix)
    alice, bob = register(node_b, "shd"), register(node_a, "shd")
    games: list[int] = []
    while len(games) < 4 or len({layer.host_index(f"game_{g}") for g in games}) < 2:
        assert len(games) < 24, "24 games, all hashed onto one Redis"
        gid = alice.create_game(2)
        alice.join(gid)
        bob.join(gid)
        games.append(gid)
    opened = []
    try:
        for gid in games:
            for base in (node_a, node_b):
                ws = base.replace("http://", "ws://") + f"/ws/games/{gid}/"
                opened.append((gid, connect(ws, additional_headers={"Origin": base},
                                            open_timeout=15)))  # fmt: skip
        spread = _groups_on_each_host(prefix)
        assert all(spread), f"the games' groups all on one Redis: {spread}"
        finals = {}
        for gid in games:
            for move in range(4):  # through node b, then node a, ... (whoever may act)
                for player in (alice, bob):
                    view = player.view(gid)
                    if view["legal"]:
                        player.command(gid, view["legal"][move % len(view["legal"])],
                                       seq=view["seq"])  # fmt: skip
            finals[gid] = alice.view(gid)["seq"]
        for gid, sock in opened:
            first = json.loads(sock.recv(timeout=15))
            assert first["type"] == "view"
            seen, last = [], first["view"]["seq"]
            while last < finals[gid]:
                frame = json.loads(sock.recv(timeout=15))
                if frame["type"] == "event":
                    seen.append(frame["event"]["seq"])
                    last = seen[-1]
            assert seen == list(range(first["view"]["seq"] + 1, finals[gid] + 1)), gid
    finally:
        for _, sock in opened:
            sock.close()
