"""Section 5 (blocking), R18, R19, R25, R26 and the R35 order of errors."""

from __future__ import annotations

import pytest

from games.engine import Block, ChooseNeighbor, IllegalCommand, Pass, Play, legal_commands, view_for
from tests.engine.helpers import Game, rigged

# Seat 0 is the Kostič. Seat 1 holds no green card; seat 2 one of each colour on effect a or b;
# seat 3 holds a single (green) card. The rig's deck puts C39 on top of the draw pile.
HANDS = [["C25", "C06", "C03"], ["C33", "C40"], ["C26", "C34", "C01"], ["C27"]]
GREEN_ONE = Play("C25", 0, "one", 1)  # green LOSE_1 on seat 1
RED_ALL = Play("C06", 1, "all", None)  # red LOSE_1 on everyone
BLUE_ONE = Play("C25", 1, "one", 3)  # blue GAIN_1 on seat 3


def table(**kw) -> Game:
    kw.setdefault("hands", HANDS)
    kw.setdefault("deck", ["C39"])
    return rigged(4, **kw)


def code_of(g: Game, command, seat) -> str:
    with pytest.raises(IllegalCommand) as err:
        g.do(command, seat)
    return err.value.code


# Section 5: who may block, with what, and what a block does.


@pytest.mark.parametrize(
    "play, seat, card",
    [
        pytest.param(GREEN_ONE, 2, "C26", id="green-by-effect-a"),
        pytest.param(RED_ALL, 2, "C34", id="red-by-effect-b"),
        pytest.param(BLUE_ONE, 2, "C26", id="blue-by-effect-b"),
        pytest.param(BLUE_ONE, 1, "C40", id="blue-by-both-effects"),
    ],
)
def test_s5_a_card_with_an_effect_of_the_played_colour_blocks(play, seat, card) -> None:
    """Section 5: a card with at least one effect of the played effect's colour may block."""
    g = table()
    lives = g.lives
    g.do(play, 0)
    assert Block(card) in legal_commands(g.state, seat)
    new = g.do(Block(card), seat)
    assert new[0].type == "play_blocked" and new[0].data == {"seat": seat, "card": card}
    assert "lives_changed" not in g.types(new)
    assert g.lives == lives
    assert card not in g.state.hands[seat]


@pytest.mark.parametrize(
    "play, seat, card",
    [
        pytest.param(GREEN_ONE, 1, "C33", id="green-play-blue-red-card"),
        pytest.param(RED_ALL, 1, "C40", id="red-play-blue-blue-card"),
        pytest.param(BLUE_ONE, 2, "C01", id="blue-play-green-red-card"),
    ],
)
def test_s5_a_card_without_the_played_colour_cannot_block(play, seat, card) -> None:
    """Section 5: the blocking card must share the played effect's colour."""
    g = table()
    g.do(play, 0)
    assert Block(card) not in legal_commands(g.state, seat)
    assert code_of(g, Block(card), seat) == "illegal_move"
    assert g.state.phase == "block" and card in g.state.hands[seat]


def test_s5_the_last_card_in_hand_cannot_block() -> None:
    """Section 5: a blocker must keep at least one card."""
    g = table()
    g.do(GREEN_ONE, 0)
    assert legal_commands(g.state, 3) == [Pass()]  # C27 is green, but it is his only card
    assert code_of(g, Block("C27"), 3) == "illegal_move"
    assert g.state.hands[3] == ["C27"]


def test_s5_a_block_cancels_the_whole_effect_for_everyone() -> None:
    """Section 5: the block cancels the whole effect, for every player (a red LOSE_1 here)."""
    g = table(lives=[6, 2, 1, 3])
    g.do(RED_ALL, 0)
    new = g.do(Block("C34"), 2)
    assert g.lives == [6, 2, 1, 3]
    assert g.types(new) == ["play_blocked", "card_drawn", "turn_ended", "turn_started"]
    assert g.state.countdown is None  # the seat on 1 life was not eliminated


