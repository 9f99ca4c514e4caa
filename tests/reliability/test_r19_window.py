"""R19 under concurrency (issue 9, hole 1): the event list is read at the seq of the state that
redacts it, so a command landing in between can neither slip in nor show who passed."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from r19_window_table import PASS, PLAY, open_window_game

from games import selectors, services
from games.models import GameProjection


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()  # throttle counters live in the cache


@pytest.fixture
def rigged(settings):
    settings.SEJMI_ALLOW_RIGGED = True


def land(window, seat: int, body: dict) -> None:
    """A command of `seat` lands now, at the game's current seq (as another request would)."""
    seq = GameProjection.objects.get(game_id=window.gid).seq
    services.game_command(user=window.user(seat), game_id=window.gid,
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
