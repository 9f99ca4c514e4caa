"""Elimination and the end of the game (section 4): the eliminator's bonus (R14, R28), handoffs
(R15, R28), the countdown (R16, R31), the end (R17, R29, R30, R31) and the elimination order
(R27). The winners are in test_variants.py."""

from __future__ import annotations

import pytest

from games.engine import (
    Bet,
    Block,
    Deck,
    Handoff,
    IllegalCommand,
    Join,
    Pass,
    Play,
    fold,
    legal_commands,
    new_game,
    redact_event,
    view_for,
)
from tests.engine.helpers import SEED, Game, gain, rigged

# Hands for a 3-player game where seat 0 (the Kostič) eliminates seat 1 with green LOSE_1 (C25)
# and everyone else holds one-player GAIN_1 cards; the deck's top is GAIN_1 cards too.
HANDS3 = [["C25", "C29", "C30"], ["C34", "C35", "C36"], ["C31", "C32", "C33"]]
GAIN_TOP = ["C03", "C08", "C17", "C20", "C26"]
DECLINE = Handoff(None, None)

# A deck whose DUEL is blue, so it can be played on all players (R33).
DUEL_ALL = Deck.from_rows(
    "duel_all",
    [["D1", "blue", "DUEL", "red", "GAIN_1"]]
    + [[f"G{i}", "green", "GAIN_1", "blue", "LOSE_1"] for i in range(1, 20)],
)


class DuelGame(Game):
    """A rigged game on DUEL_ALL (helpers.rigged takes `deck=` as the rig's deck order)."""

    def __init__(self, seats: int, **rig) -> None:
        self.seed = SEED
        self.events = new_game(seats=seats, seed=SEED, deck=DUEL_ALL, rig={"first": 0, **rig})
        self.state = fold(self.events)
        for seat in range(seats):
            self.do(Join(f"p{seat}", seat))


def of_type(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.type == kind]


def first_elimination(handoff: Handoff = DECLINE, lives=(5, 1, 6)) -> Game:
    """Turn 1 of a 3-player game: seat 0 eliminates seat 1, who then hands off (or declines)."""
    game = rigged(3, hands=HANDS3, lives=list(lives), deck=GAIN_TOP)
    game.do(Play("C25", 0, "one", 1), 0)
    game.passes()
    game.do(handoff, 1)
    return game


def assert_over(game: Game) -> None:
    """R31: after any end there is no phase, no Kostič and nobody awaited."""
    view = view_for(game.state, 0)
    assert (view["status"], view["phase"], view["kostic"], view["awaiting"]) == (
        "ended",
        None,
        None,
        [],
    )
    assert view["legal"] == []


# R14 — the eliminator's bonus.
def test_r14_eliminator_gains_one_life() -> None:
    game = rigged(3, hands=HANDS3, lives=[4, 1, 6])
    game.do(Play("C25", 0, "one", 1), 0)
    new = game.passes()
    assert of_type(new, "player_eliminated") == [{"seat": 1, "by": 0}]
    assert game.lives == [5, 0, 6]


def test_r14_eliminator_gains_one_life_per_player_eliminated() -> None:
    # Red LOSE_1 (C06) on all: the Kostič loses 1 too, then gains 1 for each of seats 1 and 2.
    game = rigged(4, hands=[["C06", "C29"], ["C30"], ["C31"], ["C32"]], lives=[3, 1, 1, 5])
    game.do(Play("C06", 1, "all", None), 0)
    new = game.passes()
    assert of_type(new, "player_eliminated") == [{"seat": 1, "by": 0}, {"seat": 2, "by": 0}]
    assert game.lives == [4, 0, 0, 4]


def test_r14_kostic_who_eliminates_himself_gives_nobody_the_bonus() -> None:
    game = rigged(3, hands=HANDS3, lives=[1, 5, 5])
    game.do(Play("C25", 0, "one", 0), 0)
    new = game.passes()
    assert of_type(new, "player_eliminated") == [{"seat": 0, "by": None}]
    assert of_type(new, "effect_resolved")[0]["bonus"] == []
    assert game.lives == [0, 5, 5]


def test_r14_in_a_duel_the_eliminator_is_the_duels_other_participant() -> None:
    # Seat 1 bets even and hits (2); the Kostič bets even and misses (1): he is out, by seat 1.
    game = rigged(3, hands=[["C01", "C29"], ["C30", "C31"], ["C32"]], lives=[2, 5, 6], dice=[2, 1])
    game.do(Play("C01", 0, "one", 1), 0)
    game.passes()
    game.do(Bet("parity", "even"), 1)
    new = game.do(Bet("parity", "even"), 0)
    assert of_type(new, "player_eliminated") == [{"seat": 0, "by": 1}]
    assert game.lives == [0, 6, 6]


