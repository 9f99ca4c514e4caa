"""Setup and turn flow: the first Kostič (R2, R32), targets (R3), drawing (R4), skipping (R5)
and the basics of section 2 (scope by colour, the draw, the next Kostič)."""

from __future__ import annotations

import pytest

from games.engine import (
    Deck,
    Handoff,
    IllegalCommand,
    Join,
    Play,
    fold,
    legal_commands,
    new_game,
    rng,
)
from tests.engine.helpers import SEED, Game, rigged

# A small deck for games whose every card is rigged into a hand (R4, R5).
SMALL = Deck.from_rows(
    "small",
    [[f"A{i}", "green", "LOSE_1", "blue", "GAIN_1"] for i in range(1, 8)]
    + [["N1", "green", "DOUBLE_LOW", "green", "HALVE_EVEN"]],
)


class SmallDeckGame(Game):
    """A rigged game on SMALL (helpers.rigged takes `deck=` as the rig's deck order)."""

    def __init__(self, seats: int, *, seed: bytes = SEED, **rig) -> None:
        self.seed = seed
        self.events = new_game(seats=seats, seed=seed, deck=SMALL, rig={"first": 0, **rig})
        self.state = fold(self.events)
        for seat in range(seats):
            self.do(Join(f"p{seat}", seat))


def first_rolls(g: Game) -> list[tuple[int, int]]:
    return [(e.data["seat"], e.data["value"]) for e in g.events if e.type == "die_rolled"]


def turn_started(events) -> list[int]:
    return [e.data["kostic"] for e in events if e.type == "turn_started"]


def after(g: Game, event_type: str) -> list:
    """The events after the first `event_type` in the game's log."""
    index = g.types().index(event_type)
    return g.events[index + 1 :]


# R2 / R32: the first Kostič.


def test_r2_r32_every_player_rolls_in_seat_order_and_the_highest_starts():
    """R32: everyone rolls in seat order; R2: the highest roll starts. Every roll is an event."""
    g = Game(4, dice=[2, 6, 3, 1])
    assert first_rolls(g) == [(0, 2), (1, 6), (2, 3), (3, 1)]
    assert all(e.data["purpose"] == "first" for e in g.events if e.type == "die_rolled")
    assert g.types(after(g, "game_started")) == ["die_rolled"] * 4 + ["turn_started"]
    assert turn_started(g.events) == [1]
    assert (g.state.kostic, g.state.phase, g.state.awaiting) == (1, "play", [1])


def test_r2_r32_tied_highest_reroll_among_themselves_in_seat_order():
    """R2: players tied for highest re-roll among themselves; R32: in seat order."""
    g = Game(4, dice=[3, 5, 2, 5, 4, 6])
    assert first_rolls(g) == [(0, 3), (1, 5), (2, 2), (3, 5), (1, 4), (3, 6)]
    assert turn_started(g.events) == [3]


def test_r2_rerolls_repeat_until_one_player_is_highest():
    """R2: "re-roll among themselves until one is highest" — a tie in a re-roll re-rolls again."""
    g = Game(3, dice=[6, 6, 6, 4, 4, 2, 3, 5])
    assert first_rolls(g) == [(0, 6), (1, 6), (2, 6), (0, 4), (1, 4), (2, 2), (0, 3), (1, 5)]
    assert turn_started(g.events) == [1]


def test_r2_r22_unrigged_first_rolls_are_events_derived_from_the_seed():
    """R2: every roll is an event; R22: each is derived from the seed, numbered in order."""
    g = Game(4)
    rolls = [e.data for e in g.events if e.type == "die_rolled"]
    assert len(rolls) >= 4
    assert [r["n"] for r in rolls] == list(range(len(rolls)))
    assert [r["value"] for r in rolls] == [rng.roll(SEED, n) for n in range(len(rolls))]
    contenders, rest = [0, 1, 2, 3], iter(rolls)
    while len(contenders) > 1:  # R2/R32: one round per set of contenders, in seat order
        round_ = [next(rest) for _ in contenders]
        assert [r["seat"] for r in round_] == contenders
        top = max(r["value"] for r in round_)
        contenders = [r["seat"] for r in round_ if r["value"] == top]
    assert next(rest, None) is None
    assert g.state.kostic == contenders[0]


