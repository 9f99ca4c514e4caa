"""R19 (issue 9, holes 1 and 2): who passed stays unknown to everyone else until the window
closes — not shown by a read racing a command (hole 1), and not told by anything that a pass
would change: frames, their count and timing, views, events, `seq`, `awaiting` (hole 2)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from games.core.models import GameProjection
from games.table import commands, selectors
from tests.support.r19_window import (
    BLOCK,
    PASS,
    PLAY,
    WATCHERS,
    drain,
    normalised,
    open_socket,
    open_window_game,
    seen,
)


def land(window, seat: int, body: dict) -> None:
    """A command of `seat` lands now, at the game's current seq (as another request would)."""
    seq = GameProjection.objects.get(game_id=window.gid).seq
    commands.game_command(user=window.user(seat), game_id=window.gid,
                          body={"expected_seq": seq, **body}, key=None)  # fmt: skip


@pytest.mark.django_db
def test_r19_events_are_read_at_the_seq_of_the_state_that_redacts_them(rigged, monkeypatch):
    window = open_window_game()
    real_read = selectors.current
    read_at: list[int] = []

    def read_then_the_window_opens_and_a_pass_lands(game_id: int):
        proj, state = real_read(game_id)
        if not read_at:
            read_at.append(proj.seq)
            land(window, 0, PLAY)  # the Kostič plays: the window opens...
            land(window, 1, PASS)  # ...and seat 1 passes, both after the state was read
        return proj, state

    monkeypatch.setattr(selectors, "current", read_then_the_window_opens_and_a_pass_lands)

    events = window.events(None)  # a spectator's read, racing the two commands

    assert all(e["data"]["seat"] is None for e in events if e["type"] == "block_passed")
    assert read_at and [e["seq"] for e in events] == list(range(1, read_at[0] + 1))
    assert "card_played" not in {e["type"] for e in events}


# --- R19 by inference (hole 2): nothing anyone else receives depends on a pass ---------------


async def play_the_window(b_passes: bool, c_sends: dict) -> tuple[list[dict], int]:
    """Seat 0 plays, seat 1 passes (or does nothing), then seat 2 answers at the seq it saw.
    Returns what the watchers received up to (and with) seat 2's answer, and its status."""
    window = await sync_to_async(open_window_game)()
    sockets = {seat: await open_socket(window, seat) for seat in WATCHERS}
    try:
        looks = [await seen(window, sockets)]
        played = await sync_to_async(window.send)(0, PLAY)
        assert played.status_code == 200, played.content
        if b_passes:
            passed = await sync_to_async(window.send)(1, PASS)
            assert passed.status_code == 200, passed.content
            assert passed.json()["seq"] == played.json()["seq"]  # R19: the seq did not move
            assert passed.json()["view"]["legal"] == []  # R26: his pass is final
        looks.append(await seen(window, sockets))
        c_saw = looks[-1][2]["view"]["seq"]
        answer = await sync_to_async(window.send)(2, c_sends, seq=c_saw)
        if c_sends == PASS:  # the window stays open (seat 3 is still asked): nothing is told
            looks.append({"answer": normalised(answer.json()), **await seen(window, sockets)})
        return looks, answer.status_code
    finally:
        for sock in sockets.values():
            await sock.disconnect()
        await sync_to_async(connections.close_all)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("c_sends", [PASS, BLOCK], ids=["c_passes", "c_blocks"])
async def test_r19_nobody_else_can_tell_whether_an_asked_player_passed(rigged, c_sends):
    quiet, passing = [await play_the_window(b_passes, c_sends) for b_passes in (False, True)]

    assert quiet[1] == passing[1] == 200  # no stale_seq for a pass seat 2 could not see
    assert passing[0] == quiet[0]  # frames, views and events of seats 2, 3, 0 and a spectator
    window_open = passing[0][1]
    for seat in WATCHERS:
        assert [f["type"] for f in window_open[seat]["frames"]][-1] == "view"
        assert window_open[seat]["view"]["awaiting"] == [1, 2, 3]
    assert window_open[2]["view"]["legal"][0] == PASS


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_r19_only_the_passers_own_sockets_hear_of_his_sealed_pass(rigged):
    window = await sync_to_async(open_window_game)()
    sockets = {
        name: await open_socket(window, seat)
        for name, seat in [("tab1", 1), ("tab2", 1), ("other", 2), ("spectator", None)]
    }
    try:
        played = (await sync_to_async(window.send)(0, PLAY)).json()
        for sock in sockets.values():
            await drain(sock)
        passed = await sync_to_async(window.send)(1, PASS, seq=played["seq"])
        assert passed.status_code == 200, passed.content

        heard = {name: await drain(sock) for name, sock in sockets.items()}

        for tab in ("tab1", "tab2"):  # his other tabs stop offering a pass (R26)
            [frame] = heard[tab]
            assert frame == {"type": "view", "view": passed.json()["view"]}
            assert frame["view"]["legal"] == [] and frame["view"]["seq"] == played["seq"]
        assert heard["other"] == heard["spectator"] == []
    finally:
        for sock in sockets.values():
            await sock.disconnect()
        await sync_to_async(connections.close_all)()
