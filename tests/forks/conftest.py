"""Fixtures for the tests of forks, notes and odds: a finished three-seat game of humans played
over HTTP."""

from __future__ import annotations

import random

import pytest

from tests.support.api import Table, open_table, play_to_end


@pytest.fixture
def finished_trio(make_player) -> Table:
    """Three players' game, played to its end over HTTP by random legal commands."""
    table = open_table(make_player, seats=3)
    play_to_end(table, random.Random(30))
    return table
