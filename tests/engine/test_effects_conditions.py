"""The conditional and table-wide effects in every scope colour (HALVE_EVEN, DOUBLE_LOW,
LOW_UP_TOP_DOWN, LOW_2_TOP_5, ODD_UP, EVEN_DOWN), and the rulings on how effects read and change
lives: R1, R6, R9, R10, R12, R24, R27. Helpers and the CUSTOM deck come from effects_helpers.py."""

from __future__ import annotations

import pytest

from games.engine import Event, IllegalCommand, Play, execute, fold, legal_commands
from tests.engine.effects_helpers import choose, custom, finished, moves, play, start
from tests.engine.helpers import SEED, Game


def assert_rejected(g: Game, command: Play) -> None:
    """R9: the play is refused with illegal_move, is not offered, and nothing changes."""
    s = g.state
    before = (list(s.lives), [list(h) for h in s.hands], list(s.discard), s.phase, len(g.events))
    with pytest.raises(IllegalCommand) as err:
        g.do(command, s.kostic)
    assert err.value.code == "illegal_move"
    assert command not in legal_commands(g.state, g.state.kostic)
    s = g.state
    assert (s.lives, s.hands, s.discard, s.phase, len(g.events)) == before


# HALVE_EVEN
def test_halve_even_red_all_only_even_players_halve_r9():
    g = start("C22", [6, 5, 4, 2])
    ev = play(g, "C22", 1, "all")
    assert moves(ev, [6, 5, 4, 2]) == [(0, 6, 3), (2, 4, 2), (3, 2, 1)]
    assert finished(g, "C22", ev)


def test_halve_even_green_one_even_target_halves():
    g = start("C19", [6, 6, 6, 4])
    ev = play(g, "C19", 0, "one", 3)
    assert g.lives == [6, 6, 6, 2] and finished(g, "C19", ev)


def test_halve_even_blue_one_kostic_halves_himself():
    g = start("C09", [6, 5, 5, 5])
    ev = play(g, "C09", 1, "one", 0)
    assert g.lives == [3, 5, 5, 5] and finished(g, "C09", ev)


def test_halve_even_blue_all_only_even_players_halve_r9():
    g = start("C09", [2, 3, 6, 1])
    ev = play(g, "C09", 1, "all")
    assert moves(ev, [2, 3, 6, 1]) == [(0, 2, 1), (2, 6, 3)] and finished(g, "C09", ev)


# DOUBLE_LOW
def test_double_low_red_all_only_lowhp_players_double_r9():
    g = start("C19", [1, 2, 3, 4])
    ev = play(g, "C19", 1, "all")
    assert g.lives == [2, 4, 6, 4] and finished(g, "C19", ev)


def test_double_low_green_one_lowhp_target_doubles():
    g = start("C22", [6, 3, 6, 6])
    ev = play(g, "C22", 0, "one", 1)
    assert moves(ev, [6, 3, 6, 6]) == [(1, 3, 6)] and finished(g, "C22", ev)


def test_double_low_blue_one_lowhp_target_doubles():
    g = start("C14", [5, 5, 2, 5])
    ev = play(g, "C14", 1, "one", 2)
    assert g.lives == [5, 5, 4, 5] and finished(g, "C14", ev)


def test_double_low_blue_all_only_lowhp_players_double_r9():
    g = start("C14", [3, 6, 1, 5])
    ev = play(g, "C14", 1, "all")
    assert moves(ev, [3, 6, 1, 5]) == [(0, 3, 6), (2, 1, 2)] and finished(g, "C14", ev)


# LOW_UP_TOP_DOWN (table-wide, R10)
def test_low_up_top_down_red_all_lowhp_up_tophp_down():
    g = start("C12", [6, 5, 3, 6])
    ev = play(g, "C12", 1, "all")
    assert g.lives == [5, 5, 4, 5] and finished(g, "C12", ev)


def test_low_up_top_down_green_one_acts_on_whole_table_r10():
    card = custom("green", "LOW_UP_TOP_DOWN")
    g = start(card, [2, 6, 4, 6])
    ev = play(g, card, 0, "one", 2)
    assert g.lives == [3, 5, 4, 5] and finished(g, card, ev)


def test_low_up_top_down_blue_one_acts_on_whole_table_r10():
    card = custom("blue", "LOW_UP_TOP_DOWN")
    g = start(card, [5, 1, 5, 4])
    ev = play(g, card, 0, "one", 0)
    assert g.lives == [4, 2, 4, 4] and finished(g, card, ev)


