"""The `spectator_delay` game option (issue 10; API.md "Correspondence"): its default, its
bounds, and what a game created before it folds with."""

from __future__ import annotations

import pytest

from games.engine import IllegalCommand, fold, new_game
from games.engine.setup import MAX_SPECTATOR_DELAY, OPTION_DEFAULTS

SEED = bytes(32)


def created(**options) -> dict:
    return fold(new_game(seats=2, seed=SEED, options=options)).options


def test_a_new_game_keeps_spectators_ten_events_behind_by_default() -> None:
    assert OPTION_DEFAULTS["spectator_delay"] == 10
    assert created()["spectator_delay"] == 10


@pytest.mark.parametrize("value", [0, 1, 10, MAX_SPECTATOR_DELAY])
def test_any_whole_number_up_to_the_cap_is_taken(value: int) -> None:
    assert created(spectator_delay=value)["spectator_delay"] == value


@pytest.mark.parametrize("value", [-1, MAX_SPECTATOR_DELAY + 1, 2**63, True, False, "5", 2.0,
                                   None, [1], {}])  # fmt: skip
def test_anything_else_is_invalid(value) -> None:
    with pytest.raises(IllegalCommand) as refused:
        created(spectator_delay=value)
    assert refused.value.code == "invalid"
