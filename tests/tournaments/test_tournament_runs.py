"""Done when (issue 27): a 7-player, 2-round Swiss with tables of 3–4 and a 9-player elimination
with tables of 3 run to the end through the API alone, every game played by the players' own
commands; the standings equal the sum of each player's points and survive rebuild_projections
unchanged; the log is hash-chained."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.tournaments import store

pytestmark = pytest.mark.django_db(transaction=True)  # the follower runs after COMMIT


def _sums(view: dict) -> dict[str, float]:
    got: dict[str, float] = {p["username"]: 0.0 for p in view["players"]}
    for rnd in view["rounds"]:
        for name in rnd.get("byes", []):
            got[name] += 0.5
        for table in rnd["tables"]:
            for name, points in zip(table["players"], table["points"], strict=True):
                got[name] += points
    return got


def _table_sum(n: int, winners: int) -> float:
    """What a table's points add up to (API.md): each winner 1; among the other m players each
    pair shares 1 / (n - 1) (one outlasted the other, or half each when out together); nothing
    between a winner and another. n / 2 with one winner; more when several tie for the win
    (R16's end, "still tied → all tied players win")."""
    m = n - winners
    return winners + m * (m - 1) / 2 / (n - 1)


def _run(make_player, players_round, n: int, body: dict) -> tuple[dict, dict]:
    clients = {c.username: c for c in (make_player() for _ in range(n))}
    organiser = next(iter(clients.values()))
    created = organiser.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    for client in clients.values():
        assert client.post(f"/api/tournaments/{tid}/join/").status_code == 200
    started = organiser.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200, started.content
    view = started.json()
    for _ in range(10):
        if view["status"] == "ended":
            break
        view = players_round(clients, tid)
    assert view["status"] == "ended"
    return view, clients


def _check_standings(view: dict) -> None:
    sums = _sums(view)
    for row in view["standings"]:
        assert row["points"] == pytest.approx(sums[row["username"]])
    ranks = [(-r["points"], -r["tiebreak"], r["games"]) for r in view["standings"]]
    assert ranks == sorted(ranks)


def _survives_rebuild(client, view: dict) -> None:
    call_command("rebuild_projections")
    assert client.get(f"/api/tournaments/{view['id']}/").json() == view
    assert store.verify(view["id"])


def test_swiss_of_seven_in_two_rounds_at_tables_of_three_to_four(make_player, players_round):
    view, clients = _run(
        make_player,
        players_round,
        7,
        {
            "name": "Swiss 7",
            "format": "swiss",
            "rounds": 2,
            "table_size": {"min": 3, "max": 4},
            "variant": "standard",
            "options": {},
            "max_players": None,
            "duplicate_deals": True,
        },
    )
    assert len(view["rounds"]) == 2
    for rnd in view["rounds"]:
        assert sorted(len(t["players"]) for t in rnd["tables"]) == [3, 4]
        seated = [n for t in rnd["tables"] for n in t["players"]]
        assert sorted(seated) == sorted(clients)  # everyone at exactly one table
        for table in rnd["tables"]:
            winners = next(iter(clients.values())).get(f"/api/games/{table['game']}/").json()[
                "winners"]  # fmt: skip
            assert sum(table["points"]) == pytest.approx(_table_sum(len(table["players"]),
                                                                    len(winners)))  # fmt: skip
            assert all(table["points"][seat] == 1.0 for seat in winners)
    _check_standings(view)
    events = next(iter(clients.values())).get(f"/api/tournaments/{view['id']}/events/").json()
    types = [e["type"] for e in events["events"]]
    assert types[0] == "tournament_created" and types[-1] == "tournament_ended"
    assert types.count("game_scored") == 4 and types.count("round_paired") == 2
    game = next(iter(clients.values())).get(f"/api/games/{view['rounds'][1]['tables'][0]['game']}/")
    assert game.json()["tournament"] == {"id": view["id"], "name": "Swiss 7", "round": 2}
    _survives_rebuild(next(iter(clients.values())), view)


def test_elimination_of_nine_at_tables_of_three_ends_with_one_final(make_player, players_round):
    view, clients = _run(
        make_player,
        players_round,
        9,
        {"name": "Elimination 9", "format": "elimination", "table_size": {"min": 3, "max": 3}},
    )
    assert len(view["rounds"][0]["tables"]) == 3
    assert len(view["rounds"][-1]["tables"]) == 1  # down to one final table
    for rnd, later in zip(view["rounds"], view["rounds"][1:], strict=False):
        seated = [n for t in rnd["tables"] for n in t["players"]]
        advanced = {n for t in later["tables"] for n in t["players"]}
        winners = {n for t in rnd["tables"]
                   for n, p in zip(t["players"], t["points"], strict=True) if p == 1}  # fmt: skip
        assert len(advanced) < len(seated)  # the field shrinks
        assert winners <= advanced or len(winners) > len(advanced)  # the winners advance
        assert all(len(t["players"]) == 3 for t in later["tables"])
    _check_standings(view)
    _survives_rebuild(next(iter(clients.values())), view)
