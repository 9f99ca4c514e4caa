"""No Redis, no 500 (issue 21): throttling and tickets count in the cache (a Redis in
production, CACHE_URL). While that Redis is down — or black-holed: a port that takes the
connection and never answers — reads and moves go on, throttles let requests through, a ticket
is refused 503 `unavailable` with Retry-After, and nothing waits past the clients' timeouts."""

from __future__ import annotations

import socket
import subprocess
import time
from contextlib import closing

import pytest

from tests.support.processes import free_port

RIG = {"first": 0, "hands": [["C06"], ["C34"]], "deck": ["C10", "C11", "C12"]}
CLIENT_TIMEOUT_S = 1.0  # the Redis clients' connect and socket timeouts (settings)


@pytest.fixture
def cache_redis(settings, tmp_path):
    """A Redis of its own as the cache, as compose's CACHE_URL; the test may kill it."""
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    settings.CACHES = _redis_cache(f"redis://127.0.0.1:{port}/0")
    yield server
    server.kill()
    server.wait()


def _redis_cache(url: str) -> dict:
    from sejmi.settings import redis_cache

    return {"default": redis_cache(url)}


def _game(make_player) -> tuple[object, object, int]:
    alice, bob = make_player(), make_player()
    gid = alice.post("/api/games/", {"seats": 2, "rig": RIG}, format="json").json()["id"]
    for client in (alice, bob):
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    return alice, bob, gid


@pytest.mark.django_db
def test_with_the_caches_redis_down_reads_and_moves_go_on_and_tickets_say_503(
    cache_redis, make_player, rigged
):
    alice, bob, gid = _game(make_player)
    assert alice.post("/api/ws-ticket/", {}, format="json").status_code == 200  # Redis is up

    cache_redis.kill()
    cache_redis.wait()

    view = alice.get(f"/api/games/{gid}/")
    assert view.status_code == 200
    play = {"expected_seq": view.json()["seq"], "type": "play", "card": "C06", "effect": 1,
            "scope": "all", "target": None}  # fmt: skip
    moved = alice.post(f"/api/games/{gid}/commands/", play, format="json",
                       HTTP_IDEMPOTENCY_KEY="outage-1")  # fmt: skip
    assert moved.status_code == 200, moved.content
    assert bob.get(f"/api/games/{gid}/events/").status_code == 200
    ticket = alice.post("/api/ws-ticket/", {}, format="json")
    assert ticket.status_code == 503, ticket.content
    assert ticket.json()["error"]["code"] == "unavailable" and ticket["Retry-After"]


@pytest.mark.django_db
def test_a_black_holed_cache_answers_within_the_clients_timeouts(settings, make_player, rigged):
    """A port that accepts the connection and never answers: each cache call gives up after
    the clients' timeouts, so a request is answered in seconds, not minutes."""
    with closing(socket.socket()) as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(64)  # the kernel completes the handshake; nobody ever reads or answers
        settings.CACHES = _redis_cache(f"redis://127.0.0.1:{hole.getsockname()[1]}/0")
        player = make_player()
        started = time.monotonic()
        lobby = player.get("/api/games/")
        ticket = player.post("/api/ws-ticket/", {}, format="json")
        took = time.monotonic() - started
    assert lobby.status_code == 200
    assert ticket.status_code == 503
    # Three throttle reads, a ticket write: each waits one socket timeout at most.
    assert took < 10 * CLIENT_TIMEOUT_S, took


def test_a_black_holed_channel_layer_gives_up_publishing_within_its_timeout():
    """The blocking publish every broadcast goes through (games.core.pubsub) has connect and
    socket timeouts: a commit's broadcast to a Redis that never answers fails in about a
    second (it is logged, and sockets heal from the log), instead of holding the thread."""
    import redis

    from games.core.pubsub import PubSubLayer

    with closing(socket.socket()) as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(64)
        layer = PubSubLayer(hosts=[f"redis://127.0.0.1:{hole.getsockname()[1]}/0"],
                            prefix="blackhole.")  # fmt: skip
        started = time.monotonic()
        with pytest.raises(redis.exceptions.RedisError):
            layer.publish("game_1", {"type": "game.committed"})
        took = time.monotonic() - started
    assert took < 3 * CLIENT_TIMEOUT_S, took
