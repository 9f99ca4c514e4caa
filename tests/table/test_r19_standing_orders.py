"""R19 with standing orders (issue 10): a seat whose order passed the moment the window opened
is, to everyone else, a seat that has not answered yet — frames, views, events, `seq` and
`awaiting` of a third player, the Kostič and a spectator are the same either way, until the
window closes; then the pass is told like any other, marked `standing`."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from tests.support.r19_window import PASS, PLAY, WATCHERS, open_socket, open_window_game, seen


async def the_window(seat_1_order: str | None) -> tuple[list[dict], list[dict]]:
    """Seat 1 leaves `seat_1_order` (or none), seat 0 plays, seat 2 passes (seat 3 is still
    asked: the window stays open), then seat 3 passes and it closes. Returns what the
    watchers received while it was open, and the events told when it closed."""
    window = await sync_to_async(open_window_game)()
    if seat_1_order is not None:
        put = await sync_to_async(window.client(1).put)(
            window.url("standing-order/"), {"block": seat_1_order}, format="json"
        )
        assert put.status_code == 200, put.content
    sockets = {seat: await open_socket(window, seat) for seat in WATCHERS}
    try:
        looks = [await seen(window, sockets)]
        played = await sync_to_async(window.send)(0, PLAY)
        assert played.status_code == 200, played.content
        looks.append(await seen(window, sockets))
        passed = await sync_to_async(window.send)(2, PASS, seq=played.json()["seq"])
        assert passed.status_code == 200, passed.content
        looks.append(await seen(window, sockets))
        for seat in (1, 3):  # whoever has not answered yet closes the window
            if (await sync_to_async(window.view)(seat))["legal"]:
                answer = await sync_to_async(window.send)(seat, PASS)
                assert answer.status_code == 200, answer.content
        told = await sync_to_async(window.events)(None, played.json()["seq"])
        return looks, told
    finally:
        for sock in sockets.values():
            await sock.disconnect()
        await sync_to_async(connections.close_all)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_r19_a_standing_pass_looks_like_no_answer_yet_until_the_window_closes(rigged):
    unanswered, _ = await the_window(None)
    standing, told = await the_window("never")

    assert standing == unanswered  # seats 2 (asked), 3 (asked), 0 (Kostič) and a spectator
    assert standing[1][2]["view"]["legal"][0] == PASS  # seat 2 was asked, and had to answer
    window_open = standing[1]
    for seat in WATCHERS:
        assert window_open[seat]["view"]["awaiting"] == [1, 2, 3]
    assert "standing" not in str(standing)
    passes = [e["data"] for e in told if e["type"] == "block_passed"]
    assert passes[0]["seat"] == 1 and passes[0]["standing"] is True  # his order answered first,
    assert "standing" not in passes[1]  # unseen until the window closed