def test_s5_the_kostic_is_not_asked_and_may_not_block_his_own_play() -> None:
    """Section 5: any *other* player still in the game may block."""
    g = table()
    g.do(GREEN_ONE, 0)
    assert 0 not in g.state.awaiting
    assert code_of(g, Block("C06"), 0) == "not_your_turn"


def test_s5_an_eliminated_player_is_not_asked() -> None:
    """Section 5: only players still in the game may block."""
    g = rigged(3, hands=[["C25"], ["C26", "C27", "C28"], []], lives=[6, 6, 1], deck=["C39"])
    g.do(Play("C25", 0, "one", 2), 0)
    g.passes()
    assert g.lives == [6, 6, 0]
    g.do(Play("C26", 0, "one", 0), 1)
    assert g.state.awaiting == [0]
    assert code_of(g, Pass(), 2) == "not_your_turn"


# R18: the first valid block wins; no counter-block; the Kostič still draws.


def test_r18_the_first_valid_block_wins_and_nobody_blocks_after_it() -> None:
    """R18: any asked player may block first (here seat 2 before seat 1 answers); it wins."""
    g = table(hands=[HANDS[0], ["C33", "C02"], ["C26", "C34", "C01"], ["C27", "C28"]])
    g.do(GREEN_ONE, 0)
    new = g.do(Block("C26"), 2)
    assert g.types(new).count("play_blocked") == 1
    assert g.state.kostic == 1 and g.state.phase == "play"
    # Seat 1 is now the Kostič of turn 2: a block is not what is asked of him.
    for seat, card, code in ((1, "C02", "illegal_move"), (3, "C28", "not_your_turn")):
        assert code_of(g, Block(card), seat) == code
    assert g.state.discard == ["C25", "C26"]


def test_r18_there_is_no_counter_block_window() -> None:
    """R18: after a block the turn goes straight on to the draw; nobody is asked again."""
    g = table()
    g.do(GREEN_ONE, 0)
    new = g.do(Block("C26"), 2)
    assert g.types(new) == ["play_blocked", "card_drawn", "turn_ended", "turn_started"]
    assert g.types()[-5] == "card_played" and "block_window_closed" not in g.types()


def test_r18_the_kostic_still_draws_after_a_block() -> None:
    """R18: a blocked Kostič still draws his card (C39, the top of the pile)."""
    g = table()
    g.do(GREEN_ONE, 0)
    new = g.do(Block("C26"), 2)
    assert new[1].data == {"seat": 0, "card": "C39"}
    assert sorted(g.state.hands[0]) == ["C03", "C06", "C39"]


# R19: who is asked, and when the window closes.


def test_r19_every_other_player_is_asked_even_one_who_cannot_block() -> None:
    """R19: seat 1 (no green card) and seat 3 (one card) are asked like seat 2."""
    g = table()
    g.do(GREEN_ONE, 0)
    assert g.state.phase == "block"
    assert g.state.awaiting == [1, 2, 3]
    assert legal_commands(g.state, 1) == [Pass()]
    assert legal_commands(g.state, 3) == [Pass()]


def test_r19_the_window_stays_open_until_every_asked_player_has_passed() -> None:
    """R19: two passes out of three leave the window open."""
    g = table()
    g.do(GREEN_ONE, 0)
    assert g.types(g.do(Pass(), 3)) == ["block_passed"]
    assert g.types(g.do(Pass(), 1)) == ["block_passed"]
    assert g.state.phase == "block" and g.state.awaiting == [2]
    assert g.lives == [6, 6, 6, 6]