def test_r14_bonus_is_applied_after_the_effect_finishes() -> None:
    # All-players duel (R33): the Kostič (6) eliminates seat 1, then loses 2 to seat 2. Applied
    # at once, the bonus would be lost to R1 (6 -> 6 -> 4); applied at the end it counts (4 -> 5).
    game = DuelGame(3, hands=[["D1", "G1"], ["G2"], ["G3"]], lives=[6, 2, 5], dice=[1, 2, 1])
    game.do(Play("D1", 0, "all", None), 0)
    game.passes()
    game.do(Bet("parity", "even"), 1)  # misses (1): seat 1 loses 2
    game.do(Bet("parity", "even"), 2)  # hits (2)
    new = game.do(Bet("parity", "even"), 0)  # misses (1): the Kostič loses 2
    assert of_type(new, "effect_resolved")[0]["bonus"] == [[0, 5]]
    assert game.lives == [5, 0, 5]


def test_r14_bonus_is_capped_at_six_by_r1() -> None:
    game = rigged(4, hands=[["C06", "C29"], ["C30"], ["C31"], ["C32"]], lives=[6, 1, 1, 5])
    game.do(Play("C06", 1, "all", None), 0)
    game.passes()
    assert game.lives == [6, 0, 0, 4]  # 6 - 1 + 2, capped


# R15 — handoffs.
def test_r15_eliminated_player_is_asked_for_a_handoff() -> None:
    game = rigged(3, hands=HANDS3, lives=[4, 1, 6])
    game.do(Play("C25", 0, "one", 1), 0)
    game.passes()
    view = view_for(game.state, 1)
    assert (view["phase"], view["awaiting"], view["pending"]["handoff"]) == ("handoff", [1], 1)
    expected = [{"type": "handoff", "card": c, "to": to} for c in HANDS3[1] for to in (0, 2)]
    assert view["legal"] == [{"type": "handoff", "card": None, "to": None}, *expected]


def test_r15_handed_card_goes_to_the_receiver_and_the_rest_to_the_discard_pile() -> None:
    game = first_elimination(Handoff("C35", 2))
    assert game.state.hands[1] == []
    assert game.state.hands[2] == ["C31", "C32", "C33", "C35"]
    assert game.state.discard == ["C25", "C34", "C36"]


def test_r15_declining_sends_the_whole_hand_to_the_discard_pile() -> None:
    game = first_elimination(DECLINE)
    assert game.state.hands[1] == [] and game.state.hands[2] == HANDS3[2]
    assert game.state.discard == ["C25", "C34", "C35", "C36"]


@pytest.mark.parametrize("to", [1, 3], ids=["to_himself", "to_an_eliminated_seat"])
def test_r15_a_card_goes_only_to_a_player_still_in_the_game(to: int) -> None:
    # Red LOSE_1 on all eliminates seats 1 and 3; seat 1 may not give to himself or to seat 3.
    game = rigged(4, hands=[["C06", "C29"], ["C30"], ["C31"], ["C32"]], lives=[3, 1, 5, 1])
    game.do(Play("C06", 1, "all", None), 0)
    game.passes()
    with pytest.raises(IllegalCommand) as err:
        game.do(Handoff("C30", to), 1)
    assert err.value.code == "illegal_move"


def test_r15_the_kostic_draws_only_after_the_handoffs() -> None:
    game = rigged(3, hands=HANDS3, lives=[4, 1, 6], deck=GAIN_TOP)
    game.do(Play("C25", 0, "one", 1), 0)
    assert "card_drawn" not in game.types(game.passes())
    new = game.do(Handoff("C34", 0), 1)
    assert game.types(new)[:3] == ["card_handed_off", "card_drawn", "turn_ended"]
    assert game.state.hands[0] == ["C29", "C30", "C34", "C03"]


def test_r15_everyone_sees_to_whom_but_only_giver_and_receiver_see_which_card() -> None:
    game = first_elimination(Handoff("C35", 2))
    event = next(e for e in game.events if e.type == "card_handed_off")
    seen = {v: redact_event(event, game.state, v) for v in (0, 1, 2, None)}
    assert [(seen[v]["seat"], seen[v]["to"]) for v in seen] == [(1, 2)] * 4
    assert {v: seen[v]["card"] for v in seen} == {0: None, 1: "C35", 2: "C35", None: None}


# R16 — the countdown.
def test_r16_countdown_is_set_to_six_at_the_first_elimination() -> None:
    game = rigged(3, hands=HANDS3, lives=[4, 1, 6])
    game.do(Play("C25", 0, "one", 1), 0)
    new = game.passes()
    assert of_type(new, "countdown_started") == [{"value": 6}]
    assert view_for(game.state, None)["countdown"] == 6