def test_low_up_top_down_blue_all_lowhp_up_tophp_down():
    card = custom("blue", "LOW_UP_TOP_DOWN")
    g = start(card, [4, 3, 2, 6])
    ev = play(g, card, 0, "all")
    assert g.lives == [4, 4, 3, 5] and finished(g, card, ev)


# LOW_2_TOP_5 (table-wide, R10)
def test_low_2_top_5_red_all_lowhp_to_two_tophp_to_five():
    g = start("C15", [6, 4, 1, 3])
    ev = play(g, "C15", 1, "all")
    assert moves(ev, [6, 4, 1, 3]) == [(0, 6, 5), (2, 1, 2), (3, 3, 2)]
    assert finished(g, "C15", ev)


def test_low_2_top_5_green_one_acts_on_whole_table_r10():
    card = custom("green", "LOW_2_TOP_5")
    g = start(card, [6, 4, 6, 1])
    ev = play(g, card, 0, "one", 1)
    assert g.lives == [5, 4, 5, 2] and finished(g, card, ev)


def test_low_2_top_5_blue_one_acts_on_whole_table_r10():
    card = custom("blue", "LOW_2_TOP_5")
    g = start(card, [3, 5, 6, 6])
    ev = play(g, card, 0, "one", 3)
    assert g.lives == [2, 5, 5, 5] and finished(g, card, ev)


def test_low_2_top_5_blue_all_lowhp_to_two_tophp_to_five():
    card = custom("blue", "LOW_2_TOP_5")
    g = start(card, [1, 6, 4, 3])
    ev = play(g, card, 0, "all")
    assert g.lives == [2, 5, 4, 2] and finished(g, card, ev)


# ODD_UP
def test_odd_up_red_all_only_odd_players_gain_one():
    g = start("C05", [1, 2, 5, 6])
    ev = play(g, "C05", 1, "all")
    assert moves(ev, [1, 2, 5, 6]) == [(0, 1, 2), (2, 5, 6)] and finished(g, "C05", ev)


def test_odd_up_green_one_odd_target_gains_one_r33():
    card = custom("green", "ODD_UP")
    g = start(card, [6, 6, 3, 6])
    ev = play(g, card, 0, "one", 2)
    assert g.lives == [6, 6, 4, 6] and finished(g, card, ev)


def test_odd_up_blue_one_odd_target_gains_one_r33():
    card = custom("blue", "ODD_UP")
    g = start(card, [5, 6, 6, 6])
    ev = play(g, card, 0, "one", 0)
    assert g.lives == [6, 6, 6, 6] and finished(g, card, ev)


def test_odd_up_blue_all_only_odd_players_gain_one():
    card = custom("blue", "ODD_UP")
    g = start(card, [1, 4, 3, 6])
    ev = play(g, card, 0, "all")
    assert moves(ev, [1, 4, 3, 6]) == [(0, 1, 2), (2, 3, 4)] and finished(g, card, ev)


# EVEN_DOWN
def test_even_down_red_all_only_even_players_lose_one():
    g = start("C07", [6, 5, 4, 1])
    ev = play(g, "C07", 1, "all")
    assert moves(ev, [6, 5, 4, 1]) == [(0, 6, 5), (2, 4, 3)] and finished(g, "C07", ev)


def test_even_down_green_one_even_target_loses_one_r33():
    card = custom("green", "EVEN_DOWN")
    g = start(card, [6, 2, 6, 6])
    ev = play(g, card, 0, "one", 1)
    assert g.lives == [6, 1, 6, 6] and finished(g, card, ev)


def test_even_down_blue_one_even_target_loses_one_r33():
    card = custom("blue", "EVEN_DOWN")
    g = start(card, [6, 6, 6, 4])
    ev = play(g, card, 0, "one", 3)
    assert g.lives == [6, 6, 6, 3] and finished(g, card, ev)


def test_even_down_blue_all_only_even_players_lose_one():
    card = custom("blue", "EVEN_DOWN")
    g = start(card, [2, 3, 6, 5])
    ev = play(g, card, 0, "all")
    assert moves(ev, [2, 3, 6, 5]) == [(0, 2, 1), (2, 6, 5)] and finished(g, card, ev)


# R1: a gain above 6 is lost
def test_r1_gain_above_six_is_lost():
    g = start("C03", [6, 6, 6, 6])
    ev = play(g, "C03", 1, "one", 1)
    assert moves(ev, [6, 6, 6, 6]) == [] and g.lives == [6, 6, 6, 6]
    assert finished(g, "C03", ev)


def test_r1_steal_at_six_still_takes_the_neighbours_life():
    g = start("C06", [6, 4, 6, 6])
    ev = play(g, "C06", 0, "one", 0) + choose(g, 0, 1)
    assert g.lives == [6, 3, 6, 6] and finished(g, "C06", ev)


