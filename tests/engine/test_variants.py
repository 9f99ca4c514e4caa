"""The winners (section 4) and the 4-player variants (section 6, R20): Pairs (partners
opposite, 0+2 and 1+3) and Pairs extreme (partners side by side, 0+1 and 2+3, who see each
other's hands, R23)."""

from __future__ import annotations

import pytest

from games.engine import Handoff, IllegalCommand, Play, new_game, redact_event
from games.engine import view_for as view
from tests.engine.helpers import SEED, gain, rigged

# Seat 0 (the Kostič) eliminates seat 2 with green LOSE_1 (C25); everyone else holds one-player
# GAIN_1 cards and the deck's top is GAIN_1 cards too, so turns can be driven with GAIN_1 plays.
HANDS = [["C25", "C29", "C30"], ["C31", "C32", "C33"], ["C34", "C35", "C36"], ["C03", "C08", "C17"]]
GAIN_TOP = ["C20", "C26", "C01", "C02", "C10", "C13"]
DECLINE = Handoff(None, None)


def seat_2_out(variant: str, lives: list[int], handoff: Handoff = DECLINE):
    """Turn 1: seat 0 eliminates seat 2, who then hands off (or declines)."""
    game = rigged(4, variant=variant, hands=HANDS, lives=lives, deck=GAIN_TOP)
    game.do(Play("C25", 0, "one", 2), 0)
    game.passes()
    game.do(handoff, 2)
    return game


def play_out(game, target: int | None = None) -> None:
    """Drive the countdown to the end with GAIN_1 plays."""
    while game.state.status == "active":
        gain(game, target)


# Winners: most lives (eliminated players count 0); tie -> most cards in hand; still tied -> all.
def test_winner_has_the_most_lives_even_with_fewer_cards() -> None:
    game = seat_2_out("standard", [5, 5, 1, 5], Handoff("C35", 1))
    play_out(game, target=0)
    assert game.lives == [6, 5, 0, 5]
    assert [len(h) for h in game.state.hands] == [3, 4, 0, 3]
    assert game.state.winners == [0]


def test_winners_tied_on_lives_are_decided_by_most_cards_in_hand() -> None:
    game = seat_2_out("standard", [5, 6, 1, 6], Handoff("C35", 3))
    play_out(game)
    assert game.lives == [6, 6, 0, 6]
    assert [len(h) for h in game.state.hands] == [3, 3, 0, 4]
    assert game.state.winners == [3]


def test_winners_still_tied_all_tied_players_win() -> None:
    game = seat_2_out("standard", [5, 6, 1, 6])
    play_out(game)
    assert game.lives == [6, 6, 0, 6]
    assert [len(h) for h in game.state.hands] == [3, 3, 0, 3]
    assert game.state.winners == [0, 1, 3]


def test_winners_eliminated_players_count_zero_lives_so_if_all_are_out_all_win() -> None:
    # Red LOSE_1 on all at 1 life each: both are out (R17), hands go to the discard pile (R29).
    game = rigged(2, hands=[["C06", "C29"], ["C30"]], lives=[1, 1])
    game.do(Play("C06", 1, "all", None), 0)
    game.passes()
    assert game.lives == [0, 0] and game.state.hands == [[], []]
    assert game.state.winners == [0, 1]


# Pairs and Pairs extreme.
@pytest.mark.parametrize(
    ("variant", "teams", "partners"),
    [("pairs", [0, 1, 0, 1], [2, 3, 0, 1]), ("pairs_extreme", [0, 0, 1, 1], [1, 0, 3, 2])],
)
def test_partners_sit_opposite_in_pairs_and_side_by_side_in_pairs_extreme(
    variant: str, teams: list[int], partners: list[int]
) -> None:
    game = rigged(4, variant=variant)
    assert [p["team"] for p in view(game.state, 0)["players"]] == teams
    assert [game.state.partner(seat) for seat in range(4)] == partners


@pytest.mark.parametrize("variant", ["pairs", "pairs_extreme"])
@pytest.mark.parametrize("seats", [2, 3, 5, 6])
def test_pairs_variants_need_four_seats(variant: str, seats: int) -> None:
    with pytest.raises(IllegalCommand) as err:
        new_game(seats=seats, seed=SEED, variant=variant)
    assert err.value.code == "invalid"


@pytest.mark.parametrize(
    ("variant", "winners"),
    [("standard", [0]), ("pairs", [0, 2]), ("pairs_extreme", [0, 1])],
)
def test_pair_of_the_last_player_standing_wins_with_its_eliminated_member(
    variant: str, winners: list[int]
) -> None:
    # Red LOSE_1 (C06) on all eliminates seats 1, 2 and 3 at once (R17).
    game = rigged(
        4, variant=variant, hands=[["C06", "C29"], ["C30"], ["C31"], ["C32"]], lives=[6, 1, 1, 1]
    )
    game.do(Play("C06", 1, "all", None), 0)
    game.passes()
    assert game.lives == [6, 0, 0, 0]
    assert game.state.winners == winners