def test_r16_the_turn_of_the_first_elimination_does_not_count() -> None:
    game = first_elimination()
    assert of_type(game.events, "turn_ended") == [{"turn": 1, "countdown": 6, "game_over": False}]
    assert game.state.countdown == 6


def test_r16_countdown_goes_down_by_one_after_each_later_turn() -> None:
    game = first_elimination()
    for expected in (5, 4, 3, 2):
        gain(game)
        assert game.state.countdown == expected


def test_r16_the_game_lasts_six_more_turns() -> None:
    game = first_elimination()
    turns = 0
    while game.state.status == "active":
        gain(game)
        turns += 1
    assert turns == 6
    assert [e["countdown"] for e in of_type(game.events, "turn_ended")] == [6, 5, 4, 3, 2, 1, 1]


def test_r16_further_eliminations_change_nothing() -> None:
    # Turn 1: seat 0 eliminates seat 1; turn 2: seat 2 eliminates seat 3 with green LOSE_1 (C27).
    hands = [["C25", "C29", "C30"], ["C34"], ["C27", "C31", "C32"], ["C35"]]
    game = rigged(4, hands=hands, lives=[5, 1, 6, 1], deck=GAIN_TOP)
    game.do(Play("C25", 0, "one", 1), 0)
    game.passes()
    game.do(DECLINE, 1)
    game.do(Play("C27", 0, "one", 3), 2)
    game.passes()
    game.do(DECLINE, 3)
    assert game.state.countdown == 5
    while game.state.status == "active":
        gain(game)
    assert len(of_type(game.events, "countdown_started")) == 1
    assert [e["countdown"] for e in of_type(game.events, "turn_ended")] == [6, 5, 4, 3, 2, 1, 1]


# R17, R29, R30, R31 — the end.
def test_r17_game_ends_at_once_when_fewer_than_two_players_remain() -> None:
    game = rigged(2, hands=[["C25", "C29"], ["C30", "C31"]], lives=[3, 1])
    game.do(Play("C25", 0, "one", 1), 0)
    new = game.passes()
    assert game.types(new)[-3:] == ["countdown_started", "effect_resolved", "game_ended"]
    assert game.state.winners == [0]
    assert_over(game)
    with pytest.raises(IllegalCommand) as err:
        game.do(Pass(), 1)
    assert err.value.code == "game_over"


def test_r29_last_eliminations_bonus_then_end_without_handoffs_or_draw() -> None:
    game = rigged(3, hands=[["C06", "C29"], ["C30", "C31"], ["C32"]], lives=[5, 1, 1])
    draw_before = list(game.state.draw)
    game.do(Play("C06", 1, "all", None), 0)
    new = game.passes()
    types = game.types(new)
    assert not {"card_handed_off", "card_drawn", "turn_ended"} & set(types)
    assert game.lives == [6, 0, 0]  # 5 - 1 + 2
    assert game.state.hands == [["C29"], [], []]
    assert game.state.discard == ["C06", "C30", "C31", "C32"]
    assert game.state.draw == draw_before
    assert game.state.winners == [0]
    assert_over(game)


def test_r29_no_countdown_step_when_the_last_elimination_ends_the_game() -> None:
    game = first_elimination(lives=(5, 1, 1))
    gain(game, target=0)  # turn 2, seat 2: the countdown goes 6 -> 5
    assert game.state.countdown == 5
    game.do(Play("C29", 1, "one", 2), 0)  # turn 3: seat 0's blue LOSE_1 eliminates seat 2
    new = game.passes()
    assert "turn_ended" not in game.types(new)
    assert game.state.countdown == 5
    assert game.state.winners == [0]


def test_r30_kostic_eliminated_during_his_own_turn_does_not_draw() -> None:
    game = rigged(3, hands=HANDS3, lives=[1, 5, 5], deck=GAIN_TOP)
    game.do(Play("C25", 0, "one", 0), 0)
    game.passes()
    assert (game.state.phase, game.state.awaiting) == ("handoff", [0])  # R15: he may hand off
    new = game.do(DECLINE, 0)
    assert "card_drawn" not in game.types(new)
    assert game.state.draw[:5] == GAIN_TOP
    assert (game.state.turn, game.state.kostic) == (2, 1)


def test_r31_on_the_countdowns_last_turn_the_kostic_still_draws_then_the_game_ends() -> None:
    game = first_elimination()
    for _ in range(5):
        gain(game)
    assert (game.state.countdown, game.state.kostic) == (1, 0)
    new = gain(game)
    assert game.types(new)[-3:] == ["card_drawn", "turn_ended", "game_ended"]
    assert of_type(new, "card_drawn")[0]["seat"] == 0
    assert of_type(new, "turn_ended")[0]["game_over"] is True
    assert game.state.countdown == 1
    assert_over(game)


