"""Bad input (issue 27): every refusal a 4xx with a code of the contract, nothing appended by
a refused request; two players joining the last place at once: exactly one gets it."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games.tournaments.models import TournamentEvent

BODY = {"name": "Cup", "format": "swiss", "rounds": 2, "table_size": {"min": 3, "max": 4}}


def _count() -> int:
    return TournamentEvent.objects.count()


def _refused(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["code"] == code


@pytest.mark.django_db
@pytest.mark.parametrize("change", [
    {"table_size": {"min": 1, "max": 4}}, {"table_size": {"min": 3, "max": 7}},
    {"table_size": {"min": 5, "max": 4}}, {"rounds": 0}, {"rounds": 21}, {"name": "x" * 81},
    {"name": ""}, {"format": "arena"}, {"options": {"bots": [0]}}, {"options": {"rig": {}}},
    {"options": {"turn_deadline_s": 0}}, {"variant": "pairs"}, {"surprise": 1},
    {"duplicate_deals": "yes"}, {"max_players": 1},
])  # fmt: skip
def test_bad_settings_are_refused_invalid_and_nothing_is_appended(make_player, change):
    _refused(make_player().post("/api/tournaments/", {**BODY, **change}, format="json"),
             400, "invalid")  # fmt: skip
    assert _count() == 0


@pytest.mark.django_db
def test_join_leave_start_refusals(make_player):
    organiser, other = make_player(), make_player()
    tid = organiser.post("/api/tournaments/", {**BODY, "max_players": 3}, format="json").json()[
        "id"
    ]
    assert other.post(f"/api/tournaments/{tid}/join/").status_code == 200
    before = _count()
    _refused(other.post(f"/api/tournaments/{tid}/join/"), 400, "invalid")  # already in
    _refused(other.post(f"/api/tournaments/{tid}/start/"), 403, "forbidden")  # not his
    _refused(organiser.post(f"/api/tournaments/{tid}/start/"), 400, "invalid")  # too few
    _refused(organiser.post(f"/api/tournaments/{tid}/leave/"), 400, "invalid")  # not in
    _refused(organiser.post("/api/tournaments/999999/join/"), 404, "not_found")
    assert _count() == before
    for _ in range(2):
        assert make_player().post(f"/api/tournaments/{tid}/join/").status_code == 200
    before = _count()
    _refused(make_player().post(f"/api/tournaments/{tid}/join/"), 409, "game_full")
    assert _count() == before


@pytest.mark.django_db(transaction=True)
def test_a_running_tournament_refuses_joins(make_player):
    organiser = make_player()
    tid = organiser.post("/api/tournaments/", BODY, format="json").json()["id"]
    for _ in range(3):
        assert make_player().post(f"/api/tournaments/{tid}/join/").status_code == 200
    assert organiser.post(f"/api/tournaments/{tid}/start/").status_code == 200
    before = _count()
    _refused(make_player().post(f"/api/tournaments/{tid}/join/"), 400, "invalid")
    _refused(organiser.post(f"/api/tournaments/{tid}/start/"), 400, "invalid")
    assert _count() == before


@pytest.mark.django_db(transaction=True)
def test_two_players_joining_the_last_place_at_once_exactly_one_gets_it(make_player):
    organiser = make_player()
    tid = organiser.post("/api/tournaments/", {**BODY, "max_players": 3},
                         format="json").json()["id"]  # fmt: skip
    for _ in range(2):
        assert make_player().post(f"/api/tournaments/{tid}/join/").status_code == 200
    racers = [make_player(), make_player()]
    barrier, codes = threading.Barrier(2), []

    def join(client) -> None:
        barrier.wait()
        codes.append(client.post(f"/api/tournaments/{tid}/join/").status_code)
        connections.close_all()

    threads = [threading.Thread(target=join, args=(c,)) for c in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]
    view = organiser.get(f"/api/tournaments/{tid}/").json()
    assert len(view["players"]) == 3
