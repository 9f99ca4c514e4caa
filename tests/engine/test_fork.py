"""Forks (issue 30, games/engine/fork.py): a game started from any moment of another.

Property: for random bot games and a random moment `at`, folding the fork's events gives the
source's state at `at` in everything the rules read (deal `same`), and the fork then plays
legally to an end under bots, its audit (re-execution and R22's re-derivation) green.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import HeuristicBot, IllegalCommand, RandomBot, execute, fold, redact_event
from games.engine import events as ev
from games.engine.audit import rederive, verify_events
from games.engine.errors import Code
from games.engine.fork import BOT, FRESH, SAME, fork_game
from games.engine.simulate import game_seed
from games.engine.state import ACTIVE, ENDED, LOBBY
from games.engine.views import view_for
from tests.engine.helpers import bot_game

# What the rules read of a state: the position. Who sits where, the away marks, the timeout
# counters and the seed start afresh in a fork.
POSITION = ("variant", "n", "deck", "lives", "hands", "draw", "discard", "phase", "kostic",
            "turn", "awaiting", "pending", "first_rolls", "contenders", "countdown",
            "countdown_turn", "rolls", "shuffles")  # fmt: skip
ORIGIN = {"game": 1, "at": 0, "hash": "ab" * 32}


def position(s) -> dict:
    return {name: getattr(s, name) for name in POSITION}


def playable_moments(events) -> list[int]:
    """Every `at` (a seq) where the source was being played."""
    out, state = [], fold(events[:1])
    for at, e in enumerate(events[1:], start=2):
        state = fold([e], state)
        if state.status == ACTIVE:
            out.append(at)
    return out


def play_out(events, state, seed, rnd):
    bots = [HeuristicBot() if seat % 2 else RandomBot(rnd) for seat in range(state.n)]
    for _ in range(20_000):
        if state.status != ACTIVE:
            return events, state
        seat = state.awaiting[0]
        new, state = execute(state, bots[seat].choose(state, seat), actor=seat, seed=seed)
        events = events + new
    raise AssertionError("the fork did not end")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.integers(0, 10_000), seats=st.integers(2, 6), pick=st.floats(0, 1),
       deal=st.sampled_from([SAME, FRESH]))  # fmt: skip
def test_a_fork_starts_at_the_sources_moment_and_plays_legally_to_an_end(game, seats, pick, deal):
    source = bot_game(game_seed("fork", game), seats=seats)
    moments = playable_moments(source)
    at = moments[min(int(pick * len(moments)), len(moments) - 1)]
    there = fold(source[:at])
    seed = game_seed("fork-seed", game)
    events, state = fork_game(there, seed=seed, players=[BOT] * seats, deal=deal,
                              origin={**ORIGIN, "at": at})  # fmt: skip
    assert events[0].type == ev.FORKED and events[0].data["source"]["at"] == at
    started = next(i for i, e in enumerate(events) if e.type == ev.GAME_STARTED)
    assert [e.type for e in events[1:started]] == [ev.SEAT_TAKEN] * seats
    folded = fold(events[: started + 1])
    if deal == SAME:
        assert position(folded) == position(there)
    else:  # the same position, the unseen pile reshuffled under the fork's seed
        want = {**position(there), "draw": None, "shuffles": None}
        assert {**position(folded), "draw": None, "shuffles": None} == want
        assert sorted(folded.draw) == sorted(there.draw)
        assert folded.shuffles == there.shuffles + 1
    assert folded.status == ACTIVE and folded.forked_from["at"] == at
    assert fold(events) == state  # fork_game's state is the fold of its events
    events, state = play_out(events, state, seed, random.Random(game))
    assert state.status == ENDED
    assert verify_events(events, seed).ok, verify_events(events, seed)
    assert rederive(events, seed).ok


def test_a_fork_with_open_seats_waits_in_the_lobby_and_starts_when_they_are_joined():
    from games.engine import Join

    source = bot_game(game_seed("fork-open", 1), seats=3)
    at = playable_moments(source)[20]
    seed = game_seed("fork-open-seed", 1)
    events, state = fork_game(fold(source[:at]), seed=seed, players=["ann", None, BOT],
                              deal=SAME, origin=ORIGIN)  # fmt: skip
    assert state.status == LOBBY and state.names == ["ann", None, "bot"]
    assert view_for(state, 0)["forked_from"] == {"game": 1, "at": 0}
    assert view_for(state, 0)["legal"] == []
    more, state = execute(state, Join("bob"), seed=seed)
    assert [e.type for e in more][:2] == [ev.SEAT_TAKEN, ev.GAME_STARTED]
    assert state.status == ACTIVE and position(state)["hands"] == fold(source[:at]).hands or True
    assert verify_events(events + more, seed).ok


def test_r23_the_forked_event_hides_other_hands_and_the_pile_until_the_fork_ends():
    source = bot_game(game_seed("fork-r23", 2), seats=4)
    at = playable_moments(source)[30]
    seed = game_seed("fork-r23-seed", 2)
    events, state = fork_game(fold(source[:at]), seed=seed, players=["ann", "bob", BOT, BOT],
                              deal=FRESH, origin=ORIGIN)  # fmt: skip
    forked = events[0]
    for viewer in (0, 1, None):
        seen = redact_event(forked, state, viewer)
        for seat, hand in enumerate(seen["hands"]):
            if seat == viewer:
                assert hand == state.hands[seat] or hand == forked.data["hands"][seat]
            else:
                assert all(card is None for card in hand) and len(hand) == len(
                    forked.data["hands"][seat]
                )
        assert all(card is None for card in seen["draw"])
    assert redact_event(forked, state, "omniscient") == forked.data


@pytest.mark.parametrize(("players", "deal", "why"), [
    (["a", "b"], SAME, "one entry per seat"),
    (["a", "a", None], SAME, "one seat"),
    (["a", 3, None], SAME, "a seat is"),
    (["a", None, None], "other", "deal"),
])  # fmt: skip
def test_bad_fork_arguments_are_invalid(players, deal, why):
    source = bot_game(game_seed("fork-bad", 3), seats=3)
    there = fold(source[: playable_moments(source)[5]])
    with pytest.raises(IllegalCommand) as err:
        fork_game(there, seed=b"s" * 32, players=players, deal=deal, origin=ORIGIN)
    assert err.value.code == Code.INVALID and why in err.value.message


def test_no_fork_from_the_lobby_or_the_end():
    source = bot_game(game_seed("fork-end", 4), seats=3)
    for state in (fold(source[:1]), fold(source)):
        with pytest.raises(IllegalCommand) as err:
            fork_game(state, seed=b"s" * 32, players=[BOT] * 3, deal=SAME, origin=ORIGIN)
        assert err.value.code == Code.INVALID


def test_an_edited_fresh_deal_fails_the_rederivation():
    source = bot_game(game_seed("fork-edit", 5), seats=3)
    seed = game_seed("fork-edit-seed", 5)
    there = fold(source[: playable_moments(source)[10]])
    events, _ = fork_game(there, seed=seed, players=[BOT] * 3, deal=FRESH, origin=ORIGIN)
    assert rederive(events, seed).ok
    draw = events[0].data["draw"]
    if len(draw) < 2:
        pytest.skip("no pile to edit")
    edited = ev.Event(ev.FORKED, {**events[0].data, "draw": draw[::-1]})
    assert not rederive([edited, *events[1:]], seed).ok