# R6: conditions, LOWHP and TOPHP read the lives from before the effect
def test_r6_blast_condition_reads_lives_before_the_effect():
    """Seat 1 was HIGHHP (4) before the effect; seat 0's blast left him at 3, he still blasts."""
    card = custom("blue", "BLAST")
    g = start(card, [4, 4, 2, 2])
    ev = play(g, card, 0, "all")
    assert moves(ev, [4, 4, 2, 2]) == [
        (0, 4, 2),
        (1, 4, 3),
        (3, 2, 1),
        (1, 3, 1),
        (2, 2, 1),
        (0, 2, 1),
    ]
    assert g.lives == [1, 1, 1, 1] and finished(g, card, ev)


def test_r6_tophp_is_read_before_lowhp_players_move_up():
    """TOPHP is seat 0 (4); the LOWHP players raised to 4 are not TOPHP."""
    g = start("C12", [4, 3, 3, 3])
    ev = play(g, "C12", 1, "all")
    assert g.lives == [3, 4, 4, 4] and finished(g, "C12", ev)


def test_r6_every_tophp_player_is_set_to_five():
    """Seats 0 and 1 share the most lives (4) before the effect; both become 5."""
    g = start("C15", [4, 4, 1, 1])
    ev = play(g, "C15", 1, "all")
    assert g.lives == [5, 5, 2, 2] and finished(g, "C15", ev)


# R9 (and R33): a one-player target must meet the condition
def test_blast_green_one_rejects_lowhp_target_r9():
    assert_rejected(start("C13", [6, 6, 3, 6]), Play("C13", 0, "one", 2))


def test_blast_blue_one_rejects_lowhp_target_r9():
    card = custom("blue", "BLAST")
    assert_rejected(start(card, [6, 1, 6, 6]), Play(card, 0, "one", 1))


def test_halve_even_green_one_rejects_odd_target_r9():
    assert_rejected(start("C19", [6, 5, 6, 6]), Play("C19", 0, "one", 1))


def test_halve_even_blue_one_rejects_odd_target_r9():
    assert_rejected(start("C09", [3, 6, 6, 6]), Play("C09", 1, "one", 0))


def test_double_low_green_one_rejects_highhp_target_r9():
    assert_rejected(start("C22", [2, 2, 2, 4]), Play("C22", 0, "one", 3))


def test_double_low_blue_one_rejects_highhp_target_r9():
    assert_rejected(start("C14", [1, 1, 5, 1]), Play("C14", 1, "one", 2))


def test_odd_up_green_one_rejects_even_target_r33():
    card = custom("green", "ODD_UP")
    assert_rejected(start(card, [1, 1, 4, 1]), Play(card, 0, "one", 2))


def test_even_down_blue_one_rejects_odd_target_r33():
    card = custom("blue", "EVEN_DOWN")
    assert_rejected(start(card, [5, 2, 2, 2]), Play(card, 0, "one", 0))


def test_r9_all_players_play_affecting_nobody_is_legal_and_does_nothing():
    g = start("C22", [5, 3, 1, 5])
    assert Play("C22", 1, "all", None) in legal_commands(g.state, 0)
    ev = play(g, "C22", 1, "all")
    assert "lives_changed" not in g.types(ev)
    assert g.lives == [5, 3, 1, 5] and finished(g, "C22", ev)


def test_r9_blue_all_blast_with_nobody_highhp_does_nothing():
    card = custom("blue", "BLAST")
    g = start(card, [3, 2, 1, 3])
    ev = play(g, card, 0, "all")
    assert moves(ev, [3, 2, 1, 3]) == [] and finished(g, card, ev)


# R10: table-wide whatever the scope; LOWHP and TOPHP together get only the LOWHP part
def test_r10_lowhp_and_tophp_player_only_moves_up():
    g = start("C12", [3, 2, 3, 1])
    ev = play(g, "C12", 1, "all")
    assert g.lives == [4, 3, 4, 2] and finished(g, "C12", ev)


def test_r10_lowhp_and_tophp_player_is_set_to_two_not_five():
    g = start("C15", [3, 3, 1, 2])
    ev = play(g, "C15", 1, "all")
    assert g.lives == [2, 2, 2, 2] and finished(g, "C15", ev)


def test_r10_one_player_table_wide_play_may_name_any_player():
    card = custom("green", "LOW_2_TOP_5")
    g = start(card, [6, 4, 1, 6])
    offered = [c.target for c in legal_commands(g.state, 0) if c.card == card and c.effect == 0]
    assert offered == [0, 1, 2, 3]
    ev = play(g, card, 0, "one", 1)
    assert g.lives == [5, 4, 2, 5] and finished(g, card, ev)


