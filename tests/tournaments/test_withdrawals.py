"""Withdrawals (issue 27): a player who leaves a running tournament is never paired again and
his running game goes to the bot; a player who timed out every decision of a whole game (the
bot played it) is withdrawn after it, and told so (tournament_withdrawn)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_leaver_and_the_absent_are_withdrawn_and_never_paired_again(make_player, players_game):
    clients = {c.username: c for c in (make_player() for _ in range(4))}
    organiser = next(iter(clients.values()))
    tid = organiser.post("/api/tournaments/", {
        "name": "Duels", "format": "swiss", "rounds": 2, "table_size": {"min": 2, "max": 2},
    }, format="json").json()["id"]  # fmt: skip
    for client in clients.values():
        assert client.post(f"/api/tournaments/{tid}/join/").status_code == 200
    view = organiser.post(f"/api/tournaments/{tid}/start/").json()
    (one, two) = view["rounds"][0]["tables"]
    leaver, absent = one["players"][0], two["players"][0]
    # the absent player gave no standing order either: nothing answers for him but R21
    off = clients[absent].put("/api/me/standing-order/", {"block": None}, format="json")
    assert off.status_code == 200, off.content
    left = clients[leaver].post(f"/api/tournaments/{tid}/leave/")
    assert left.status_code == 200, left.content
    assert {"username": leaver, "withdrawn": True} in left.json()["players"]
    seat = clients[leaver].get(f"/api/games/{one['game']}/").json()["players"][0]
    assert seat["username"] == leaver and seat["away"] == "bot"  # the bot plays his seat
    players_game(clients, one["game"])
    players_game(clients, two["game"], absent=frozenset({absent}))
    view = organiser.get(f"/api/tournaments/{tid}/").json()
    assert {"username": absent, "withdrawn": True} in view["players"]
    (final,) = view["rounds"][1]["tables"]
    assert leaver not in final["players"] and absent not in final["players"]
    log = organiser.get(f"/api/tournaments/{tid}/events/").json()["events"]
    reasons = {e["data"]["username"]: e["data"]["reason"] for e in log
               if e["type"] == "player_withdrawn"}  # fmt: skip
    assert reasons == {leaver: "left", absent: "timed_out"}
    told = clients[absent].get("/api/notifications/").json()
    kinds = {(n["kind"], n["game"]) for n in told["notifications"]}
    assert ("tournament_withdrawn", two["game"]) in kinds
    assert ("tournament_round", two["game"]) in kinds
    players_game(clients, final["game"])
    ended = organiser.get(f"/api/tournaments/{tid}/").json()
    assert ended["status"] == "ended"
    final_told = clients[final["players"][0]].get("/api/notifications/").json()
    assert "tournament_ended" in {n["kind"] for n in final_told["notifications"]}
