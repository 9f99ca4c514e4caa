"""Every effect in every scope colour (sections 2 and 3): red = all players, green = one player,
blue = one or all. Colours the standard deck never shows are played from CUSTOM (R33).

Here: LOSE_1 to DUEL. The conditional and table-wide effects, and the rulings on conditions
(R1, R6, R9, R10, R12, R24, R27), are in test_effects_conditions.py; both use the helpers of
tests/engine/effects_helpers.py."""

from __future__ import annotations

from tests.engine.effects_helpers import (
    bet,
    choose,
    custom,
    finished,
    moves,
    play,
    start,
)


# LOSE_1
def test_lose_1_red_all_players_lose_one():
    g = start("C06", [6, 5, 4, 2])
    ev = play(g, "C06", 1, "all")
    assert moves(ev, [6, 5, 4, 2]) == [(0, 6, 5), (1, 5, 4), (2, 4, 3), (3, 2, 1)]
    assert g.lives == [5, 4, 3, 1] and finished(g, "C06", ev)


def test_lose_1_green_one_target_loses_one():
    g = start("C25", [6, 6, 6, 6])
    ev = play(g, "C25", 0, "one", 2)
    assert moves(ev, [6, 6, 6, 6]) == [(2, 6, 5)]
    assert g.lives == [6, 6, 5, 6] and finished(g, "C25", ev)


def test_lose_1_blue_one_kostic_may_target_himself_r3():
    g = start("C04", [4, 6, 6, 6])
    ev = play(g, "C04", 1, "one", 0)
    assert g.lives == [3, 6, 6, 6] and moves(ev, [4, 6, 6, 6]) == [(0, 4, 3)]
    assert finished(g, "C04", ev)


def test_lose_1_blue_all_players_lose_one():
    g = start("C04", [6, 3, 2, 5])
    ev = play(g, "C04", 1, "all")
    assert g.lives == [5, 2, 1, 4] and len(moves(ev, [6, 3, 2, 5])) == 4
    assert finished(g, "C04", ev)


# GAIN_1
def test_gain_1_red_all_players_gain_one_capped_at_six_r1():
    g = start("C01", [6, 5, 1, 3])
    ev = play(g, "C01", 1, "all")
    assert moves(ev, [6, 5, 1, 3]) == [(1, 5, 6), (2, 1, 2), (3, 3, 4)]
    assert g.lives == [6, 6, 2, 4] and finished(g, "C01", ev)


def test_gain_1_green_one_target_gains_one():
    g = start("C29", [6, 3, 6, 6])
    ev = play(g, "C29", 0, "one", 1)
    assert moves(ev, [6, 3, 6, 6]) == [(1, 3, 4)] and finished(g, "C29", ev)


def test_gain_1_blue_one_target_gains_one():
    g = start("C03", [6, 6, 6, 1])
    ev = play(g, "C03", 1, "one", 3)
    assert g.lives == [6, 6, 6, 2] and finished(g, "C03", ev)


def test_gain_1_blue_all_players_gain_one():
    g = start("C03", [1, 2, 4, 5])
    ev = play(g, "C03", 1, "all")
    assert g.lives == [2, 3, 5, 6] and len(moves(ev, [1, 2, 4, 5])) == 4
    assert finished(g, "C03", ev)


# GIVE_NEIGHBOR
def test_give_neighbor_green_one_target_chooses_and_gives_r8():
    g = start("C10", [3, 3, 3, 3])
    ev = play(g, "C10", 0, "one", 1)
    assert ev[-1].type == "neighbor_requested" and ev[-1].data["options"] == [2, 0]
    ev += choose(g, 1, 2)
    assert moves(ev, [3, 3, 3, 3]) == [(1, 3, 2), (2, 3, 4)]
    assert g.lives == [3, 2, 4, 3] and finished(g, "C10", ev)


def test_give_neighbor_red_all_each_player_gives_in_turn_r11():
    card = custom("red", "GIVE_NEIGHBOR")
    g = start(card, [3, 3, 3, 3])
    ev = play(g, card, 0, "all")
    for seat, neighbor in ((0, 1), (1, 0), (2, 1), (3, 2)):
        ev += choose(g, seat, neighbor)
    assert g.lives == [3, 4, 3, 2] and finished(g, card, ev)


