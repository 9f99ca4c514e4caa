"""Commands over the socket (API.md, "Commands over the socket"): `{"type": "command", "id",
"command"}` → `ack` (after COMMIT) or `error` on that socket; the events and the view reach every
socket as for a REST command. The `id` is the Idempotency-Key, shared with REST."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from rest_framework.authtoken.models import Token

from games.core.models import GameEvent
from tests.support.sockets import (
    PASS,
    PLAY,
    TIMEOUT,
    change,
    new_table,
    rest,
    rest_events,
    send_command,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def count_events(gid: int) -> int:
    return await sync_to_async(GameEvent.objects.filter(game_id=gid).count)()


async def test_a_play_over_the_socket_is_acked_and_reaches_every_socket(table, sockets):
    player, view = await sockets(table.gid, table.tokens[0])
    watcher, _ = await sockets(table.gid)
    answer = await send_command(player, "p1", {"expected_seq": view["seq"], **PLAY})
    events = await rest_events(table, 0, after=view["seq"])
    assert answer == {"type": "ack", "id": "p1", "seq": events[-1]["seq"]}
    assert events[0]["type"] == "card_played" and events[0]["data"]["card"] == "C25"
    seen, watched = await change(watcher)
    assert [e["seq"] for e in seen] == [e["seq"] for e in events]
    assert watched["phase"] == "block" and watched["seq"] == answer["seq"]


async def test_the_ack_goes_out_at_commit_before_what_follows_it(table, sockets, monkeypatch):
    """Issue 31: the ack waits for COMMIT, not for the work after it (the broadcast, the next
    deadline, the followers' wake-up: a Redis round trip each). With the broadcast held, the
    ack still comes; the batch follows it on the same socket once the broadcast goes."""
    import threading

    from games.table import publish

    release = threading.Event()
    broadcast = publish.broadcast

    def held(*args, **kwargs) -> None:
        release.wait(TIMEOUT * 2)
        broadcast(*args, **kwargs)

    monkeypatch.setattr(publish, "broadcast", held)
    player, view = await sockets(table.gid, table.tokens[0])
    try:
        answer = await send_command(player, "early", {"expected_seq": view["seq"], **PLAY})
    finally:
        release.set()
    assert answer["type"] == "ack" and answer["seq"] > view["seq"]
    seen, after = await change(player)  # the batch, after the ack
    assert seen[0]["seq"] == view["seq"] + 1 and after["seq"] == answer["seq"]


async def test_an_ack_that_ends_a_vacation_comes_after_it_ended(table, sockets):
    """The early ack waits when the command ends its player's vacation (docs/AWAY.md): once
    acked, his vacation is over everywhere, as once REST answered."""
    away = await sync_to_async(table.seats[0].post)("/api/me/vacation/", {"days": 3},
                                                    format="json")  # fmt: skip
    assert away.status_code == 200, away.content
    player, view = await sockets(table.gid, table.tokens[0])
    answer = await send_command(player, "back", {"expected_seq": view["seq"], **PLAY})
    assert answer["type"] == "ack"
    assert (await rest(table, 0, "/api/me/vacation/"))["until"] is None


async def test_no_message_of_a_game_socket_hops_to_a_thread_to_close_connections(
    table, sockets, monkeypatch
):
    """Channels closes old DB connections before every consumer message, a hop to a thread
    each (3 % of the web workers' CPU in bench-load for the command frames alone). Every
    database access of the game socket goes through socket_db, which closes them itself: no
    frame, command or broadcast takes that hop."""
    from channels import consumer

    hops = []

    async def counted() -> None:
        hops.append(1)

    monkeypatch.setattr(consumer, "aclose_old_connections", counted)
    player, view = await sockets(table.gid, table.tokens[0])
    watcher, _ = await sockets(table.gid)
    answer = await send_command(player, "h1", {"expected_seq": view["seq"], **PLAY})
    assert answer["type"] == "ack"
    await change(watcher)
    await player.send_json_to({"type": "resync", "after": view["seq"]})
    await change(player)
    assert hops == []


async def test_r17_a_block_and_r14_a_bet_over_the_socket(settings, make_player, sockets):
    """The rigged duel of tests/replays/test_replays.py, every seat's command over its socket:
    anna duels bob, carl blocks (R17/R18); bob duels carl, carl bets (R14) and is out."""
    from tests.support.duel_table import Table as DuelTable

    settings.SEJMI_ALLOW_RIGGED = True
    duel = await sync_to_async(DuelTable)(make_player)
    tokens = [await sync_to_async(lambda c=c: Token.objects.get(user__username=c.username).key)()
              for c in duel.seats]  # fmt: skip
    socks = [(await sockets(duel.gid, token))[0] for token in tokens]
    moves = [
        (0, {"type": "play", "card": "C04", "effect": 0, "scope": "one", "target": 1}),
        (2, {"type": "block", "card": "C25"}),
        (1, {"type": "play", "card": "C01", "effect": 0, "scope": "one", "target": 2}),
        (2, {"type": "pass"}),
        (0, {"type": "pass"}),
        (2, {"type": "bet", "kind": "parity", "value": "even"}),
    ]
    for n, (seat, body) in enumerate(moves):
        seq = (await sync_to_async(duel.seats[seat].get)(f"/api/games/{duel.gid}/")).json()["seq"]
        answer = await send_command(socks[seat], f"m{n}", {"expected_seq": seq, **body})
        assert answer["type"] == "ack", (body, answer)
    view = (await sync_to_async(duel.seats[2].get)(f"/api/games/{duel.gid}/")).json()
    assert view["phase"] == "handoff" and view["players"][2]["eliminated"]
    types = [e["type"] for e in await rest_events_of(duel, 0)]
    assert "play_blocked" in types and "bet_placed" in types


async def rest_events_of(duel, seat: int) -> list[dict]:
    answer = await sync_to_async(duel.seats[seat].get)(f"/api/games/{duel.gid}/events/")
    return answer.json()["events"]


@pytest.mark.parametrize("offset", [0, -1])  # issue 21: a stale seq tells a spectator nothing
@pytest.mark.parametrize("who", ["spectator", "anonymous"])
async def test_a_spectators_or_anonymous_command_is_forbidden(table, sockets, make_player, who,
                                                              offset):  # fmt: skip
    token = None
    if who == "spectator":
        other = await sync_to_async(make_player)()
        token = await sync_to_async(lambda: Token.objects.get(user__username=other.username).key)()
    sock, view = await sockets(table.gid, token)
    before = await count_events(table.gid)
    answer = await send_command(sock, "x", {"expected_seq": view["seq"] + offset, **PLAY})
    assert answer["type"] == "error" and answer["id"] == "x"
    assert answer["error"]["code"] == "forbidden"
    assert not any(ch.isdigit() for ch in answer["error"]["message"])
    assert await count_events(table.gid) == before


async def test_a_stale_expected_seq_is_refused_and_nothing_is_appended(table, sockets):
    sock, view = await sockets(table.gid, table.tokens[0])
    before = await count_events(table.gid)
    answer = await send_command(sock, "s", {"expected_seq": view["seq"] - 1, **PLAY})
    assert answer["type"] == "error" and answer["error"]["code"] == "stale_seq"
    assert await count_events(table.gid) == before


async def test_an_illegal_command_gets_the_rest_code(table, sockets):
    sock, view = await sockets(table.gid, table.tokens[1])  # seat 1 is not on turn
    answer = await send_command(sock, "n", {"expected_seq": view["seq"], **PLAY})
    assert answer["error"]["code"] == "not_your_turn"
    sock0, _ = await sockets(table.gid, table.tokens[0])
    wrong = {**PLAY, "card": "C01"}  # not in seat 0's hand
    answer = await send_command(sock0, "i", {"expected_seq": view["seq"], **wrong})
    assert answer["error"]["code"] == "illegal_move"


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "command", "id": 7, "command": {}},
        {"type": "command", "command": {}},
        {"type": "command", "id": "a", "command": []},
        {"type": "command", "id": "", "command": {"expected_seq": 1, "type": "pass"}},
        {"type": "command", "id": "b", "command": {"type": "pass"}},
        {"type": "command", "id": "c", "command": {"expected_seq": 1, "type": "dance"}},
    ],
)
async def test_a_malformed_command_frame_gets_invalid_and_the_socket_stays(table, sockets, frame):
    sock, view = await sockets(table.gid, table.tokens[0])
    await sock.send_json_to(frame)
    answer = await sock.receive_json_from(timeout=TIMEOUT)
    assert answer["type"] == "error" and answer["error"]["code"] == "invalid", answer
    if isinstance(frame.get("id"), str) and frame["id"]:
        assert answer["id"] == frame["id"]
    ok = await send_command(sock, "after", {"expected_seq": view["seq"], **PLAY})
    assert ok["type"] == "ack"  # the socket still works


async def test_the_same_id_twice_and_once_over_rest_appends_once(table, sockets):
    sock, view = await sockets(table.gid, table.tokens[0])
    body = {"expected_seq": view["seq"], **PLAY}
    first = await send_command(sock, "same", body)
    count = await count_events(table.gid)
    again = await send_command(sock, "same", body)
    rest_answer = await sync_to_async(table.seats[0].post)(
        f"/api/games/{table.gid}/commands/", body, format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    assert first["type"] == "ack" and again == first
    assert rest_answer.status_code == 200 and rest_answer.json()["seq"] == first["seq"]
    assert await count_events(table.gid) == count
    other = await send_command(sock, "same", {**body, "target": 2})
    assert other["error"]["code"] == "idempotency_mismatch"


async def test_a_key_first_used_over_rest_answers_the_same_over_the_socket(table, sockets):
    sock, view = await sockets(table.gid, table.tokens[0])
    body = {"expected_seq": view["seq"], **PLAY}
    posted = await sync_to_async(table.seats[0].post)(
        f"/api/games/{table.gid}/commands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    count = await count_events(table.gid)
    answer = await send_command(sock, "k1", body)
    assert answer == {"type": "ack", "id": "k1", "seq": posted.json()["seq"]}
    assert await count_events(table.gid) == count


async def test_two_sockets_racing_exactly_one_lands(table, sockets):
    """Seats 1 and 2 both pass the same block window with the same expected_seq, from two
    sockets at once: R19 seals the first pass (the seq stays), so both may land — the race
    that must have one winner is two commands that each move the seq. Seat 0 sends PLAY from
    two sockets with different ids: exactly one lands, the other is stale_seq."""
    a, view = await sockets(table.gid, table.tokens[0])
    b, _ = await sockets(table.gid, table.tokens[0])
    body = {"expected_seq": view["seq"], **PLAY}
    answers = await asyncio.gather(send_command(a, "ra", body), send_command(b, "rb", body))
    kinds = sorted(answer["type"] for answer in answers)
    assert kinds == ["ack", "error"], answers
    [lost] = [answer for answer in answers if answer["type"] == "error"]
    assert lost["error"]["code"] in ("stale_seq", "not_your_turn"), lost
    played = [e for e in await rest_events(table, 0) if e["type"] == "card_played"]
    assert len(played) == 1


async def test_r19_a_pass_over_the_socket_is_sealed(table, sockets):
    """R19: a pass that leaves the window open is acked with the unchanged seq, and a socket
    that is not the passer's hears nothing of it."""
    s0, view = await sockets(table.gid, table.tokens[0])
    played = await send_command(s0, "p", {"expected_seq": view["seq"], **PLAY})
    s1, _ = await sockets(table.gid, table.tokens[1])
    watcher, watched = await sockets(table.gid)
    assert watched["phase"] == "block" and watched["seq"] == played["seq"]
    passed = await send_command(s1, "q", {"expected_seq": played["seq"], **PASS})
    assert passed == {"type": "ack", "id": "q", "seq": played["seq"]}
    assert await watcher.receive_nothing(timeout=0.3)


async def test_r19_a_pass_sealed_in_the_batch_that_opened_the_window_reaches_its_owners_socket(
    table, sockets
):
    """Seat 1's standing order passes the window the play opens, inside that command: the
    broadcast shows the window to everyone (his pass sealed, R19), and his own socket then gets
    his view with the pass (`legal: []`), as his REST view has it. Before, only a pass sealed
    on its own was told to its owner; his socket offered `pass` and the service refused it
    (bench-load: `not_your_turn` for seats the bot took over)."""
    answer = await sync_to_async(table.seats[1].put)(
        "/api/me/standing-order/", {"block": "never"}, format="json"
    )
    assert answer.status_code == 200
    s0, view = await sockets(table.gid, table.tokens[0])
    s1, _ = await sockets(table.gid, table.tokens[1])
    played = await send_command(s0, "p", {"expected_seq": view["seq"], **PLAY})
    _, shown = await change(s1)
    assert shown["seq"] == played["seq"] and shown["phase"] == "block"
    # The batch's own view already holds his pass: a view offering `pass` for even a moment
    # was acted on under load (bench-load: 18 not_your_turn in 100 s at 200 games).
    assert shown["legal"] == []
    assert shown == await rest(table, 1, f"/api/games/{table.gid}/")
    assert await s1.receive_nothing(timeout=0.3), "nothing more: no second view to wait for"


async def test_r19_a_sealed_pass_carried_to_a_new_seq_stays_in_its_owners_view(table, sockets):
    """Seat 1 passes (sealed); seat 2 goes on vacation while the window stays open, which
    moves the seq (R19: his pass is carried to it). The broadcast view at the new seq is
    seat 1's with his pass (`legal: []`), not the public one offering `pass` again."""
    s0, view = await sockets(table.gid, table.tokens[0])
    s1, _ = await sockets(table.gid, table.tokens[1])
    played = await send_command(s0, "p", {"expected_seq": view["seq"], **PLAY})
    await change(s1)
    passed = await send_command(s1, "q", {"expected_seq": played["seq"], **PASS})
    assert passed["type"] == "ack", passed
    frame = await s1.receive_json_from(timeout=TIMEOUT)  # his own pass, told to him alone
    assert frame["type"] == "view" and frame["view"]["legal"] == [], frame
    away = await sync_to_async(table.seats[2].post)("/api/me/vacation/", {"days": 1},
                                                    format="json")  # fmt: skip
    assert away.status_code == 200, away.content
    events, shown = await change(s1)
    assert [e["type"] for e in events] == ["vacation_started"]
    assert shown["phase"] == "block" and shown["seq"] > played["seq"]
    assert shown["legal"] == [], "his carried pass is in his view"
    assert shown == await rest(table, 1, f"/api/games/{table.gid}/")


async def test_a_command_waiting_for_its_games_lock_does_not_hold_another_games_socket(
    table, sockets, make_player
):
    """Channels runs a process's database calls on one thread unless told otherwise: every
    socket's commands, reads and presence beats queued behind each other, and a command
    waiting for a busy game's row lock held every other socket of the process (bench-load at
    200 games: p50 0.8 s). Game A's row is locked here; B's command must not wait for it."""
    import threading

    from django.db import connections, transaction

    from games.core.models import GameProjection

    other = await sync_to_async(new_table)(make_player)
    a, a_view = await sockets(table.gid, table.tokens[0])
    b, b_view = await sockets(other.gid, other.tokens[0])
    locked, release = threading.Event(), threading.Event()

    def hold_a() -> None:
        with transaction.atomic():
            GameProjection.objects.select_for_update().get(game_id=table.gid)
            locked.set()
            release.wait(30)
        connections.close_all()

    holder = threading.Thread(target=hold_a)
    holder.start()
    try:
        assert await asyncio.to_thread(locked.wait, 10)
        await a.send_json_to({"type": "command", "id": "a1",
                              "command": {"expected_seq": a_view["seq"], **PLAY}})  # fmt: skip
        await asyncio.sleep(0.2)  # A's command is waiting for the lock now
        answer = await asyncio.wait_for(
            send_command(b, "b1", {"expected_seq": b_view["seq"], **PLAY}), timeout=3
        )
        assert answer["type"] == "ack", answer
    finally:
        release.set()
        await asyncio.to_thread(holder.join, 30)
    answer = await asyncio.wait_for(send_command(a, "a1", {"expected_seq": a_view["seq"], **PLAY}),
                                    timeout=TIMEOUT)  # fmt: skip
    assert answer["type"] == "ack", answer  # A's own, once the lock was let go (same id)
