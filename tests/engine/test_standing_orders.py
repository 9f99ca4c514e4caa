"""Standing orders (issue 10): a block window answered at once by a player's order. What
"aimed at me", "a duel against me" and "the cheapest card" mean is read from RULES.md section 3
(the affected player P), section 5 (which card blocks what) and R6, R9, R10, R18, R33."""

from __future__ import annotations

import pytest

from games.engine import (
    Block,
    Deck,
    Event,
    Join,
    Pass,
    Play,
    execute,
    fold,
    new_game,
    standing_answers,
    view_for,
)
from games.engine.audit import verify_events
from games.engine.standing import (
    AIMED_AT_ME,
    DUEL_AGAINST_ME,
    NEVER,
    aimed_at,
    cheapest_block,
    duel_against,
    standing_command,
)
from games.engine.views import redact_event
from tests.engine.helpers import SEED, rigged

# Seat 0 is the Kostič. Seat 1 holds C26 (green/blue), C01 (green/red), C40 (blue/blue);
# seat 2 holds only blue and red cards; seat 3 has green ones too.
HANDS = [
    ["C25", "C04", "C06", "C13"],
    ["C26", "C01", "C40"],
    ["C33", "C34", "C35"],
    ["C27", "C28", "C29"],
]
LOSE_ON_1 = Play("C25", 0, "one", 1)  # green LOSE_1 on seat 1
GAIN_ON_1 = Play("C25", 1, "one", 1)  # blue GAIN_1 on seat 1
LOSE_ON_2 = Play("C25", 0, "one", 2)
LOSE_ALL = Play("C06", 1, "all", None)  # red LOSE_1 on everyone
DUEL_ON_1 = Play("C04", 0, "one", 1)  # green DUEL against seat 1
DUEL_ON_3 = Play("C04", 0, "one", 3)
BLUE_LOSE_ON_1 = Play("C04", 1, "one", 1)  # blue LOSE_1 on seat 1


def window(play: Play, **kw):
    kw.setdefault("hands", HANDS)
    kw.setdefault("deck", ["C39"])
    g = rigged(4, **kw)
    g.do(play, 0)
    assert g.state.phase == "block"
    return g


@pytest.mark.parametrize("order", [NEVER, AIMED_AT_ME, DUEL_AGAINST_ME])
@pytest.mark.parametrize("play", [LOSE_ON_1, GAIN_ON_1, LOSE_ALL, DUEL_ON_1, DUEL_ON_3])
def test_an_order_always_answers_with_a_legal_command(order, play):
    g = window(play)
    command = standing_command(g.state, 1, order)
    assert command == Pass() or command in [Block(c) for c in g.state.hands[1]]


@pytest.mark.parametrize("play", [LOSE_ON_1, DUEL_ON_1, LOSE_ALL])
def test_never_passes_every_window(play):
    assert standing_command(window(play).state, 1, NEVER) == Pass()


@pytest.mark.parametrize(
    "play, block",
    [
        pytest.param(LOSE_ON_1, "C26", id="lose-1-on-me"),
        pytest.param(DUEL_ON_1, "C26", id="duel-against-me"),
        pytest.param(LOSE_ALL, "C01", id="all-players-lose-1-reaches-me"),  # red: only C01
        pytest.param(GAIN_ON_1, None, id="a-gain-is-no-attack"),
        pytest.param(LOSE_ON_2, None, id="aimed-at-another"),
        pytest.param(DUEL_ON_3, None, id="a-duel-against-another"),
    ],
)
def test_s3_aimed_at_me_means_affected_and_it_costs_me_lives(play, block):
    g = window(play)
    assert aimed_at(g.state, 1) is (block is not None)
    expected = Pass() if block is None else Block(block)
    assert standing_command(g.state, 1, AIMED_AT_ME) == expected


def test_r10_a_table_wide_effect_is_aimed_at_those_it_lowers():
    # LOW_UP_TOP_DOWN (C12 red): seat 1 is TOPHP (6), seat 2 is LOWHP and gains.
    hands = [["C12", "C25", "C30"], ["C26", "C01", "C40"], ["C33", "C34", "C35"], ["C27"]]
    g = window(Play("C12", 1, "all", None), hands=hands, lives=[5, 6, 2, 4])
    assert aimed_at(g.state, 1) and not aimed_at(g.state, 2) and not aimed_at(g.state, 3)


def test_r9_an_all_players_play_that_skips_me_by_its_condition_is_not_aimed_at_me():
    # EVEN_DOWN (C07 red) reaches even-lifers only: seat 1 has 5 lives.
    hands = [["C07", "C25", "C30"], ["C26", "C01", "C40"], ["C33", "C34", "C35"], ["C27"]]
    g = window(Play("C07", 1, "all", None), hands=hands, lives=[6, 5, 4, 6])
    assert not aimed_at(g.state, 1) and aimed_at(g.state, 2)


def test_r8_a_swap_is_aimed_at_me_when_every_neighbour_i_may_pick_has_fewer_lives():
    hands = [["C16", "C25", "C30"], ["C26", "C01", "C40"], ["C33", "C34", "C35"], ["C27"]]
    down = window(Play("C16", 0, "one", 1), hands=hands, lives=[3, 6, 4, 6])
    up = window(Play("C16", 0, "one", 1), hands=hands, lives=[6, 4, 4, 6])
    assert aimed_at(down.state, 1) and not aimed_at(up.state, 1)


def test_s3_a_side_effect_on_a_neighbour_is_not_aimed_at_him():
    # BLAST (C13 green) on seat 2 costs his neighbour seat 1 a life, but is aimed at seat 2.
    g = window(Play("C13", 0, "one", 2))
    assert aimed_at(g.state, 2) and not aimed_at(g.state, 1)