def test_give_neighbor_blue_one_target_gives_to_chosen_neighbor():
    card = custom("blue", "GIVE_NEIGHBOR")
    g = start(card, [2, 2, 2, 5])
    ev = play(g, card, 0, "one", 3) + choose(g, 3, 0)
    assert moves(ev, [2, 2, 2, 5]) == [(3, 5, 4), (0, 2, 3)] and finished(g, card, ev)


def test_give_neighbor_blue_all_gift_above_six_is_lost_r1():
    card = custom("blue", "GIVE_NEIGHBOR")
    g = start(card, [4, 2, 6])
    ev = play(g, card, 0, "all") + choose(g, 0, 2) + choose(g, 1, 0) + choose(g, 2, 1)
    assert g.lives == [4, 2, 5] and finished(g, card, ev)


def test_give_neighbor_green_two_players_asks_no_choice_r8():
    """R7/R8: with two players the other one is the only neighbour; nobody is asked."""
    g = start("C10", [4, 4])
    ev = play(g, "C10", 0, "one", 0)
    assert "neighbor_requested" not in g.types(ev)
    assert g.lives == [3, 5] and finished(g, "C10", ev)


# STEAL_NEIGHBOR
def test_steal_neighbor_green_one_target_steals_from_chosen_neighbor():
    g = start("C06", [6, 6, 3, 5])
    ev = play(g, "C06", 0, "one", 2) + choose(g, 2, 3)
    assert moves(ev, [6, 6, 3, 5]) == [(3, 5, 4), (2, 3, 4)]
    assert g.lives == [6, 6, 4, 4] and finished(g, "C06", ev)


def test_steal_neighbor_red_all_each_player_steals_in_turn_r11():
    card = custom("red", "STEAL_NEIGHBOR")
    g = start(card, [2, 4, 5, 3])
    ev = play(g, card, 0, "all")
    for seat, neighbor in ((0, 1), (1, 2), (2, 3), (3, 2)):
        ev += choose(g, seat, neighbor)
    assert g.lives == [3, 4, 4, 3] and finished(g, card, ev)


def test_steal_neighbor_blue_one_target_steals():
    card = custom("blue", "STEAL_NEIGHBOR")
    g = start(card, [4, 4, 4, 4])
    ev = play(g, card, 0, "one", 1) + choose(g, 1, 0)
    assert g.lives == [3, 5, 4, 4] and finished(g, card, ev)


def test_steal_neighbor_blue_all_gain_above_six_is_lost_r1():
    card = custom("blue", "STEAL_NEIGHBOR")
    g = start(card, [6, 1, 3])
    ev = play(g, card, 0, "all") + choose(g, 0, 2) + choose(g, 1, 0) + choose(g, 2, 1)
    assert g.lives == [5, 1, 3] and finished(g, card, ev)


# SWAP_NEIGHBOR
def test_swap_neighbor_green_one_target_swaps_with_chosen_neighbor():
    g = start("C16", [2, 5, 4, 6])
    ev = play(g, "C16", 0, "one", 0) + choose(g, 0, 3)
    assert moves(ev, [2, 5, 4, 6]) == [(0, 2, 6), (3, 6, 2)]
    assert g.lives == [6, 5, 4, 2] and finished(g, "C16", ev)


def test_swap_neighbor_red_all_swaps_current_lives_in_turn_r24():
    card = custom("red", "SWAP_NEIGHBOR")
    g = start(card, [1, 2, 3, 4])
    ev = play(g, card, 0, "all")
    for seat, neighbor in ((0, 1), (1, 2), (2, 3), (3, 0)):
        ev += choose(g, seat, neighbor)
    assert g.lives == [1, 3, 4, 2] and finished(g, card, ev)


def test_swap_neighbor_blue_one_target_swaps():
    card = custom("blue", "SWAP_NEIGHBOR")
    g = start(card, [6, 1, 4, 3])
    ev = play(g, card, 0, "one", 2) + choose(g, 2, 1)
    assert g.lives == [6, 4, 1, 3] and finished(g, card, ev)


def test_swap_neighbor_blue_all_swaps_in_turn():
    card = custom("blue", "SWAP_NEIGHBOR")
    g = start(card, [1, 5, 6])
    ev = play(g, card, 0, "all") + choose(g, 0, 1) + choose(g, 1, 2) + choose(g, 2, 0)
    assert g.lives == [1, 6, 5] and finished(g, card, ev)


