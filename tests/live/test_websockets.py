"""The live stream `/ws/games/{id}/` (API.md, Live stream) through the whole ASGI stack: origin
check, token/session auth, the consumer, and channels_redis on Redis. Commands go through the
REST API (or the service), so every broadcast is the real after-commit one."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from contextlib import contextmanager
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.db import connections, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.core import pubsub
from games.core.models import GameEvent, GameProjection
from games.live import consumer, render
from games.table import commands, publish, selectors
from tests.support.loops import in_own_loop
from tests.support.sockets import (
    HANDS,
    PASS,
    PLAY,
    QUIET,
    TIMEOUT,
    change,
    command,
    communicator,
    rest,
    rest_events,
)


def seqs(events: list[dict]) -> list[int]:
    return [e["seq"] for e in events]


@contextmanager
def broadcasts_lost(settings):
    """Group messages sent inside are lost, as when a channel is past its capacity: they go to
    a Redis prefix no socket listens on (the real layer, nothing mocked)."""
    layers = settings.CHANNEL_LAYERS
    default = layers["default"]
    settings.CHANNEL_LAYERS = {"default": {**default, "CONFIG": {**default["CONFIG"],
                                                                  "prefix": "lost"}}}  # fmt: skip
    try:
        yield
    finally:
        settings.CHANNEL_LAYERS = layers


def test_the_live_stream_runs_on_channels_redis_pubsub_with_this_runs_own_prefix(settings):
    """Pub/sub channels are global to the Redis server (DB numbers do not separate them): the
    prefix comes from CHANNEL_PREFIX or the database's name, so runs never hear each other."""
    layer = settings.CHANNEL_LAYERS["default"]
    assert layer["BACKEND"] == "games.core.pubsub.PubSubLayer"
    assert isinstance(get_channel_layer(), RedisPubSubChannelLayer)
    name = connections["default"].settings_dict["NAME"]  # test_<the configured name>
    prefix = layer["CONFIG"]["prefix"]
    assert prefix == settings.CHANNEL_PREFIX
    if not os.environ.get("CHANNEL_PREFIX"):
        assert prefix.startswith("sejmi.") and name.endswith(prefix[len("sejmi.") : -1])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_still_hears_its_game_after_redis_lost_every_key(table, sockets):
    """A Redis restart without persistence loses every key; channels_redis's core layer kept
    group membership in keys (and let it expire after a day): the socket fell silent for good.
    Membership now lives in each process's subscriptions, which no key loss touches."""
    sock, first = await sockets(table.gid, table.tokens[0])
    await sync_to_async(_lose_every_key_of_the_layer)()
    await command(table, 0, PLAY)
    events, view = await change(sock)
    assert seqs(events) == list(range(first["seq"] + 1, view["seq"] + 1))


def test_the_sockets_of_one_process_share_one_decode_of_a_group_message():
    """A committed batch carries the game's state: every socket of the group in this
    process gets the one decoded message (each decoded it again: bench-load, 8.7 % of the web
    workers' CPU); the next message is decoded anew."""
    in_own_loop(_two_messages_to_three_sockets())


async def _two_messages_to_three_sockets() -> None:
    layer = get_channel_layer()
    group = f"decode_{uuid.uuid4().hex}"
    channels = [await layer.new_channel() for _ in range(3)]
    for name in channels:
        await layer.group_add(group, name)
    try:
        sent = [{"type": "game.committed", "seq": n, "state": {"hands": [[n, 2], [3]]}}
                for n in (1, 2)]  # fmt: skip
        got = []
        for message in sent:
            await layer.group_send(group, message)
            got.append([await asyncio.wait_for(layer.receive(c), 5) for c in channels])
        for message, received in zip(sent, got, strict=True):
            assert received[0] == message
            assert all(r is received[0] for r in received)
        assert got[0][0] is not got[1][0]
    finally:
        for name in channels:
            await layer.group_discard(group, name)


def test_broadcasts_from_threads_keep_one_redis_connection():
    """A broadcast is sent from a plain thread (a request's, the deadline runner's, a Celery
    worker's): async_to_sync handed it to the web worker's loop, or, without one, made a
    thread, an event loop and a Redis connection for every broadcast (a tenth of the runner's
    CPU in bench-load). games.core.pubsub publishes from the thread itself on one client:
    five broadcasts, at most one new connection."""
    import redis
    from django.conf import settings

    def connections_made() -> int:
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            return client.info("stats")["total_connections_received"]
        finally:
            client.close()

    pubsub.group_send("nobody_listens", {"type": "warm.up"})
    before = connections_made()
    for n in range(5):
        pubsub.group_send("nobody_listens", {"type": "game.committed", "seq": n})
    assert connections_made() - before <= 2  # (our own two readings: one each)