@pytest.mark.parametrize(
    "play, against",
    [(DUEL_ON_1, True), (DUEL_ON_3, False), (LOSE_ON_1, False), (BLUE_LOSE_ON_1, False)],
)
def test_duel_against_me_blocks_only_a_duel_against_me(play, against):
    g = window(play)
    assert duel_against(g.state, 1) is against
    expected = Block("C26") if against else Pass()
    assert standing_command(g.state, 1, DUEL_AGAINST_ME) == expected


def test_r33_an_all_players_duel_is_a_duel_against_each_other_player():
    deck = Deck.from_rows("duels", [
        ["D1", "red", "DUEL", "red", "DUEL"], ["D2", "red", "LOSE_1", "blue", "GAIN_1"],
        ["D3", "green", "GAIN_1", "red", "LOSE_1"], ["D4", "blue", "GAIN_1", "blue", "LOSE_1"],
    ])  # fmt: skip
    events = new_game(seats=2, seed=SEED, deck=deck,
                      rig={"first": 0, "hands": [["D1", "D4"], ["D2", "D3"]]})  # fmt: skip
    s = fold(events)
    for seat in range(2):
        s = execute(s, Join(f"p{seat}", seat), seed=SEED)[1]
    s = execute(s, Play("D1", 0, "all", None), actor=0, seed=SEED)[1]
    assert duel_against(s, 1) and aimed_at(s, 1)
    assert standing_command(s, 1, DUEL_AGAINST_ME) in (Block("D2"), Block("D3"))


def test_s5_the_cheapest_block_keeps_the_most_colours_in_hand():
    # A green play: giving up C26 (green/blue) keeps red and blue (C01, C40); C01 would leave
    # no red card, so C26 is cheaper although C01 comes first in the catalogue.
    g = window(LOSE_ON_1)
    assert cheapest_block(g.state, 1, [Block("C01"), Block("C26")]) == Block("C26")


def test_s5_the_cheapest_block_then_spends_the_card_that_blocks_fewest_colours():
    # A blue play: seat 1 may block with C26, C40 or C33; C40 blocks only blue itself.
    hands = [["C25", "C04", "C06"], ["C26", "C40", "C33"], ["C34", "C35", "C36"], ["C27"]]
    g = window(BLUE_LOSE_ON_1, hands=hands)
    assert standing_command(g.state, 1, AIMED_AT_ME) == Block("C40")


def test_s5_no_card_that_can_block_means_a_pass():
    # Seat 2 holds no green card; aimed at, he can only pass. A last card never blocks.
    assert standing_command(window(LOSE_ON_2).state, 2, AIMED_AT_ME) == Pass()
    hands = [*HANDS[:3], ["C27"]]
    g = window(Play("C25", 0, "one", 3), hands=hands)
    assert standing_command(g.state, 3, AIMED_AT_ME) == Pass()


def test_answers_are_marked_standing_and_leave_the_window_open_for_the_others():
    g = window(LOSE_ON_1)
    events, after = standing_answers(g.state, {2: NEVER}, g.seed)
    assert [(e.type, e.data) for e in events] == [
        ("block_passed", {"seat": 2, "turn": g.state.turn, "standing": True})]  # fmt: skip
    assert after.phase == "block" and after.awaiting == [1, 3]


def test_r18_a_standing_block_closes_the_window_and_nobody_answers_after_it():
    g = window(LOSE_ON_1)
    events, after = standing_answers(g.state, {1: AIMED_AT_ME, 2: NEVER, 3: NEVER}, g.seed)
    assert (events[0].type, events[0].data) == (
        "play_blocked", {"seat": 1, "card": "C26", "standing": True})  # fmt: skip
    assert all(e.data.get("standing") is None for e in events[1:])
    assert "block_passed" not in [e.type for e in events]
    assert after.phase != "block"


def test_no_window_no_answers():
    g = rigged(4, hands=HANDS, deck=["C39"])
    assert standing_answers(g.state, {1: NEVER}, g.seed) == ([], g.state)


def test_r19_an_open_windows_pass_tells_nobody_that_an_order_gave_it():
    g = window(LOSE_ON_1)
    [passed], after = standing_answers(g.state, {2: NEVER}, g.seed)
    assert redact_event(passed, after, 3) == {"seat": None, "turn": after.turn}
    assert view_for(after, 3) == view_for(g.state, 3)


def answered_game() -> list[Event]:
    """Standing passes then a standing block; every order's answer in the log."""
    g = window(LOSE_ON_1)
    for orders in ({2: NEVER, 3: NEVER}, {1: AIMED_AT_ME}):
        events, g.state = standing_answers(g.state, orders, g.seed)
        g.events += events
    return g.events


def test_the_audit_accepts_standing_answers_without_knowing_the_orders():
    events = answered_game()
    assert [e.type for e in events if e.data.get("standing")] == [
        "block_passed",
        "block_passed",
        "play_blocked",
    ]
    assert verify_events(events, SEED).ok


def test_the_audit_refuses_a_standing_mark_that_is_not_true_and_an_illegal_standing_block():
    events = answered_game()
    k = next(i for i, e in enumerate(events) if e.type == "play_blocked")
    odd = Event("play_blocked", {**events[k].data, "standing": "yes"})
    verdict = verify_events([*events[:k], odd, *events[k + 1 :]], SEED)
    assert not verdict.ok and verdict.first_bad_seq == k + 1
    illegal = Event("play_blocked", {**events[k].data, "card": "C40"})  # blue cannot block green
    verdict = verify_events([*events[:k], illegal, *events[k + 1 :]], SEED)
    assert not verdict.ok and verdict.first_bad_seq == k + 1
