"""The pairing is a pure function (games.tournaments.pairing): properties over random fields,
histories and table sizes (hypothesis). "Repeats minimal" as docs/TOURNAMENTS.md defines it:
no swap of two players between tables lowers the repeated pairs, never more repeats than
cutting the order into tables, and none in a first round."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.pairing import met_counts, pair, repeats, table_sizes


@st.composite
def fields(draw):
    lo = draw(st.integers(2, 6))
    hi = draw(st.integers(lo, 6))
    n = draw(st.integers(lo, 40))
    players = [f"p{i}" for i in range(n)]
    rounds = draw(st.integers(0, 4))
    history = []
    rnd = draw(st.randoms(use_true_random=False))
    for _ in range(rounds):
        order = players[:]
        rnd.shuffle(order)
        past = pair(order, {}, history, lo, hi)
        history += past.tables
    points = {p: draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0])) for p in players}
    order = sorted(players, key=lambda p: -points[p])
    return order, points, history, lo, hi


@settings(max_examples=150, deadline=None)
@given(fields())
def test_everyone_sits_at_exactly_one_table_or_has_a_bye(field):
    order, points, history, lo, hi = field
    result = pair(order, points, history, lo, hi)
    seated = [p for t in result.tables for p in t]
    assert sorted(seated + result.byes) == sorted(order)
    assert len(set(seated)) == len(seated)


@settings(max_examples=150, deadline=None)
@given(fields())
def test_every_table_size_is_within_bounds_and_byes_only_when_no_split_seats_all(field):
    order, points, history, lo, hi = field
    result = pair(order, points, history, lo, hi)
    assert all(lo <= len(t) <= hi for t in result.tables)
    n = len(order)
    splits = any(t * lo <= n <= t * hi for t in range(1, n + 1))
    assert (result.byes == []) == splits


@settings(max_examples=150, deadline=None)
@given(fields())
def test_no_swap_between_tables_lowers_the_repeats(field):
    order, points, history, lo, hi = field
    result = pair(order, points, history, lo, hi)
    met = met_counts(history)
    best = repeats(result.tables, met)
    tables = result.tables
    for i, j in combinations(range(len(tables)), 2):
        for a in tables[i]:
            for b in tables[j]:
                swapped = [t[:] for t in tables]
                swapped[i][swapped[i].index(a)] = b
                swapped[j][swapped[j].index(b)] = a
                assert repeats(swapped, met) >= best


@settings(max_examples=150, deadline=None)
@given(fields())
def test_never_more_repeats_than_cutting_the_order(field):
    order, points, history, lo, hi = field
    result = pair(order, points, history, lo, hi)
    met = met_counts(history)
    cut, at = [], 0
    for size in table_sizes(len(order), lo, hi):
        cut.append(order[at : at + size])
        at += size
    assert repeats(result.tables, met) <= repeats(cut, met)


def test_a_first_round_has_no_repeats_and_keeps_the_order_together():
    players = [f"p{i}" for i in range(7)]
    result = pair(players, {}, [], 3, 4)
    assert result.tables == [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6"]]


def test_seven_at_three_to_four_is_four_and_three_and_five_at_three_has_byes():
    assert table_sizes(7, 3, 4) == [4, 3]
    assert table_sizes(9, 3, 3) == [3, 3, 3]
    assert table_sizes(5, 3, 3) == [3]
    assert table_sizes(2, 3, 4) == []


def test_a_second_round_avoids_the_first_rounds_table_mates_when_it_can():
    players = [f"p{i}" for i in range(8)]
    first = pair(players, {}, [], 4, 4)
    second = pair(players, {}, first.tables, 4, 4)
    # 8 players at 2 tables of 4 must meet again (pigeonhole): 2 from each old table
    assert repeats(second.tables, met_counts(first.tables)) == 4
    twelve = [f"p{i}" for i in range(12)]
    one = pair(twelve, {}, [], 3, 3)
    two = pair(twelve, {}, one.tables, 3, 3)
    assert repeats(two.tables, met_counts(one.tables)) == 0