def test_r19_the_window_closes_when_the_last_asked_player_passes() -> None:
    """R19: the last pass closes the window and the effect resolves."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.do(Pass(), 1)
    g.do(Pass(), 3)
    new = g.do(Pass(), 2)
    assert g.types(new)[:3] == ["block_passed", "block_window_closed", "lives_changed"]
    assert g.lives == [6, 5, 6, 6]


# R25: the played card while pending, and where it goes.


def test_r25_the_played_card_leaves_the_hand_and_is_shown_as_the_pending_play() -> None:
    """R25: the card leaves the hand when announced and is shown face up as pending."""
    g = table()
    g.do(GREEN_ONE, 0)
    assert g.state.hands[0] == ["C06", "C03"]
    public = view_for(g.state, None)
    assert public["pending"]["card"] == "C25" and public["pending"]["effect"] == 0
    assert public["players"][0]["hand_count"] == 2
    assert public["discard"] == []


def test_r25_a_blocked_play_discards_the_played_card_then_the_blocking_card() -> None:
    """R25: on a block the played card goes to the discard pile first, then the blocking card."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.do(Block("C26"), 2)
    assert g.state.discard == ["C25", "C26"]


def test_r25_a_resolved_play_is_discarded_only_when_it_has_finished_resolving() -> None:
    """R25: while the effect waits for a neighbour choice the card is still pending."""
    g = table(hands=[["C10", "C06", "C03"], *HANDS[1:]])
    g.do(Play("C10", 0, "one", 2), 0)  # green GIVE_NEIGHBOR: seat 2 chooses seat 1 or 3
    g.passes()
    assert g.state.phase == "choose_neighbor"
    assert g.state.discard == [] and view_for(g.state, None)["pending"]["card"] == "C10"
    g.do(ChooseNeighbor(3), 2)
    assert g.state.discard == ["C10"]


# R26: a pass is final.


def test_r26_a_player_who_passed_may_not_pass_again() -> None:
    """R26: a second pass is not_your_turn and adds no event."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.do(Pass(), 2)
    count = len(g.events)
    assert code_of(g, Pass(), 2) == "not_your_turn"
    assert len(g.events) == count


def test_r26_a_player_who_passed_may_not_block_later() -> None:
    """R26: after passing, even a valid blocking card is refused with not_your_turn."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.do(Pass(), 2)
    assert code_of(g, Block("C26"), 2) == "not_your_turn"
    assert "C26" in g.state.hands[2]
    assert legal_commands(g.state, 2) == []


# R35: the first failure in the order game over -> not your turn -> illegal move.


def ended() -> Game:
    g = rigged(2, hands=[["C25", "C26"], ["C02", "C03"]], lives=[6, 1])
    g.do(Play("C25", 0, "one", 1), 0)
    g.passes()
    assert g.state.status == "ended"
    return g


@pytest.mark.parametrize("seat", [0, 1, None])
def test_r35_game_over_comes_before_every_other_check(seat) -> None:
    """R35: after the end even a play out of turn with a card nobody holds is game_over."""
    g = ended()
    assert code_of(g, Play("C99", 1, "all", 7), seat) == "game_over"
    assert code_of(g, Block("C02"), seat) == "game_over"


@pytest.mark.parametrize("seat", [1, 2, None])
def test_r35_a_sender_who_may_not_act_gets_not_your_turn_before_illegal_move(seat) -> None:
    """R35: an illegal play from a seat that is not on turn is not_your_turn."""
    g = table()
    assert code_of(g, Play("C99", 0, "all", 5), seat) == "not_your_turn"
    assert code_of(g, Play("C26", 0, "one", 0), seat) == "not_your_turn"


def test_r35_a_player_who_passed_gets_not_your_turn_even_for_an_illegal_block() -> None:
    """R35: 'also a player who already passed' — checked before the rule is."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.do(Pass(), 1)
    assert code_of(g, Block("C33"), 1) == "not_your_turn"


def test_r35_the_seat_on_turn_breaking_a_rule_gets_illegal_move() -> None:
    """R35: a sender who may act, with a command that breaks a rule, gets illegal_move."""
    g = table()
    assert code_of(g, Play("C25", 0, "all", None), 0) == "illegal_move"
    g.do(GREEN_ONE, 0)
    assert code_of(g, Block("C33"), 1) == "illegal_move"