# BLAST
def test_blast_green_one_target_loses_two_neighbours_one_r27():
    g = start("C13", [6, 6, 6, 6])
    ev = play(g, "C13", 0, "one", 1)
    assert moves(ev, [6, 6, 6, 6]) == [(1, 6, 4), (2, 6, 5), (0, 6, 5)]  # P, left, right
    assert g.lives == [5, 4, 5, 6] and finished(g, "C13", ev)


def test_blast_red_all_only_highhp_blast_but_lowhp_are_hit_r9():
    card = custom("red", "BLAST")
    g = start(card, [6, 6, 3, 6])
    ev = play(g, card, 0, "all")
    assert [m for m in moves(ev, [6, 6, 3, 6]) if m[0] == 2] == [(2, 3, 2), (2, 2, 1)]
    assert g.lives == [2, 3, 1, 3] and finished(g, card, ev)


def test_blast_blue_one_target_loses_two_neighbours_one():
    card = custom("blue", "BLAST")
    g = start(card, [2, 2, 2, 4])
    ev = play(g, card, 0, "one", 3)
    assert moves(ev, [2, 2, 2, 4]) == [(3, 4, 2), (0, 2, 1), (2, 2, 1)]
    assert finished(g, card, ev)


def test_blast_blue_all_only_highhp_blast_r9():
    card = custom("blue", "BLAST")
    g = start(card, [6, 3, 6, 3, 3])
    ev = play(g, card, 0, "all")
    assert moves(ev, [6, 3, 6, 3, 3]) == [
        (0, 6, 4),
        (1, 3, 2),
        (4, 3, 2),
        (2, 6, 4),
        (3, 3, 2),
        (1, 2, 1),
    ]
    assert g.lives == [4, 1, 4, 2, 2] and finished(g, card, ev)


def test_blast_green_two_players_hits_the_only_neighbour_once_r7():
    g = start("C13", [6, 6])
    ev = play(g, "C13", 0, "one", 0)
    assert moves(ev, [6, 6]) == [(0, 6, 4), (1, 6, 5)] and finished(g, "C13", ev)


# DUEL (section 3.1): P bets first, then K; a miss costs 2 lives and ends the duel
def test_duel_green_one_target_bets_first_and_kostic_misses():
    g = start("C01", [6, 6, 6, 6], dice=[2, 4])
    ev = play(g, "C01", 0, "one", 2)
    assert ev[-1].type == "duel_started" and ev[-1].data["seats"] == [2, 0]
    ev += bet(g, 2, "parity", "even") + bet(g, 0, "parity", "odd")
    rolls = [(e.data["value"], e.data["hit"]) for e in ev if e.type == "die_rolled"]
    assert rolls == [(2, True), (4, False)]
    assert moves(ev, [6, 6, 6, 6]) == [(0, 6, 4)] and finished(g, "C01", ev)


def test_duel_red_all_kostic_duels_each_other_player_in_turn_r33():
    card = custom("red", "DUEL")
    g = start(card, [6, 6, 6, 6], dice=[1, 5, 2, 6])
    ev = play(g, card, 0, "all")
    ev += bet(g, 1, "parity", "even")  # 1: miss
    ev += bet(g, 2, "size", "big") + bet(g, 0, "size", "big")  # 5: hit, 2: miss
    ev += bet(g, 3, "parity", "odd")  # 6: miss
    assert [e.data["seats"] for e in ev if e.type == "duel_started"] == [[1, 0], [2, 0], [3, 0]]
    assert moves(ev, [6, 6, 6, 6]) == [(1, 6, 4), (0, 6, 4), (3, 6, 4)]
    assert finished(g, card, ev)


def test_duel_blue_one_target_misses_and_loses_two():
    card = custom("blue", "DUEL")
    g = start(card, [6, 6, 6, 5], dice=[3])
    ev = play(g, card, 0, "one", 3) + bet(g, 3, "size", "big")
    assert moves(ev, [6, 6, 6, 5]) == [(3, 5, 3)] and finished(g, card, ev)


def test_duel_blue_all_kostic_duels_each_other_player_r33():
    card = custom("blue", "DUEL")
    g = start(card, [5, 6, 4], dice=[2, 1, 4])
    ev = play(g, card, 0, "all")
    ev += bet(g, 1, "parity", "even") + bet(g, 0, "parity", "even")  # 2: hit, 1: miss
    ev += bet(g, 2, "parity", "odd")  # 4: miss
    assert moves(ev, [5, 6, 4]) == [(0, 5, 3), (2, 4, 2)] and finished(g, card, ev)