def _lose_every_key_of_the_layer() -> None:
    """What a Redis restart leaves of the channel layer: nothing (its keys, in this run's Redis
    database; core's are `asgi:*`, the Celery broker's are left alone)."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        for prefix in ("asgi", settings.CHANNEL_PREFIX):
            for key in client.scan_iter(match=f"{prefix}*"):
                client.delete(key)
    finally:
        client.close()


# Connecting


@pytest.mark.parametrize("seat", [0, 1, None], ids=["seat0", "seat1", "spectator"])
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_first_message_is_the_view_for_that_sockets_viewer(table, sockets, seat):
    _, view = await sockets(table.gid, table.token(seat))
    assert view == await rest(table, seat, f"/api/games/{table.gid}/")
    assert view["you"] == seat
    assert view["hand"] == (HANDS[seat] if seat is not None else [])  # R23
    assert view["status"] == "active" and view["kostic"] == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_session_cookie_authenticates_a_socket_too(table, sockets):
    client = table.seats[1]
    user = await sync_to_async(lambda: Token.objects.get(key=table.tokens[1]).user)()
    await sync_to_async(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    _, view = await sockets(table.gid, headers=[(b"origin", b"http://localhost"),
                                                (b"cookie", cookie)])  # fmt: skip
    assert view["you"] == 1 and view["hand"] == HANDS[1]


@pytest.mark.parametrize("token", ["%00", "not-a-token", "%ff%fe", "0" * 40])
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_garbage_or_unknown_token_connects_as_a_spectator(table, sockets, token):
    _, view = await sockets(table.gid, token)
    assert view["you"] is None and view["hand"] == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("gid", [987_654_321, 10**20], ids=["unknown", "past_any_id"])
async def test_connecting_to_an_unknown_game_closes_with_4404(gid):
    sock = communicator(gid)
    # Accepted first: a close before the handshake reaches a client as HTTP 403, not 4404.
    assert await sock.connect(timeout=TIMEOUT) == (True, None)
    assert await sock.receive_output(timeout=TIMEOUT) == {"type": "websocket.close",
                                                           "code": 4404}  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_foreign_origin_is_refused_but_a_script_without_one_is_let_in(table, sockets):
    foreign = communicator(table.gid, table.tokens[0], [(b"origin", b"http://evil.example")])
    connected, _ = await foreign.connect(timeout=TIMEOUT)
    assert not connected  # a page of another site must not ride a player's session
    _, view = await sockets(table.gid, table.tokens[0], headers=[])  # bots and scripts
    assert view["you"] == 0


# Live delivery


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_socket_receives_each_new_event_in_seq_order_then_the_view(table, sockets):
    viewers = [0, 1, None]
    opened = {seat: await sockets(table.gid, table.token(seat)) for seat in viewers}
    start = opened[0][1]["seq"]
    await command(table, 0, PLAY)
    await command(table, 1, PASS)
    await command(table, 2, PASS)  # the window closes; the effect resolves; seat 0 draws
    head = (await rest(table, None, f"/api/games/{table.gid}/"))["seq"]
    for seat, (sock, _) in opened.items():
        streamed, last, changes = [], start, 0
        while last < head:  # the play; then the close, led by seat 1's sealed pass (R19)
            events, view = await change(sock)
            assert seqs(events) == list(range(last + 1, view["seq"] + 1))
            streamed, last, changes = streamed + events, view["seq"], changes + 1
        # Seat 1's own socket may also hear of his pass in between (a view, no event).
        assert changes == 2 or (seat == 1 and changes == 3)
        assert view == await rest(table, seat, f"/api/games/{table.gid}/")
        assert streamed == await rest_events(table, seat, after=start)  # R19: no pass was hidden
        await sock.receive_nothing(timeout=QUIET)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_r23_the_drawing_player_sees_his_card_and_a_spectator_sees_null(table, sockets):
    player, _ = await sockets(table.gid, table.tokens[0])
    spectator, _ = await sockets(table.gid)
    for seat, body in [(0, PLAY), (1, PASS), (2, PASS)]:
        await command(table, seat, body)
    for sock, card, hand in [(player, "C10", ["C26", "C29", "C10"]), (spectator, None, [])]:
        *_, (events, view) = [await change(sock) for _ in range(2)]  # R19: the pass is sealed
        [drawn] = [e for e in events if e["type"] == "card_drawn"]
        assert drawn["data"] == {"seat": 0, "card": card}
        assert view["hand"] == hand and view["players"][0]["hand_count"] == 3
        if card is None:
            assert "C10" not in json.dumps(view)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_r19_no_socket_learns_who_passed_while_the_block_window_is_open(table, sockets):
    opened = {seat: (await sockets(table.gid, table.token(seat)))[0] for seat in [0, 1, 2, None]}
    await command(table, 0, PLAY)
    for sock in opened.values():
        _, view = await change(sock)
        assert view["phase"] == "block"
    passed = await command(table, 1, PASS)
    assert passed["view"]["legal"] == [] and passed["view"]["awaiting"] == [2]  # his own answer
    for seat, sock in opened.items():
        if seat == 1:  # only the passer's own socket hears of it: his new view
            assert await change(sock) == ([], passed["view"])
        assert await sock.receive_nothing(timeout=QUIET)  # the pass is sealed: no frame at all
        view = await rest(table, seat, f"/api/games/{table.gid}/")
        assert view["seq"] == passed["seq"]  # the seq did not move
        assert view["awaiting"] == ([2] if seat == 1 else [1, 2])  # everyone asked still listed
    await command(table, 2, PASS)
    for sock in opened.values():  # the window closed: both passes, in the order received
        events, view = await change(sock)
        assert [(e["type"], e["data"]["seat"]) for e in events[:2]] == [
            ("block_passed", 1), ("block_passed", 2)]  # fmt: skip
        assert view["phase"] == "play"


# After commit, never before


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_command_that_fails_sends_nothing(table, sockets):
    sock, view = await sockets(table.gid, table.tokens[0])
    illegal = {**PLAY, "card": "C40"}  # not in seat 0's hand
    assert (await command(table, 0, illegal, expected=422))["error"]["code"] == "illegal_move"
    turn = await command(table, 1, PLAY, expected=409)
    assert turn["error"]["code"] == "not_your_turn"
    await sock.receive_nothing(timeout=QUIET)
    await command(table, 0, PLAY)
    events, after = await change(sock)  # the next thing heard is the legal play
    assert seqs(events) == [view["seq"] + 1] and events[0]["type"] == "card_played"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_command_whose_transaction_rolls_back_sends_nothing(table, sockets):
    sock, view = await sockets(table.gid, table.tokens[0])
    user = await sync_to_async(lambda: Token.objects.get(key=table.tokens[0]).user)()

    class Rollback(Exception):
        pass

    def command_then_roll_back() -> None:
        with transaction.atomic():
            body = {"expected_seq": view["seq"], **PLAY}
            commands.game_command(user=user, game_id=table.gid, body=body, key=None)
            raise Rollback

    with pytest.raises(Rollback):
        await sync_to_async(command_then_roll_back)()
    await sock.receive_nothing(timeout=QUIET)
    count = await sync_to_async(GameEvent.objects.filter(game_id=table.gid).count)()
    assert count == view["seq"]
    await command(table, 0, PLAY)
    events, _ = await change(sock)
    assert seqs(events) == [view["seq"] + 1]


# Resync


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_resync_sends_only_what_this_socket_never_sent_in_order_then_a_view(table, sockets):
    sock, first = await sockets(table.gid, table.tokens[1])
    for seat, body in [(0, PLAY), (1, PASS), (2, PASS)]:
        await command(table, seat, body)
    head = (await rest(table, 1, f"/api/games/{table.gid}/"))["seq"]
    pushed, view = [], first
    while view["seq"] < head:  # the play, the close, and his own pass's view between (R19)
        events, view = await change(sock)
        pushed += events
    assert await sock.receive_nothing(timeout=QUIET)
    assert seqs(pushed) == list(range(first["seq"] + 1, head + 1))
    # From 0: only the events before the socket's first view, which it never sent
    # (docs/LIVE_STREAM.md).
    events, view = await resync(sock, 0)
    assert events == (await rest_events(table, 1, after=0))[: first["seq"]]
    assert seqs(events) == list(range(1, first["seq"] + 1))
    assert view == await rest(table, 1, f"/api/games/{table.gid}/")
    for after in [0, first["seq"], first["seq"] + 2, view["seq"]]:
        assert await resync(sock, after) == ([], view)  # all sent already: just the view


async def resync(sock: WebsocketCommunicator, after: int) -> tuple[list[dict], dict]:
    await sock.send_json_to({"type": "resync", "after": after})
    return await change(sock)


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[]",
        "null",
        '"resync"',
        '{"type": "hello"}',
        '{"type": "resync"}',
        '{"after": 0}',
        '{"type": "resync", "after": "3"}',
        '{"type": "resync", "after": -1}',
        '{"type": "resync", "after": true}',
        '{"type": "resync", "after": 1.5}',
        '{"type": "resync", "after": null}',
    ],
)
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_malformed_message_gets_an_invalid_error_and_the_socket_stays_open(
    table, sockets, frame
):
    sock, view = await sockets(table.gid)
    await sock.send_to(text_data=frame)
    answer = await sock.receive_json_from(timeout=TIMEOUT)
    assert answer["type"] == "error" and answer["error"]["code"] == "invalid"
    assert answer["error"]["message"]
    await sock.send_json_to({"type": "resync", "after": view["seq"]})
    assert await change(sock) == ([], view)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_binary_frame_and_a_resync_past_the_end_are_handled(table, sockets):
    sock, view = await sockets(table.gid)
    await sock.send_to(bytes_data=b'{"type": "resync", "after": 0}')
    assert (await sock.receive_json_from(timeout=TIMEOUT))["error"]["code"] == "invalid"
    await sock.send_json_to({"type": "resync", "after": 10**30})  # beyond any seq: nothing missed
    assert await change(sock) == ([], view)


# Gaps: a layer past its capacity drops group messages silently


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_dropped_group_message_is_healed_from_the_log_in_order(table, sockets, settings):
    opened = {seat: await sockets(table.gid, table.token(seat)) for seat in [0, None]}
    start = opened[0][1]["seq"]
    with broadcasts_lost(settings):
        await command(table, 0, PLAY)
        await command(table, 1, PASS)  # sealed (R19): no batch at all
    for sock, _ in opened.values():
        await sock.receive_nothing(timeout=QUIET)  # the play's batch was lost
    await command(table, 2, PASS)  # its batch starts past last_seq + 1
    for seat, (sock, _) in opened.items():
        events, view = await change(sock)
        assert seqs(events) == list(range(start + 1, view["seq"] + 1))  # no gap, no duplicate
        assert events == await rest_events(table, seat, after=start)
        assert view == await rest(table, seat, f"/api/games/{table.gid}/")
        await sock.receive_nothing(timeout=QUIET)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_gap_healed_while_other_games_batches_arrive_still_sends_its_batch(
    table, sockets, settings, monkeypatch
):
    """bench-load, 200 games: while a socket read a gap from the log, more batches than the
    process keeps parsed arrived for other games, its own was pushed out of BATCHES, and the
    socket died of a KeyError (74 reconnects in one run). Here the other games' batches arrive
    during that read, as they did there."""
    sock, first = await sockets(table.gid, table.tokens[0])
    read = consumer.GameConsumer._read

    def read_while_others_arrive(self, spans):
        state = GameProjection.objects.get(game_id=table.gid).state  # any valid state will do
        for n in range(render.BATCHES_KEPT + 1):  # another game's batches, meanwhile
            render.remember({"game": -1, "seq": n, "state": state})
        return read(self, spans)

    monkeypatch.setattr(consumer.GameConsumer, "_read", read_while_others_arrive)
    with broadcasts_lost(settings):
        await command(table, 0, PLAY)
        await command(table, 1, PASS)  # sealed (R19)
    await command(table, 2, PASS)  # its batch starts past last_seq + 1: the gap is read
    events, view = await change(sock)
    assert seqs(events) == list(range(first["seq"] + 1, view["seq"] + 1))
    assert view == await rest(table, 0, f"/api/games/{table.gid}/")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_later_batch_sent_straight_to_the_group_fills_the_gap_once(
    table, sockets, settings
):
    sock, first = await sockets(table.gid, table.tokens[0])
    with broadcasts_lost(settings):
        for seat, body in [(0, PLAY), (1, PASS), (2, PASS)]:
            await command(table, seat, body)
    await sock.receive_nothing(timeout=QUIET)
    last_batch = await sync_to_async(_broadcast_last_batch)(table.gid, first["seq"] + 2)
    events, view = await change(sock)
    assert seqs(events) == list(range(first["seq"] + 1, view["seq"] + 1))
    assert events == await rest_events(table, 0, after=first["seq"])
    assert last_batch[0] > first["seq"] + 1  # the message itself started past the gap
    await sync_to_async(_broadcast_last_batch)(table.gid, first["seq"] + 2)  # a duplicate
    await sync_to_async(_broadcast_last_batch)(table.gid, first["seq"])  # an older batch
    await sock.receive_nothing(timeout=QUIET)


def _broadcast_last_batch(gid: int, after: int) -> list[int]:
    """group_send the committed events after `after` as one `game.committed` message, as
    games.table.publish does after a commit. Returns their seqs."""
    proj, _ = selectors.current(gid)
    rows = list(GameEvent.objects.filter(game_id=gid, seq__gt=after).order_by("seq"))
    publish.broadcast(gid, rows, proj)
    return [r.seq for r in rows]


# Many sockets


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_several_spectators_at_once_receive_the_same_frames_rendered_once(
    table, sockets, monkeypatch
):
    spectators = [(await sockets(table.gid))[0] for _ in range(6)]
    renders = []  # a spy: the real rendering, counted
    real = render.render
    monkeypatch.setattr(render, "render", lambda *args: renders.append(args) or real(*args))
    for seat, body in [(0, PLAY), (1, PASS), (2, PASS)]:
        await command(table, seat, body)
    heard = [[await change(sock) for _ in range(2)] for sock in spectators]  # R19: 1 pass sealed
    assert all(h == heard[0] for h in heard)
    streamed = [e for events, _ in heard[0] for e in events]
    assert streamed == await rest_events(table, None, after=streamed[0]["seq"] - 1)
    assert len(renders) == 2  # two batches, each rendered once for all six


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_watching_the_lobby_sees_his_seat_once_he_joins(sockets, make_player):
    host, guest = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    created = await sync_to_async(host.post)("/api/games/", {"seats": 2}, format="json")
    gid = created.json()["id"]
    token = await sync_to_async(lambda: Token.objects.get(user__username=guest.username).key)()
    sock, lobby = await sockets(gid, token)
    assert lobby["status"] == "lobby" and lobby["you"] is None
    await sync_to_async(guest.post)(f"/api/games/{gid}/join/", {"seat": 1}, format="json")
    events, view = await change(sock)
    assert [e["type"] for e in events] == ["seat_taken"] and view["you"] == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_sockets_connecting_while_moves_are_committed_miss_nothing(table, sockets):
    async def moves() -> None:
        for seat, body in [(0, PLAY), (1, PASS), (2, PASS)]:
            await command(table, seat, body)

    *opened, _ = await asyncio.gather(*[sockets(table.gid) for _ in range(8)], moves())
    head = (await rest(table, None, f"/api/games/{table.gid}/"))["seq"]
    for sock, first in opened:
        streamed, view = [], first
        while view["seq"] < head:  # each socket reaches the head, whenever it connected
            events, view = await change(sock)
            streamed += events
        assert seqs(streamed) == list(range(first["seq"] + 1, head + 1))
        await sock.receive_nothing(timeout=QUIET)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_behind_a_lost_broadcast_catches_up_without_a_next_move(
    table, sockets, settings
):
    """The layer lost the last batch (a Redis restart): the socket healed only at the game's
    next batch, a day away in a correspondence game (bench-faults: 124 sockets fell silent).
    The process's catch-up look finds it behind the settled head and it sends what it lacks,
    once, and is not told again."""
    from games.live import catch_up

    sock, first = await sockets(table.gid, table.tokens[0])
    other, _ = await sockets(table.gid, table.tokens[1])
    with broadcasts_lost(settings):
        await command(table, 0, PLAY)
    await sock.receive_nothing(timeout=QUIET)
    open_ = catch_up.SOCKETS.live()
    assert await catch_up.once(open_) == 0, "not settled yet: its broadcast may be on its way"
    await sync_to_async(_settle, thread_sensitive=False)(table.gid)
    assert await catch_up.once(open_) == 2
    for socket in (sock, other):
        events, view = await change(socket)
        assert seqs(events) == list(range(first["seq"] + 1, view["seq"] + 1))
    assert view == await rest(table, 1, f"/api/games/{table.gid}/")
    assert await catch_up.once(open_) == 0
    await sock.receive_nothing(timeout=QUIET)


def _settle(gid: int) -> None:
    """As if the game's last batch had been committed long enough ago to have arrived."""
    GameProjection.objects.filter(game_id=gid).update(
        updated_at=timezone.now() - timedelta(seconds=10)
    )
