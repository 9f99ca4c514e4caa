"""The simulator's shortcuts (bench-engine) agree with the public doors they stand for.

`execute_in_place` is `execute` without the copy and `start_game` is `new_game` with the state
its events fold into: same events, same states, and a refused command changes nothing.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    GameState,
    HeuristicBot,
    IllegalCommand,
    Pass,
    Play,
    RandomBot,
    Timeout,
    execute,
    fold,
    new_game,
)
from games.engine.decide import execute_in_place, start_game
from games.engine.simulate import game_seed

SETUPS = [(4, "standard", {}), (2, "standard", {}), (6, "standard", {"duel_coin": True}),
          (4, "pairs", {}), (4, "pairs_extreme", {})]  # fmt: skip


@pytest.mark.parametrize(("seats", "variant", "options"), SETUPS)
def test_in_place_makes_the_events_and_states_execute_makes(
    seats: int, variant: str, options: dict
) -> None:
    seed = game_seed("in-place", seats)
    options = {"bots": list(range(seats)), **options}
    events, owned = start_game(seats=seats, seed=seed, variant=variant, options=options)
    assert events == new_game(seats=seats, seed=seed, variant=variant, options=options)
    state = fold(events)
    assert owned == state
    rnd = random.Random(seed)
    bots = [RandomBot(rnd) if seat % 2 else HeuristicBot() for seat in range(seats)]
    for step in range(20_000):
        if state.status != "active":
            break
        if step % 7 == 6:  # R21 timeouts act for several seats in one command
            command, actor = Timeout(), None
        else:
            actor = state.awaiting[0]
            command = bots[actor].choose(state, actor)
        before = state.copy()
        new, state = execute(state, command, actor=actor, seed=seed)
        assert execute_in_place(owned, command, actor=actor, seed=seed) == new
        assert owned == state
        assert before != state  # `execute` changed its copy, not the state it was given
    assert state.status == "ended"


def first_play_state() -> tuple[GameState, bytes]:
    seed = game_seed("in-place-refused", 0)
    return start_game(seats=4, seed=seed, options={"bots": [0, 1, 2, 3]})[1], seed


def test_a_refused_command_changes_nothing_in_place() -> None:
    owned, seed = first_play_state()
    before = owned.copy()
    kostic = owned.kostic
    assert kostic is not None
    other = (kostic + 1) % 4
    with pytest.raises(IllegalCommand):
        execute_in_place(owned, Pass(), actor=kostic, seed=seed)  # not a block window
    with pytest.raises(IllegalCommand):
        execute_in_place(owned, Play(owned.hands[other][0], 0, "all", None), actor=other, seed=seed)
    with pytest.raises(IllegalCommand):  # a card the Kostič does not hold
        execute_in_place(
            owned, Play(owned.hands[other][0], 0, "all", None), actor=kostic, seed=seed
        )
    assert owned == before