# R3: one-player targets.


def test_r3_one_player_target_may_be_the_kostic_himself():
    """R3: a one-player target may be the Kostič himself."""
    g = rigged(3, hands=[["C25", "C30"], ["C33"], ["C34"]], lives=[6, 6, 6])
    play = Play("C25", 0, "one", 0)  # green LOSE_1 on himself
    assert play in legal_commands(g.state, 0)
    g.do(play, 0)
    g.passes()
    assert g.lives == [5, 6, 6]


def test_r3_duel_target_must_be_another_player():
    """R3: ...except for DUEL (the target must be another player)."""
    g = rigged(3, hands=[["C01", "C30"], ["C33"], ["C34"]])
    legal = legal_commands(g.state, 0)
    assert Play("C01", 0, "one", 0) not in legal
    assert Play("C01", 0, "one", 1) in legal and Play("C01", 0, "one", 2) in legal
    with pytest.raises(IllegalCommand) as err:
        g.do(Play("C01", 0, "one", 0), 0)
    assert err.value.code == "illegal_move"
    assert g.state.hands[0] == ["C01", "C30"] and g.state.phase == "play"


# R4: drawing from an empty pile.


@pytest.mark.parametrize("seed", [SEED, bytes(32)])
def test_r4_empty_draw_pile_reshuffles_the_discard_pile_from_the_seed(seed):
    """R4: if the draw pile is empty, the discard pile is shuffled into a new draw pile first."""
    g = SmallDeckGame(
        3, seed=seed, lives=[6, 6, 1], hands=[["A1", "A2"], ["A3"], ["A4", "A5", "A6", "A7", "N1"]]
    )
    assert g.state.draw == []
    g.do(Play("A1", 0, "one", 2), 0)  # green LOSE_1: seat 2 is eliminated
    g.passes()
    new = g.do(Handoff(None, None), 2)  # declines: the rest of his hand is discarded
    discard = ["A1", "A4", "A5", "A6", "A7", "N1"]
    order = rng.shuffle(seed, 0, discard)
    assert order != discard
    assert g.types(new)[:3] == ["card_handed_off", "deck_reshuffled", "card_drawn"]
    assert new[1].data == {"draw": order, "n": 0}
    assert new[2].data == {"seat": 0, "card": order[0]}
    assert g.state.hands[0] == ["A2", order[0]]
    assert (g.state.draw, g.state.discard) == (order[1:], [])


def test_r4_both_piles_empty_no_card_is_drawn():
    """R4: if both the draw and the discard pile are empty, no card is drawn."""
    g = SmallDeckGame(2, hands=[[], ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "N1"]])
    turn = after(g, "game_started")
    assert g.types(turn) == ["turn_started", "turn_skipped", "turn_ended", "turn_started"]
    assert g.state.hands[0] == [] and len(g.state.hands[1]) == 8
    assert (g.state.draw, g.state.discard) == ([], [])
    assert g.state.kostic == 1


# R5: skipping.


def test_r5_kostic_with_no_card_skips_and_only_draws():
    """R5: a Kostič with no card in hand skips steps 1–5 and only draws."""
    g = rigged(3, hands=[[], ["C25"], ["C26"]], deck=["C30", "C31"], lives=[4, 5, 6])
    turn = after(g, "game_started")
    assert g.types(turn) == [
        "turn_started",
        "turn_skipped",
        "card_drawn",
        "turn_ended",
        "turn_started",
    ]
    assert turn[1].data == {"seat": 0, "reason": "empty_hand"}
    assert turn[2].data == {"seat": 0, "card": "C30"}
    assert g.state.hands == [["C30"], ["C25"], ["C26"]]
    assert g.lives == [4, 5, 6] and g.state.discard == []
    assert (g.state.kostic, g.state.turn) == (1, 2)


def test_r5_kostic_with_no_legal_play_skips_and_only_draws():
    """R5: a Kostič with no legal play (DOUBLE_LOW needs 1–3, HALVE_EVEN even; all have 5)."""
    g = SmallDeckGame(3, hands=[["N1"], ["A1"], ["A2"]], lives=[5, 5, 5])
    turn = after(g, "game_started")
    assert g.types(turn) == [
        "turn_started",
        "turn_skipped",
        "card_drawn",
        "turn_ended",
        "turn_started",
    ]
    assert turn[1].data == {"seat": 0, "reason": "no_legal_play"}
    assert turn[2].data == {"seat": 0, "card": "A3"}  # unnamed cards lie in catalog order
    assert g.state.hands[0] == ["N1", "A3"]
    assert g.lives == [5, 5, 5] and g.state.discard == []
    assert g.state.kostic == 1