def test_r31_the_last_drawn_card_counts_in_the_tie_break() -> None:
    # Seat 2 spends a card on a block, so both end on 6 lives; the Kostič of the last turn
    # (seat 0) wins only with the card he draws then (3 cards against 2).
    game = first_elimination()
    gain(game)  # turn 2, seat 2
    game.do(Play("C29", 0, "one", 0), 0)  # turn 3, seat 0; seat 2 blocks
    block = next(c for c in legal_commands(game.state, 2) if isinstance(c, Block))
    game.do(block, 2)
    while game.state.status == "active":
        gain(game)
    assert game.lives == [6, 0, 6]
    assert [len(h) for h in game.state.hands] == [3, 0, 2]
    assert game.state.winners == [0]


# R27, R28 — the order and the exceptions.
def test_r27_blast_eliminates_the_left_neighbour_before_the_right() -> None:
    # BLAST (C13) on seat 2: its left neighbour is seat 3, its right seat 1.
    hands = [["C13", "C29"], ["C30", "C31"], ["C32"], ["C33", "C34"]]
    game = rigged(4, hands=hands, lives=[3, 1, 4, 1])
    game.do(Play("C13", 0, "one", 2), 0)
    new = game.passes()
    assert of_type(new, "player_eliminated") == [{"seat": 3, "by": 0}, {"seat": 1, "by": 0}]
    assert game.lives == [5, 0, 2, 0]
    assert game.state.awaiting == [3]  # R15: handoffs in the order eliminated
    game.do(DECLINE, 3)
    assert (game.state.phase, game.state.awaiting) == ("handoff", [1])


def test_r27_an_all_players_play_eliminates_in_the_r11_order() -> None:
    # Seat 2 plays red LOSE_1 (C06): the order is 2, 3, 4, 0, 1.
    hands = [["C29"], ["C30"], ["C06", "C31"], ["C32"], ["C33"]]
    game = rigged(5, hands=hands, lives=[1, 1, 3, 6, 1], first=2)
    game.do(Play("C06", 1, "all", None), 2)
    new = game.passes()
    assert [e["seat"] for e in of_type(new, "player_eliminated")] == [4, 0, 1]
    assert game.lives == [0, 0, 5, 5, 0]
    order = []
    while game.state.phase == "handoff":
        order.append(game.state.awaiting[0])
        game.do(DECLINE, order[-1])
    assert order == [4, 0, 1]


def test_r28_an_eliminator_out_of_the_game_when_the_effect_finishes_gets_no_bonus() -> None:
    # All-players duel: the Kostič eliminates seat 1, then seat 2 eliminates the Kostič.
    hands = [["D1", "G1"], ["G2"], ["G3"], ["G4"]]
    game = DuelGame(4, hands=hands, lives=[2, 2, 5, 5], dice=[1, 2, 1])
    game.do(Play("D1", 0, "all", None), 0)
    game.passes()
    game.do(Bet("parity", "even"), 1)  # misses (1)
    game.do(Bet("parity", "even"), 2)  # hits (2)
    new = game.do(Bet("parity", "even"), 0)  # misses (1)
    assert of_type(game.events, "player_eliminated") == [{"seat": 1, "by": 0}, {"seat": 0, "by": 2}]
    assert of_type(new, "effect_resolved")[0]["bonus"] == [[2, 6]]
    assert game.lives == [0, 0, 6, 5]


def test_r28_a_kostic_out_of_the_game_gives_no_bonus_for_others_he_eliminated() -> None:
    game = rigged(4, hands=[["C06", "C29"], ["C30"], ["C31"], ["C32"]], lives=[1, 1, 5, 5])
    game.do(Play("C06", 1, "all", None), 0)
    new = game.passes()
    assert of_type(new, "player_eliminated") == [{"seat": 0, "by": None}, {"seat": 1, "by": 0}]
    assert of_type(new, "effect_resolved")[0]["bonus"] == []
    assert game.lives == [0, 0, 4, 4]


def test_r28_an_eliminated_player_with_an_empty_hand_is_not_asked_for_a_handoff() -> None:
    game = rigged(3, hands=[HANDS3[0], [], HANDS3[2]], lives=[4, 1, 6], deck=GAIN_TOP)
    game.do(Play("C25", 0, "one", 1), 0)
    new = game.passes()
    assert "card_handed_off" not in game.types(new)
    assert game.types(new)[-4:] == ["effect_resolved", "card_drawn", "turn_ended", "turn_started"]
    assert (game.state.phase, game.state.kostic) == ("play", 2)
