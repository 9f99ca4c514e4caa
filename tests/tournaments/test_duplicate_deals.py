"""Duplicate deals (issue 27, API.md): the tables of one size in a round play the same deal,
and a player who finished first learns nothing of the still-running table's cards: no seed and
no hands in his view, the replay, the events; audit, export and transcript refused, until the
last table of the deal ends."""

from __future__ import annotations

import pytest

from games.core.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_who_finished_first_learns_nothing_of_the_running_tables_cards(
        make_player, players_game):  # fmt: skip
    clients = {c.username: c for c in (make_player() for _ in range(6))}
    organiser = next(iter(clients.values()))
    tid = organiser.post("/api/tournaments/", {
        "name": "Dup", "format": "swiss", "rounds": 1, "table_size": {"min": 3, "max": 3},
        "duplicate_deals": True}, format="json").json()["id"]  # fmt: skip
    for client in clients.values():
        assert client.post(f"/api/tournaments/{tid}/join/").status_code == 200
    view = organiser.post(f"/api/tournaments/{tid}/start/").json()
    first, second = view["rounds"][0]["tables"]
    seeds = {bytes(Game.objects.get(pk=t["game"]).seed) for t in (first, second)}
    assert len(seeds) == 1  # the same deal at both tables of three
    players_game(clients, first["game"])
    me = clients[first["players"][0]]
    gid = first["game"]
    secret = seeds.pop().hex()
    ended = me.get(f"/api/games/{gid}/").json()
    assert ended["status"] == "ended" and ended["seed"] is None and ended["hands"] is None
    events = me.get(f"/api/games/{gid}/events/").json()["events"]
    assert secret not in str(events) and events[-1]["data"]["seed"] is None
    assert secret not in str(me.get(f"/api/games/{gid}/replay/?at=5").json())
    for tail in ("audit/", "export/", "transcript/"):
        answer = me.get(f"/api/games/{gid}/{tail}")
        assert answer.status_code == 403, (tail, answer.content)
        assert secret not in answer.content.decode()
    running = me.get(f"/api/games/{second['game']}/").json()
    assert running["status"] == "active" and running["hands"] is None
    players_game(clients, second["game"])  # the deal's last table ends: all is public
    assert me.get(f"/api/games/{gid}/").json()["seed"] == secret
    assert me.get(f"/api/games/{gid}/audit/").status_code == 200
