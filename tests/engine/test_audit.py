"""The engine's audit of a whole log (R22): `verify_events` re-executes the game with the seed,
`rederive` checks every roll, toss and shuffle against it. Each names the first bad seq.

Seqs are 1-based: the event at list index i has seq i + 1.
"""

from __future__ import annotations

import pytest

from games.engine import (
    Event,
    fold,
)
from games.engine import events as ev
from games.engine.audit import rederive, verify_events
from games.engine.simulate import game_seed
from tests.engine.helpers import bot_game

OTHER_SEED = bytes(32)


def has_everything(events: list[Event]) -> bool:
    types = {e.type for e in events}
    duel_rolls = [e for e in events if e.type == ev.DIE_ROLLED and e.data["purpose"] == "duel"]
    return {ev.DECK_RESHUFFLED, ev.TIMED_OUT, ev.CARD_PLAYED} <= types and bool(duel_rolls)


@pytest.fixture(scope="module")
def game() -> tuple[list[Event], bytes]:
    """The first seeded bot game with a reshuffle (R4), a duel roll and a timeout."""
    for index in range(200):
        seed = game_seed("audit", index)
        events = bot_game(seed)
        if has_everything(events):
            return events, seed
    raise AssertionError("no seeded bot game has a reshuffle, a duel roll and a timeout")


def first(events: list[Event], type_: str, **data) -> int:
    """The list index of the first event of `type_` whose data has every item of `data`."""
    wanted = data.items()
    return next(i for i, e in enumerate(events)
                if e.type == type_ and all(e.data.get(k) == v for k, v in wanted))  # fmt: skip


def edited(events: list[Event], i: int, **changes) -> list[Event]:
    """A copy of the log with event i's data changed (events are frozen)."""
    e = events[i]
    return [*events[:i], Event(e.type, {**e.data, **changes}, e.v), *events[i + 1 :]]


def swapped(events: list[Event], i: int, j: int) -> list[Event]:
    out = list(events)
    out[i], out[j] = out[j], out[i]
    return out


# An untouched log


@pytest.mark.parametrize(
    "seats, variant, duel_coin",
    [(2, "standard", False), (3, "standard", True), (4, "pairs", False),
     (4, "pairs_extreme", True), (6, "standard", False)],
)  # fmt: skip
def test_an_untouched_bot_game_passes_both_checks(seats, variant, duel_coin):
    seed = game_seed(f"untouched-{variant}", seats)
    events = bot_game(seed, seats, variant, duel_coin=duel_coin)
    assert events[-1].type == ev.GAME_ENDED
    assert verify_events(events, seed) == rederive(events, seed)
    verdict = verify_events(events, seed)
    assert verdict.ok and verdict.events == len(events)
    assert verdict.first_bad_seq is None and verdict.reason is None


def test_the_chosen_game_has_reshuffles_duels_and_timeouts_and_passes(game):
    events, seed = game
    assert has_everything(events)
    assert verify_events(events, seed).ok and rederive(events, seed).ok


def test_the_chain_head_the_service_seals_into_game_ended_is_not_a_rules_difference(game):
    events, seed = game
    sealed = edited(events, len(events) - 1, chain_head="ab" * 32)
    assert verify_events(sealed, seed).ok


# Tampering: each is reported with the first bad seq and a reason, never raised


