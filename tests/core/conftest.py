"""Fixtures of the core's tests: a running two-player game."""

from __future__ import annotations

import pytest


@pytest.fixture
def running(make_player):
    """A started two-player game: (game id, [seat 0's client, seat 1's client])."""
    seats = [make_player(), make_player()]
    gid = seats[0].post("/api/games/", {"seats": 2}, format="json").json()["id"]
    for seat, client in enumerate(seats):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return gid, seats