# R12: DUEL, GIVE, STEAL, SWAP and BLAST need another player
def test_r12_duel_green_one_rejects_the_kostic_as_target_r3():
    assert_rejected(start("C01", [6, 6]), Play("C01", 0, "one", 0))


def test_r12_effects_needing_another_player_are_illegal_when_alone():
    """R17 ends a game before a lone player could play, so the state is built by hand."""
    g = start("C13", [6, 6])
    assert Play("C13", 0, "one", 0) in legal_commands(g.state, 0)  # a self-blast, with company
    hands = [["C01", "C06", "C10", "C13", "C16"], []]
    alone = fold(
        Event(e.type, {**e.data, "lives": [6, 0], "hands": hands})
        if e.type == "game_started"
        else e
        for e in g.events
    )
    kinds = {alone.deck.card(c.card).effects[c.effect].kind for c in legal_commands(alone, 0)}
    assert kinds == {"GAIN_1", "LOSE_1"}
    with pytest.raises(IllegalCommand) as err:
        execute(alone, Play("C13", 0, "one", 0), actor=0, seed=SEED)
    assert err.value.code == "illegal_move"


# R24: amounts act on the current lives as the effect resolves player by player
def test_r24_blue_all_blast_hits_lives_lowered_by_an_earlier_blast():
    card = custom("blue", "BLAST")
    g = start(card, [6, 5, 2, 2, 5])
    ev = play(g, card, 0, "all")
    assert (1, 4, 2) in moves(ev, [6, 5, 2, 2, 5])  # 5 - 1 (seat 0's blast) - 2
    assert (4, 4, 2) in moves(ev, [6, 5, 2, 2, 5])
    assert g.lives == [2, 2, 1, 1, 2] and finished(g, card, ev)


def test_r24_red_give_gives_from_lives_raised_earlier_in_the_order():
    """Seat 1 had 1 life; seat 0 gave him one, so his own gift leaves him at 1, not 0."""
    card = custom("red", "GIVE_NEIGHBOR")
    g = start(card, [2, 1, 5])
    ev = play(g, card, 0, "all") + choose(g, 0, 1) + choose(g, 1, 0) + choose(g, 2, 1)
    assert g.lives == [2, 2, 4] and finished(g, card, ev)


# R27: BLAST neighbours are fixed before P loses 2; eliminations go P, left, right
def test_r27_blast_eliminates_left_neighbour_then_right():
    g = start("C13", [3, 1, 4, 1])
    ev = play(g, "C13", 0, "one", 2)
    assert moves(ev, [3, 1, 4, 1]) == [(2, 4, 2), (3, 1, 0), (1, 1, 0)]
    out = [(e.data["seat"], e.data["by"]) for e in ev if e.type == "player_eliminated"]
    assert out == [(3, 0), (1, 0)]
    assert g.lives == [5, 0, 2, 0]  # R14: the Kostič gains one per player eliminated
    assert g.state.discard[-1] == "C13"
    assert (g.state.phase, g.state.awaiting) == ("handoff", [3])  # R15: in the order eliminated


def test_r27_player_eliminated_by_his_own_blast_still_hits_both_neighbours():
    """Kostič 4, order 4, 0, 1, 2, 3: seat 3 (4 lives before) is down to 2 by his turn."""
    card = custom("blue", "BLAST")
    g = start(card, [5, 4, 4, 4, 4], kostic=4)
    ev = play(g, card, 0, "all")
    out = [e.data["seat"] for e in ev if e.type == "player_eliminated"]
    assert out == [1, 3, 4, 2]  # seat 3's blast: P, left (4), right (2)
    assert g.lives == [1, 0, 0, 0, 0]  # R28: the Kostič is out, so no bonus
    assert card in g.state.discard
    assert (g.state.status, g.state.winners) == ("ended", [0])  # R17


def test_r27_all_players_eliminations_follow_the_r11_order():
    """Kostič 2: the order is 2, 3, 4, 0, 1; a self-eliminating Kostič gives no bonus (R14)."""
    g = start("C06", [1, 5, 1, 1, 5], kostic=2)
    ev = play(g, "C06", 1, "all")
    out = [(e.data["seat"], e.data["by"]) for e in ev if e.type == "player_eliminated"]
    assert out == [(2, None), (3, 2), (0, 2)]
    assert g.lives == [0, 4, 0, 0, 4]  # R28: the eliminator is out, so no bonus
    assert g.state.discard[-1] == "C06"
    assert (g.state.phase, g.state.awaiting) == ("handoff", [2])
