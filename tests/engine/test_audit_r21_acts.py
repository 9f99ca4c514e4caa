"""R21 in the audit: after a timeout the service acts with the exact act R21 fixes (pass; the
left neighbour; even, or heads with the duel coin; decline the handoff). A log in which a
timed-out decision acts with another value, and which is then re-executed consistently to its
end, must fail `verify_events` at that act (issue 21: such a log verified green)."""

from __future__ import annotations

import random

import pytest

from games.engine import Bet, ChooseNeighbor, Event, Handoff, HeuristicBot, execute, fold
from games.engine import events as ev
from games.engine.audit import _timed_out, verify_events
from games.engine.simulate import game_seed
from games.engine.state import BET, CHOOSE_NEIGHBOR, HANDOFF


def _other_act(state, seat, act):
    """A legal command for `seat` at this timeout other than R21's `act`, or None."""
    if isinstance(act, ChooseNeighbor):
        options = [n for n in state.pending.neighbor_options if n != act.neighbor]
        return ChooseNeighbor(options[0]) if options else None
    if isinstance(act, Bet):
        other = {"even": "odd", "odd": "even", "heads": "tails", "tails": "heads"}[act.value]
        return Bet(act.kind, other)
    if isinstance(act, Handoff):
        hand = state.hands[seat]
        to = [s for s in range(state.n) if s != seat and state.lives[s] > 0]
        return Handoff(str(hand[0]), to[0]) if hand and to else None
    return None


def _forged(phase: str, duel_coin: bool = False) -> tuple[list[Event], bytes, int]:
    """A bot game in which the first timeout at `phase` acts with another value than R21's,
    played on consistently to the end; and the seq of that act."""
    for index in range(400):
        seed = game_seed(f"r21-{phase}", index)
        rnd = random.Random(index)
        seats = 2 + index % 5
        events = list(_start(seats, seed, duel_coin))
        state, forged_at, bot = fold(events), None, HeuristicBot()
        for _ in range(20_000):
            if state.status != "active":
                break
            if forged_at is None and state.phase == phase and rnd.random() < 0.5:
                record, owed = _timed_out(state)  # R21's record, and the act it owes
                seat, act = owed[0]
                mid = fold(record, state)
                other = _other_act(mid, seat, act) if mid.awaiting[:1] == [seat] else None
                if other is not None:
                    forged_at = len(events) + len(record) + 1
                    new, state = execute(mid, other, actor=seat, seed=seed)
                    events += record + new
                    continue
            actor = state.awaiting[0]
            new, state = execute(state, bot.choose(state, actor), actor=actor, seed=seed)
            events += new
        if forged_at is not None and state.status == "ended":
            return events, seed, forged_at
    raise AssertionError(f"no game reached a timeout at {phase}")


def _start(seats: int, seed: bytes, duel_coin: bool) -> list[Event]:
    from games.engine import new_game

    return new_game(seats=seats, seed=seed,
                    options={"bots": list(range(seats)), "duel_coin": duel_coin})  # fmt: skip


@pytest.mark.parametrize("phase, duel_coin", [
    (CHOOSE_NEIGHBOR, False), (BET, False), (BET, True), (HANDOFF, False),
])  # fmt: skip
def test_r21_a_timeout_that_acts_with_another_value_fails_the_audit(phase, duel_coin):
    events, seed, forged_at = _forged(phase, duel_coin)

    verdict = verify_events(events, seed)

    assert not verdict.ok
    assert verdict.first_bad_seq == forged_at, verdict
    assert "R21" in (verdict.reason or "")


def _left(state, seat: int) -> int:
    """R21's left neighbour, spelled out from RULES.md: the next seat (seat+1 mod n) still in."""
    n = state.n
    return next((seat + k) % n for k in range(1, n) if state.lives[(seat + k) % n])


@pytest.mark.parametrize("phase, duel_coin", [
    (CHOOSE_NEIGHBOR, False), (BET, False), (BET, True), (HANDOFF, False),
])  # fmt: skip
def test_r21_the_service_times_out_with_exactly_the_act_the_rules_fix(phase, duel_coin):
    """The service's own timeout (execute(Timeout)) acts as R21 says, whatever timeouts.py
    says: the audit and this test both spell the rule out (a mutant lived here)."""
    from games.engine import Timeout

    seen = 0
    for index in range(300):
        seed = game_seed(f"r21-service-{phase}", index)
        seats = 2 + index % 5
        events = _start(seats, seed, duel_coin)
        state, bot = fold(events), HeuristicBot()
        for _ in range(20_000):
            if state.status != "active":
                break
            if state.phase == phase:
                seat = state.awaiting[0]
                new, after = execute(state, Timeout(), seed=seed)
                act = next(e for e in new if e.data.get("seat") == seat and e.type in (
                    ev.NEIGHBOR_CHOSEN, ev.BET_PLACED, ev.CARD_HANDED_OFF))  # fmt: skip
                if phase == CHOOSE_NEIGHBOR:
                    assert act.data["neighbor"] == _left(state, seat)
                elif phase == BET:
                    assert act.data["value"] == ("heads" if duel_coin else "even")
                else:
                    assert act.data["card"] is None and act.data["to"] is None
                assert verify_events(events + new, seed).ok  # the audit agrees
                seen += 1
                events, state = events + new, after
                continue
            actor = state.awaiting[0]
            new, state = execute(state, bot.choose(state, actor), actor=actor, seed=seed)
            events += new
        if seen >= 3:
            return
    raise AssertionError(f"fewer than 3 timeouts at {phase} were seen")
