"""The committed batch's message (games.table.publish, issue 31 item 2): it carries the sockets'
part of the state (games.core.codec.view_state_json), not the projection's whole JSON: no draw
pile order, no rig, no seed before the end, a shipped deck by its name. What the sockets render
from it equals what they rendered from the whole state, and what REST shows the same viewer."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from games.core import event_store
from games.core.codec import state_to_json, view_state_from_json, view_state_json
from games.engine import Event, fold, redact_event, view_for
from games.engine.bots import BOTS
from games.engine.decide import execute_in_place, start_game
from games.engine.events import BLOCK_PASSED, DECK_RESHUFFLED, FORKED
from games.engine.simulate import game_seed
from games.engine.state import ACTIVE, BLOCK
from games.table import publish
from tests.support.sockets import QUIET, TIMEOUT, command, rest

STEPS = 30  # commands of the three-seat table (R19's sealed passes, draws, an elimination)


def _same_for_every_viewer(whole, light, batch) -> None:
    for viewer in (*range(whole.n), None):
        assert view_for(light, viewer) == view_for(whole, viewer), viewer
        for e in batch:  # judged on the state after the batch, as games.live.render does
            assert redact_event(e, light, viewer) == redact_event(e, whole, viewer)
    if whole.phase == BLOCK and whole.pending is not None:
        for seat in whole.pending.window:  # R19: his own pass sealed (render.seen_by)
            passed = [Event(BLOCK_PASSED, {"seat": seat, "turn": whole.turn})]
            assert view_for(fold(passed, light), seat) == view_for(fold(passed, whole), seat)


@pytest.mark.parametrize("variant", ["standard", "pairs", "pairs_extreme"])
def test_every_view_and_redaction_from_the_sockets_state_equals_the_whole_states(variant):
    """Bot games to their end: after every batch, every seat's and a spectator's view, each
    event of the batch as each of them may see it (R23), and a passer's view with his sealed
    pass (R19) are the same from the batch message's state as from the whole state."""
    for index in range(3):
        seed = game_seed(f"batch-message-{variant}", index)
        rnd = random.Random(seed)
        _, state = start_game(seats=4, seed=seed, variant=variant, options={"bots": [0, 1, 2, 3]})
        bots = [BOTS["random"](rnd) if seat % 2 else BOTS["heuristic"]() for seat in range(4)]
        while True:
            light_json = view_state_json(state_to_json(state))
            assert isinstance(light_json["draw"], int) and "rig" not in light_json
            assert light_json["deck"] == {"name": state.deck.name}  # a shipped deck
            assert state.status != ACTIVE or light_json["seed"] is None  # R22
            light = view_state_from_json(json.loads(json.dumps(light_json)))
            assert len(light.draw) == len(state.draw)
            if state.status != ACTIVE:
                break
            seat = state.awaiting[0]
            batch = execute_in_place(state, bots[seat].choose(state, seat), actor=seat, seed=seed)
            _same_for_every_viewer(state, view_state_from_json(view_state_json(
                state_to_json(state))), batch)  # fmt: skip


def test_a_custom_deck_keeps_its_rows_in_the_message():
    seed = game_seed("batch-message-custom", 0)
    _, state = start_game(seats=2, seed=seed, variant="standard", options={"bots": [0, 1]})
    whole = state_to_json(state)
    whole["deck"] = {"name": "house", "cards": whole["deck"]["cards"]}
    light = view_state_json(whole)
    assert light["deck"] == whole["deck"]
    assert view_state_from_json(light).deck.name == "house"


async def _last_view(sock, view: dict) -> dict:
    """Every frame the socket has for us, until it stays quiet: the last view among them."""
    while not await sock.receive_nothing(timeout=QUIET):
        frame = await sock.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "view":
            view = frame["view"]
    return view


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_broadcast_carries_no_draw_order_nor_seed_and_every_socket_view_is_rests(
    table, sockets, monkeypatch
):
    """A rigged game played command by command: every committed batch's message holds no card
    of the draw pile and no seed (R22) while the game runs (before: the whole state JSON, the
    pile's order and the rig's deck in it), and after each command each seat's socket and a
    spectator's show the view REST shows the same viewer at that seq."""
    sent: list[dict] = []
    send = publish.group_send

    def recorded(group, message):
        sent.append(message)
        send(group, message)

    monkeypatch.setattr(publish, "group_send", recorded)
    viewers = (0, 1, 2, None)
    opened = {viewer: await sockets(table.gid, table.token(viewer)) for viewer in viewers}
    shown = {viewer: view for viewer, (_, view) in opened.items()}
    for _ in range(STEPS):
        head = await rest(table, None, f"/api/games/{table.gid}/")
        if head["status"] != "active":
            break
        for seat in head["awaiting"]:  # R19: one who passed is still listed, with no legal
            legal = (await rest(table, seat, f"/api/games/{table.gid}/"))["legal"]
            if legal:
                break
        await command(table, seat, legal[-1])  # a block when there is one, else a pass
        views = await asyncio.gather(
            *(_last_view(sock, shown[viewer]) for viewer, (sock, _) in opened.items())
        )
        for viewer, view in zip(viewers, views, strict=True):
            shown[viewer] = view
            assert view == await rest(table, viewer, f"/api/games/{table.gid}/"), viewer
    committed = [m for m in sent if m["type"] == "game.committed"]
    assert len(committed) >= 10
    for message in committed:
        state = message["state"]
        assert "rig" not in state and not isinstance(state["draw"], list)
        at = await sync_to_async(event_store.state_at)(table.gid, message["seq"])
        assert at is not None and state["draw"] == len(at.draw)
        if at.status == ACTIVE:
            assert state["seed"] is None and at.seed is None
        if at.status == ACTIVE and not any(
            e["type"] in (DECK_RESHUFFLED, FORKED) for e in message["events"]
        ):  # a reshuffle's event carries the new pile (each socket redacts it)
            text = json.dumps(message)
            assert not [card for card in at.draw if f'"{card}"' in text], message["seq"]
    await sync_to_async(connections.close_all)()