def test_a_card_played_that_is_not_in_the_hand_is_illegal_at_its_seq(game):
    events, seed = game
    i = first(events, ev.CARD_PLAYED)
    before = fold(events[:i])
    elsewhere = next(c for c in before.draw if c not in before.hands[events[i].data["seat"]])
    verdict = verify_events(edited(events, i, card=elsewhere), seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1
    assert verdict.reason.startswith("illegal card_played")
    assert verdict.events == i  # the events before it were checked and found good


def test_a_card_played_changed_to_its_other_effect_is_found_within_its_turn(game):
    """The other effect may be illegal with this scope or target (found at this seq), or legal
    and resolve otherwise (found at the first consequence that differs, before the turn ends)."""
    events, seed = game
    i = first(events, ev.CARD_PLAYED)
    turn_ended = first(events[i:], ev.TURN_ENDED) + i
    verdict = verify_events(edited(events, i, effect=1 - events[i].data["effect"]), seed)
    assert not verdict.ok and i + 1 <= verdict.first_bad_seq <= turn_ended + 1


def test_a_play_swapped_with_the_answer_after_it_is_found_at_the_first(game):
    events, seed = game
    i = first(events, ev.CARD_PLAYED)
    answer = events[i + 1].type
    assert answer in (ev.BLOCK_PASSED, ev.PLAY_BLOCKED)
    verdict = verify_events(swapped(events, i, i + 1), seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1
    assert verdict.reason.startswith(f"illegal {answer}")  # nothing is in a block window yet


def test_swapped_answers_in_a_block_window_are_found_where_the_log_stops_being_legal(game):
    """R18/R26: a block may come before another seat's pass, so with the pass and the block
    swapped the log is still a legal game at the first slot; it departs at the second."""
    events, seed = game
    i = next(k for k, e in enumerate(events)
             if e.type == ev.BLOCK_PASSED and events[k + 1].type == ev.PLAY_BLOCKED)  # fmt: skip
    verdict = verify_events(swapped(events, i, i + 1), seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 2


def test_a_play_swapped_with_its_turn_start_is_found_at_the_first(game):
    events, seed = game
    i = first(events, ev.CARD_PLAYED)
    assert events[i - 1].type == ev.TURN_STARTED
    verdict = verify_events(swapped(events, i - 1, i), seed)
    assert not verdict.ok and verdict.first_bad_seq == i  # seq of the turn_started slot


def test_swapped_first_rolls_are_each_the_seeds_but_not_in_the_rules_order(game):
    """R32: everyone rolls in seat order. Each roll keeps its draw number n, so rederive (which
    checks a roll against its own n) passes; re-execution knows the order."""
    events, seed = game
    i = first(events, ev.DIE_ROLLED, purpose="first")
    tampered = swapped(events, i, i + 1)
    assert rederive(tampered, seed).ok
    verdict = verify_events(tampered, seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1
    assert "differs from the rules" in verdict.reason


@pytest.mark.parametrize("type_", [ev.CARD_PLAYED, ev.LIVES_CHANGED, ev.CARD_DRAWN])
def test_a_deleted_event_is_found_at_its_seq(game, type_):
    events, seed = game
    i = first(events[10:], type_) + 10
    verdict = verify_events(events[:i] + events[i + 1 :], seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1 and verdict.reason


def command_ends(game: tuple[list[Event], bytes]) -> list[int]:
    """The lengths at which `game`'s log stood after each command of a running game: where the
    service's stored log can end (each command appends its whole automatic run at once)."""
    events, seed = game
    ends: list[int] = []
    assert bot_game(seed, ends=ends) == events
    return [k for k in ends if k < len(events)]


def test_a_log_cut_where_a_player_must_decide_is_a_valid_prefix_so_verify_events_passes(game):
    """A log cut short there is a game that has not gone on yet: re-execution cannot tell.
    Truncation is caught by what the rest of the record says instead: the file header's event
    count and head hash, or the stored projection (tests/replays/test_replays.py)."""
    events, seed = game
    points = command_ends(game)
    assert len(points) > 50
    for keep in points[::7]:
        cut = events[:keep]
        assert verify_events(cut, seed) == rederive(cut, seed)
        assert verify_events(cut, seed).ok and verify_events(cut, seed).events == keep


def test_a_log_cut_inside_a_commands_events_is_found_where_the_next_must_follow(game):
    """A command's events and the engine's steps after it (rolls, resolution, draws, the end)
    are appended at once; a log that stops among them cannot be a real game's."""
    events, seed = game
    points = set(command_ends(game))
    inside = [k for k in range(6, len(events)) if k not in points][::13]
    assert inside
    for keep in inside:
        verdict = verify_events(events[:keep], seed)
        assert not verdict.ok and verdict.first_bad_seq == keep + 1
        assert verdict.reason == f"the log ends where {events[keep].type} must follow"
        assert rederive(events[:keep], seed).ok  # every roll and shuffle it has is the seed's


def test_a_log_without_its_game_ended_is_found_at_the_missing_seq(game):
    events, seed = game
    verdict = verify_events(events[:-1], seed)
    assert verdict.first_bad_seq == len(events)
    assert verdict.reason == "the log ends where game_ended must follow"


def test_events_after_the_end_are_refused_at_their_seq(game):
    events, seed = game
    extra = Event(ev.TIMED_OUT, {"phase": None, "seats": []})
    verdict = verify_events([*events, extra], seed)
    assert not verdict.ok and verdict.first_bad_seq == len(events) + 1


@pytest.mark.parametrize("purpose", ["first", "duel"])
def test_a_changed_die_roll_is_found_by_both_checks_at_its_seq(game, purpose):
    events, seed = game
    i = first(events, ev.DIE_ROLLED, purpose=purpose)
    d = events[i].data
    tampered = edited(events, i, value=d["value"] % 6 + 1)
    by_seed = rederive(tampered, seed)
    assert not by_seed.ok and by_seed.first_bad_seq == i + 1
    assert by_seed.reason == f"roll {d['n']} is not the seed's"
    by_rules = verify_events(tampered, seed)
    assert not by_rules.ok and by_rules.first_bad_seq == i + 1
    assert "differs from the rules" in by_rules.reason


def test_a_reordered_reshuffle_is_found_by_both_checks_at_its_seq(game):
    events, seed = game
    i = first(events, ev.DECK_RESHUFFLED)
    d = events[i].data
    assert len(d["draw"]) > 1
    tampered = edited(events, i, draw=list(reversed(d["draw"])))
    by_seed = rederive(tampered, seed)
    assert not by_seed.ok and by_seed.first_bad_seq == i + 1
    assert by_seed.reason == f"reshuffle {d['n']} is not the seed's"
    by_rules = verify_events(tampered, seed)
    assert not by_rules.ok and by_rules.first_bad_seq == i + 1


def test_a_changed_deal_is_found_by_both_checks_at_its_seq(game):
    events, seed = game
    i = first(events, ev.GAME_STARTED)
    hands = [list(h) for h in events[i].data["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    tampered = edited(events, i, hands=hands)
    assert rederive(tampered, seed).first_bad_seq == i + 1
    assert rederive(tampered, seed).reason == "the deal is not the seed's shuffle"
    assert verify_events(tampered, seed).first_bad_seq == i + 1


def test_r22_a_wrong_seed_is_refused_at_seq_1(game):
    events, _ = game
    verdict = verify_events(events, OTHER_SEED)
    assert not verdict.ok and verdict.first_bad_seq == 1 and verdict.events == 0
    assert verdict.reason == "the seed does not match the commitment in event 1"


def test_r22_a_wrong_seed_fails_rederive_at_the_deal_the_first_thing_it_made(game):
    events, _ = game
    verdict = rederive(events, OTHER_SEED)
    assert not verdict.ok and verdict.first_bad_seq == first(events, ev.GAME_STARTED) + 1


def test_a_changed_commitment_is_refused_at_seq_1(game):
    events, seed = game
    verdict = verify_events(edited(events, 0, seed_commitment="0" * 64), seed)
    assert not verdict.ok and verdict.first_bad_seq == 1


def test_a_log_that_does_not_start_with_game_created_is_refused_at_seq_1(game):
    events, seed = game
    for log in ([], events[1:]):
        verdict = verify_events(log, seed)
        assert not verdict.ok and verdict.first_bad_seq == 1


def test_an_unknown_event_is_reported_not_raised(game):
    events, seed = game
    i = first(events, ev.CARD_PLAYED)
    verdict = verify_events([*events[:i], Event("card_conjured", {"seat": 0}), *events[i:]], seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1
    assert "no move anyone could make here" in verdict.reason


def test_a_move_with_data_missing_is_reported_as_malformed_not_raised(game):
    events, seed = game
    i = first(events, ev.CARD_PLAYED)
    data = {k: v for k, v in events[i].data.items() if k != "target"}
    log = [*events[:i], Event(ev.CARD_PLAYED, data), *events[i + 1 :]]
    verdict = verify_events(log, seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1 and "malformed" in verdict.reason
    assert rederive(log, seed).ok or rederive(log, seed).first_bad_seq == i + 1


# Rigged games (API.md): their dice are the rig's, not the seed's


def test_rigged_rolls_are_not_rederived_but_are_re_executed():
    seed = game_seed("rigged", 0)
    events = bot_game(seed, 3, rig={"first": 0, "dice": [5, 2, 1, 4, 6, 3] * 5})
    rolls = [i for i, e in enumerate(events) if e.type == ev.DIE_ROLLED and e.data["rigged"]]
    assert rolls and verify_events(events, seed).ok and rederive(events, seed).ok
    i = rolls[0]
    tampered = edited(events, i, value=events[i].data["value"] % 6 + 1)
    assert rederive(tampered, seed).ok  # R22 speaks of the seed's rolls; the rig named this one
    assert verify_events(tampered, seed).first_bad_seq == i + 1  # the rules know the rig