def test_pairs_member_with_most_lives_wins_for_his_pair_even_if_partner_eliminated() -> None:
    # Seats 1 and 3 end on 5 lives each (10 together); seat 0 on 6, his partner seat 2 is out.
    game = seat_2_out("pairs", [5, 5, 1, 5])
    play_out(game, target=0)
    assert game.lives == [6, 5, 0, 5]
    assert game.state.winners == [0, 2]


def test_r20_pairs_tied_on_lives_are_compared_by_the_best_members_cards_in_hand() -> None:
    # Seat 2 hands a card to his partner seat 0: 4 cards against seat 1's and seat 3's 3.
    game = seat_2_out("pairs", [5, 6, 1, 6], Handoff("C35", 0))
    play_out(game)
    assert game.lives == [6, 6, 0, 6]
    assert [len(h) for h in game.state.hands] == [4, 3, 0, 3]
    assert game.state.winners == [0, 2]


def test_r20_the_best_member_is_the_one_with_most_lives_not_most_cards() -> None:
    # Pair 1+3: seat 1 has (6 lives, 3 cards), seat 3 (5 lives, 4 cards); its best member is
    # seat 1, tied with seat 0's (6, 3), so both pairs win (seat 3's 4 cards do not count).
    game = seat_2_out("pairs", [5, 6, 1, 5], Handoff("C35", 3))
    play_out(game, target=0)
    assert game.lives == [6, 6, 0, 5]
    assert [len(h) for h in game.state.hands] == [3, 3, 0, 4]
    assert game.state.winners == [0, 1, 2, 3]


def test_r20_pairs_still_tied_both_pairs_win() -> None:
    game = seat_2_out("pairs", [5, 6, 1, 6])
    play_out(game)
    assert game.lives == [6, 6, 0, 6]
    assert [len(h) for h in game.state.hands] == [3, 3, 0, 3]
    assert game.state.winners == [0, 1, 2, 3]


def test_pairs_extreme_partners_see_each_others_hands_in_the_view() -> None:
    game = rigged(4, variant="pairs_extreme", hands=HANDS)
    assert [view(game.state, seat)["partner_hand"] for seat in range(4)] == [
        HANDS[1],
        HANDS[0],
        HANDS[3],
        HANDS[2],
    ]
    assert view(game.state, None)["partner_hand"] is None


@pytest.mark.parametrize("variant", ["standard", "pairs"])
def test_partner_hand_is_shown_only_in_pairs_extreme(variant: str) -> None:
    game = rigged(4, variant=variant, hands=HANDS)
    assert [view(game.state, seat)["partner_hand"] for seat in range(4)] == [None] * 4


@pytest.mark.parametrize(
    ("variant", "seen_by_0"),
    [("pairs_extreme", [True, True, False, False]), ("pairs", [True, False, False, False])],
    ids=["pairs_extreme", "pairs"],
)
def test_only_pairs_extreme_partners_see_each_others_dealt_hands_in_events(
    variant: str, seen_by_0: list[bool]
) -> None:
    game = rigged(4, variant=variant, hands=HANDS)
    started = next(e for e in game.events if e.type == "game_started")
    hands = redact_event(started, game.state, 0)["hands"]
    assert hands == [HANDS[p] if seen else [None] * 3 for p, seen in enumerate(seen_by_0)]


def test_pairs_extreme_partner_sees_the_card_drawn() -> None:
    # Seat 0 plays GAIN_1 on himself and draws C20 (the rigged top of the deck).
    game = rigged(4, variant="pairs_extreme", hands=HANDS, deck=GAIN_TOP)
    gain(game)
    drawn = next(e for e in game.events if e.type == "card_drawn")
    seen = [redact_event(drawn, game.state, v)["card"] for v in (0, 1, 2, 3, None)]
    assert seen == ["C20", "C20", None, None, None]


def test_pairs_extreme_the_receivers_partner_sees_a_handed_card() -> None:
    # R15 with R23: seat 1 sees his partner seat 0's hand, so also the card handed to him.
    game = seat_2_out("pairs_extreme", [5, 6, 1, 6], Handoff("C35", 0))
    handed = next(e for e in game.events if e.type == "card_handed_off")
    assert redact_event(handed, game.state, 1)["card"] == "C35"
    assert redact_event(handed, game.state, None) == {
        "seat": 2,
        "card": None,
        "to": 0,
        "discarded": ["C34", "C36"],
    }
    assert "C35" in view(game.state, 1)["partner_hand"]