# Section 2: scope by colour, the draw and the next Kostič.


@pytest.mark.parametrize(
    "play",
    [
        Play("C01", 1, "one", 0),  # red GAIN_1 on one player
        Play("C01", 1, "one", 1),
        Play("C01", 0, "all", None),  # green DUEL on all players
        Play("C25", 0, "all", None),  # green LOSE_1 on all players
        Play("C01", 1, "all", 0),  # red, but "all" names no target (API.md)
    ],
)
def test_scope_must_fit_colour_else_illegal_move(play):
    """Section 2: red = all players, green = exactly one; anything else is illegal_move."""
    g = rigged(3, hands=[["C01", "C25"], ["C33"], ["C34"]])
    assert play not in legal_commands(g.state, 0)
    with pytest.raises(IllegalCommand) as err:
        g.do(play, 0)
    assert err.value.code == "illegal_move"
    assert g.state.phase == "play" and g.state.hands[0] == ["C01", "C25"]


def test_red_effect_acts_on_all_players_kostic_included():
    """Section 2: red = all players still in the game, Kostič included."""
    g = rigged(3, hands=[["C01", "C25"], ["C33"], ["C34"]], lives=[5, 4, 6])
    assert Play("C01", 1, "all", None) in legal_commands(g.state, 0)
    g.do(Play("C01", 1, "all", None), 0)
    g.passes()
    assert g.lives == [6, 5, 6]


@pytest.mark.parametrize(
    ("play", "lives"),
    [(Play("C03", 1, "one", 2), [5, 4, 4]), (Play("C03", 1, "all", None), [6, 5, 4])],
)
def test_blue_effect_may_be_played_on_one_or_all(play, lives):
    """Section 2: blue = the Kostič chooses one or all."""
    g = rigged(3, hands=[["C03", "C25"], ["C33"], ["C34"]], lives=[5, 4, 3])
    assert play in legal_commands(g.state, 0)
    g.do(play, 0)
    g.passes()
    assert g.lives == lives


def test_kostic_draws_one_card_at_the_end_of_the_turn():
    """Section 2 step 6: the Kostič draws one card (the top of the draw pile)."""
    g = rigged(3, hands=[["C25", "C26"], ["C29"], ["C30"]], deck=["C33", "C34"])
    g.do(Play("C25", 0, "one", 1), 0)
    turn = g.passes()
    types = g.types(turn)
    assert types.count("card_drawn") == 1
    assert types.index("effect_resolved") < types.index("card_drawn") < types.index("turn_ended")
    assert turn[types.index("card_drawn")].data == {"seat": 0, "card": "C33"}
    assert g.state.hands[0] == ["C26", "C33"] and g.state.draw[0] == "C34"
    assert g.state.hands[1:] == [["C29"], ["C30"]]


def test_next_kostic_is_the_next_player_to_the_left():
    """Section 2 step 7: the next Kostič is the next player to the left (seat 3 → seat 0)."""
    g = rigged(4, first=3, hands=[["C25"], ["C26"], ["C27"], ["C30", "C31"]])
    g.do(Play("C30", 0, "one", 3), 3)
    turn = g.passes()
    assert turn[-1].data == {"kostic": 0, "turn": 2}
    assert (g.state.kostic, g.state.awaiting) == (0, [0])


def test_next_kostic_skips_players_no_longer_in_the_game():
    """Section 2 step 7: ...the next player to the left still in the game (seat 1 is out)."""
    g = rigged(4, hands=[["C25", "C26"], ["C27"], ["C28"], ["C29"]], lives=[6, 1, 6, 6])
    g.do(Play("C25", 0, "one", 1), 0)
    g.passes()
    assert g.state.phase == "handoff" and g.lives == [6, 0, 6, 6]
    turn = g.do(Handoff(None, None), 1)
    assert turn_started(turn) == [2]
    assert (g.state.kostic, g.state.turn) == (2, 2)
