"""Property tests: random legal games for 2-6 players and every variant, checked after every event.

Invariants: the 40 cards are each in exactly one place; players in the game have 1-6 lives;
folding all events from scratch equals the state built step by step; no viewer's payload
(view or redacted new event) holds a card of a hand he may not see (R23); and games end.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine import (
    Event,
    GameState,
    IllegalCommand,
    Timeout,
    execute,
    fold,
    legal_commands,
    new_game,
    redact_event,
    view_for,
)
from games.engine.evolve import evolve
from games.engine.simulate import play_game

ON_TABLE_PHASES = ("block", "resolve", "choose_neighbor", "bet")


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def hidden_from(s: GameState, viewer: int | None) -> set[str]:
    return {c for p in range(s.n) if not s.sees_hand_of(viewer, p) for c in s.hands[p]}


def check_cards(s: GameState) -> None:
    places = [c for h in s.hands for c in h] + s.draw + s.discard
    if s.pending is not None and s.phase in ON_TABLE_PHASES:
        places.append(s.pending.card.id)
    assert sorted(places) == sorted(s.deck.ids), "every card in exactly one place"


def check_lives(s: GameState) -> None:
    for p in range(s.n):
        assert 0 <= s.lives[p] <= 6
    if s.status == "active":
        # fewer than two only between the last elimination and the end (R17)
        assert sum(1 for x in s.lives if x > 0) >= 2 or s.phase in ("resolve", "ending")


def check_no_leak(s: GameState, new: Event) -> None:
    for viewer in [None, *range(s.n)]:
        hidden = hidden_from(s, viewer)
        assert not strings_in(view_for(s, viewer)) & hidden, f"view leaks to {viewer}"
        shown = strings_in(redact_event(new, s, viewer))
        if new.type == "card_handed_off" and s.sees_hand_of(viewer, new.data["seat"]):
            continue  # the giver (and who saw his hand, R23) knows the card he gave (R15)
        assert not shown & hidden, f"{new.type} leaks to {viewer}"


class RandomGames(RuleBasedStateMachine):
    @initialize(
        setup=st.sampled_from(
            [(n, "standard") for n in range(2, 7)] + [(4, "pairs"), (4, "pairs_extreme")]
        ),
        seed=st.binary(min_size=32, max_size=32),
        coin=st.booleans(),
    )
    def start(self, setup: tuple[int, str], seed: bytes, coin: bool) -> None:
        n, variant = setup
        self.seed = seed
        self.events = new_game(
            seats=n, seed=seed, variant=variant, options={"duel_coin": coin, "bots": list(range(n))}
        )
        self.state = fold(self.events)

    def _apply(self, new: list[Event], after: GameState) -> None:
        step = self.state
        for event in new:  # every single event keeps the invariants
            step = evolve(step, event)
            check_cards(step)
            check_lives(step)
            check_no_leak(step, event)
        self.events += new
        assert step == after, "execute's state equals the events folded one by one"
        self.state = after

    @precondition(lambda self: self.state.status == "active")
    @rule(data=st.data())
    def a_seat_acts(self, data: st.DataObject) -> None:
        seat = data.draw(st.sampled_from(self.state.awaiting))
        command = data.draw(st.sampled_from(legal_commands(self.state, seat)))
        self._apply(*execute(self.state, command, actor=seat, seed=self.seed))

    @precondition(lambda self: self.state.status == "active")
    @rule()
    def the_deadline_passes(self) -> None:
        self._apply(*execute(self.state, Timeout(), seed=self.seed))

    @precondition(lambda self: self.state.status == "ended")
    @rule()
    def after_the_end_every_command_is_refused(self) -> None:
        with pytest.raises(IllegalCommand) as refused:
            execute(self.state, Timeout(), seed=self.seed)
        assert refused.value.code == "game_over"
        assert self.state.winners and self.state.phase is None and self.state.kostic is None

    @invariant()
    def folding_from_scratch_equals_the_state(self) -> None:
        if hasattr(self, "state"):
            assert fold(self.events) == self.state


RandomGames.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRandomGames = RandomGames.TestCase


@settings(max_examples=60, deadline=None)
@given(
    setup=st.sampled_from(
        [(n, "standard") for n in range(2, 7)] + [(4, "pairs"), (4, "pairs_extreme")]
    ),
    seed=st.binary(min_size=32, max_size=32),
    bots=st.sampled_from([["random"], ["heuristic"], ["heuristic", "random"]]),
)
def test_every_game_ends_with_winners(setup: tuple[int, str], seed: bytes, bots: list[str]) -> None:
    n, variant = setup
    result = play_game(players=n, variant=variant, bots=bots, seed=seed, max_commands=20_000)
    assert result.winners and all(0 <= w < n for w in result.winners)
