"""The random bot spells out `random.choice`'s draw for speed (bots.py); it must stay the same
draw, or every bot game from a seed (the benchmark's, the simulator's) would change."""

import random

import pytest

from games.engine import legal_commands
from games.engine.bots import RandomBot
from games.engine.decide import execute_in_place, start_game
from games.engine.simulate import game_seed
from games.engine.state import ACTIVE


def test_random_bot_picks_what_random_choice_picks_from_the_same_generator():
    for i in range(20):
        seed = game_seed("draw", i)
        bot, twin = RandomBot(random.Random(i)), random.Random(i)
        _, state = start_game(seats=4, seed=seed, options={"bots": [0, 1, 2, 3]})
        while state.status == ACTIVE:
            seat = state.awaiting[0]
            expected = twin.choice(legal_commands(state, seat))
            chosen = bot.choose(state, seat)
            assert chosen == expected
            execute_in_place(state, chosen, actor=seat, seed=seed)


def test_random_bot_with_nothing_to_choose_raises_like_random_choice():
    _, state = start_game(seats=2, seed=game_seed("draw", 0), options={"bots": [0, 1]})
    idle = next(seat for seat in range(2) if seat not in state.awaiting)
    with pytest.raises(IndexError):
        RandomBot(random.Random(0)).choose(state, idle)
