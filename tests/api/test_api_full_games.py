"""A whole game per variant, played over HTTP by bot clients and checked against the engine."""

from __future__ import annotations

import random

import pytest

from games.core.codec import state_to_json
from games.core.models import GameEvent, GameProjection
from games.engine import Event, fold, view_for
from tests.support.api import (
    engine_events,
    open_table,
    play_to_end,
)

TABLES = [("standard", n) for n in range(2, 7)] + [("pairs", 4), ("pairs_extreme", 4)]


def stored_hash(game_id: int, seq: int) -> str:
    return GameEvent.objects.get(game_id=game_id, seq=seq).hash


@pytest.mark.django_db
@pytest.mark.parametrize("variant, seats", TABLES, ids=[f"{v}-{n}" for v, n in TABLES])
def test_a_game_played_over_http_is_the_engine_s_game(make_player, variant, seats):
    table = open_table(make_player, seats, variant)
    final = play_to_end(table, random.Random(f"{variant}-{seats}"))
    assert final["status"] == "ended" and final["winners"]

    anonymous = table.seats[0].__class__()
    events = anonymous.get(table.url("events/")).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, final["seq"] + 1))
    # R23: after the end the whole history is public, so folding it gives the very state...
    state = fold([Event(e["type"], e["data"]) for e in events])
    assert state_to_json(state) == GameProjection.objects.get(game_id=table.gid).state
    assert state.winners == final["winners"]
    # ...every seat's view of it is the view the server sends...
    for seat, client in enumerate(table.seats):
        view = client.get(table.url()).json()
        service_fields = ("id", "seq", "deadline", "delayed", "tournament", "signed_head")
        shown = {k: v for k, v in view.items() if k not in service_fields}
        assert shown == view_for(state, seat)
    # ...and the engine alone, given the revealed seed (R22) and the commands sent, makes
    # exactly the same events.
    # (the service seals the chain head into game_ended: players keep it)
    assert events[-1]["data"].pop("chain_head") == stored_hash(table.gid, events[-2]["seq"])
    assert engine_events(events, table.sent) == [(e["type"], e["data"]) for e in events]
    audit = anonymous.get(table.url("audit/")).json()
    assert audit["chain_ok"] and audit["replay_ok"] and audit["seed_ok"] and audit["rules_ok"]
    lobby = anonymous.get("/api/games/", {"status": "ended"}).json()
    assert [g["winners"] for g in lobby if g["id"] == table.gid] == [final["winners"]]
