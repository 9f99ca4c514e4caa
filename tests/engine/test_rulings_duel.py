"""Neighbours (R7, R8, R11, R12) and duels (R13, R34, and the duel eliminator of R14)."""

from __future__ import annotations

import pytest

from games.engine import (
    Bet,
    ChooseNeighbor,
    Deck,
    Event,
    Handoff,
    IllegalCommand,
    Join,
    Play,
    execute,
    fold,
    legal_commands,
    new_game,
)
from tests.engine.helpers import SEED, Game, rigged

# The standard deck has neighbour effects only in green; R11 needs an all-players (red) one.
RED_STEAL = Deck.from_rows(
    "red_steal",
    [["S1", "red", "STEAL_NEIGHBOR", "green", "GAIN_1"]]
    + [[f"F{i}", "green", "LOSE_1", "blue", "GAIN_1"] for i in range(1, 9)],
)
NEEDS_ANOTHER = {"DUEL", "GIVE_NEIGHBOR", "STEAL_NEIGHBOR", "SWAP_NEIGHBOR", "BLAST"}


class RedStealGame(Game):
    """A rigged game on RED_STEAL (helpers.rigged takes `deck=` as the rig's deck order)."""

    def __init__(self, seats: int, **rig) -> None:
        self.seed = SEED
        self.events = new_game(seats=seats, seed=SEED, deck=RED_STEAL, rig=rig)
        self.state = fold(self.events)
        for seat in range(seats):
            self.do(Join(f"p{seat}", seat))


def code_of(g: Game, command, seat: int) -> str:
    with pytest.raises(IllegalCommand) as err:
        g.do(command, seat)
    return err.value.code


def of_type(events, event_type: str) -> list[dict]:
    return [e.data for e in events if e.type == event_type]


# R7: two players.


def test_r7_with_two_players_the_other_is_the_only_neighbour_and_no_choice_is_asked():
    """R7: with two players the other player is P's only neighbour (GIVE_NEIGHBOR on himself)."""
    g = rigged(2, hands=[["C10", "C30"], ["C31"]], lives=[5, 3])
    g.do(Play("C10", 0, "one", 0), 0)
    new = g.passes()
    assert "neighbor_requested" not in g.types(new)
    assert of_type(new, "lives_changed")[0]["changes"] == [[0, 4], [1, 4]]
    assert g.lives == [4, 4]


def test_r7_with_two_players_blast_hits_the_only_neighbour_once():
    """R7: the only neighbour is affected once, not twice (BLAST: P −2, each neighbour −1)."""
    g = rigged(2, hands=[["C13", "C30"], ["C31"]], lives=[6, 5])
    g.do(Play("C13", 0, "one", 0), 0)
    g.passes()
    assert g.lives == [4, 4]


# R8: who picks the neighbour.


def test_r8_player_with_two_neighbours_chooses_one_of_them():
    """R8: when P has two distinct neighbours, P decides (phase choose_neighbor awaits P)."""
    g = rigged(4, hands=[["C10", "C30"], ["C31"], ["C32"], ["C29"]], lives=[6, 3, 4, 2])
    g.do(Play("C10", 0, "one", 2), 0)  # green GIVE_NEIGHBOR: seat 2 gives
    new = g.passes()
    assert of_type(new, "neighbor_requested") == [{"seat": 2, "options": [3, 1]}]
    assert (g.state.phase, g.state.awaiting) == ("choose_neighbor", [2])
    assert legal_commands(g.state, 2) == [ChooseNeighbor(3), ChooseNeighbor(1)]
    assert legal_commands(g.state, 0) == []
    assert code_of(g, ChooseNeighbor(3), 0) == "not_your_turn"
    assert g.lives == [6, 3, 4, 2]
    g.do(ChooseNeighbor(1), 2)
    assert g.lives == [6, 4, 3, 2]


@pytest.mark.parametrize("bad", [0, 2, 5])
def test_r8_choosing_a_non_neighbour_is_illegal_move(bad):
    """R8: P picks one of his neighbours; anyone else (himself included) is rejected."""
    g = rigged(4, hands=[["C06", "C30"], ["C31"], ["C32"], ["C29"]], lives=[6, 3, 4, 2])
    g.do(Play("C06", 0, "one", 2), 0)  # green STEAL_NEIGHBOR: seat 2 steals
    g.passes()
    assert code_of(g, ChooseNeighbor(bad), 2) == "illegal_move"
    assert (g.state.phase, g.state.awaiting, g.lives) == ("choose_neighbor", [2], [6, 3, 4, 2])
    g.do(ChooseNeighbor(3), 2)
    assert g.lives == [6, 3, 5, 1]


def test_r8_with_one_neighbour_left_no_decision_is_asked():
    """R8: with one neighbour (seat 1 is out, so seats 0 and 2 neighbour only each other)."""
    g = rigged(3, hands=[["C25", "C30"], ["C26"], ["C06", "C31"]], lives=[4, 1, 5])
    g.do(Play("C25", 0, "one", 1), 0)  # green LOSE_1 eliminates seat 1
    g.passes()
    g.do(Handoff(None, None), 1)
    assert (g.state.kostic, g.lives) == (2, [5, 0, 5])  # R14: the Kostič's bonus
    g.do(Play("C06", 0, "one", 2), 2)  # green STEAL_NEIGHBOR: seat 2 steals
    new = g.passes()
    assert "neighbor_requested" not in g.types(new)
    assert of_type(new, "lives_changed")[0]["changes"] == [[0, 4], [2, 6]]
    assert g.lives == [4, 0, 6]


def test_r8_swap_neighbor_asks_the_player_with_two_neighbours():
    """R8: SWAP_NEIGHBOR follows the same rule: P with two neighbours decides."""
    g = rigged(4, hands=[["C16", "C30"], ["C31"], ["C32"], ["C29"]], lives=[5, 3, 4, 2])
    g.do(Play("C16", 0, "one", 0), 0)  # green SWAP_NEIGHBOR: the Kostič swaps
    new = g.passes()
    assert of_type(new, "neighbor_requested") == [{"seat": 0, "options": [1, 3]}]
    assert code_of(g, ChooseNeighbor(2), 0) == "illegal_move"
    g.do(ChooseNeighbor(3), 0)
    assert g.lives == [2, 3, 4, 5]


def test_r8_swap_neighbor_with_one_neighbour_asks_nothing():
    """R8: SWAP_NEIGHBOR with one neighbour: no decision is asked."""
    g = rigged(2, hands=[["C16", "C30"], ["C31"]], lives=[5, 2])
    g.do(Play("C16", 0, "one", 1), 0)
    new = g.passes()
    assert "neighbor_requested" not in g.types(new)
    assert g.lives == [2, 5]


# R11: all-players plays of per-player effects.


def test_r11_all_players_play_resolves_in_seat_order_from_the_kostic():
    """R11: seat order starting at the Kostič (2, 3, 0, 1); each chooses when his turn comes."""
    g = RedStealGame(4, first=2, hands=[["F1"], ["F2"], ["S1", "F3"], ["F4"]], lives=[2, 3, 4, 5])
    g.do(Play("S1", 0, "all", None), 2)
    g.passes()
    steps = [  # (chooser, options, choice, lives after)
        (2, (3, 1), 3, [2, 3, 5, 4]),
        (3, (0, 2), 2, [2, 3, 4, 5]),
        (0, (1, 3), 1, [3, 2, 4, 5]),
        (1, (2, 0), 2, [3, 3, 3, 5]),
    ]
    for chooser, options, choice, lives in steps:
        assert (g.state.phase, g.state.awaiting) == ("choose_neighbor", [chooser])
        assert legal_commands(g.state, chooser) == [ChooseNeighbor(o) for o in options]
        waiting = next(s for s in range(4) if s != chooser)
        assert code_of(g, ChooseNeighbor(chooser), waiting) == "not_your_turn"
        g.do(ChooseNeighbor(choice), chooser)
        assert g.lives == lives
    assert [d["seat"] for d in of_type(g.events, "neighbor_requested")] == [2, 3, 0, 1]
    assert g.state.kostic == 3


def test_r11_player_eliminated_earlier_in_the_order_is_skipped():
    """R11: a player eliminated earlier in the order is skipped (seat 1, robbed by seat 0)."""
    g = RedStealGame(4, first=0, hands=[["S1", "F1"], ["F2"], ["F3"], ["F4"]], lives=[4, 1, 4, 4])
    g.do(Play("S1", 0, "all", None), 0)
    g.passes()
    g.do(ChooseNeighbor(1), 0)
    assert g.lives == [5, 0, 4, 4]
    assert (g.state.awaiting, g.state.pending.neighbor_options) == ([2], (3, 0))
    g.do(ChooseNeighbor(0), 2)
    assert g.lives == [4, 0, 5, 4]
    new = g.do(ChooseNeighbor(2), 3)
    assert [d["seat"] for d in of_type(g.events, "neighbor_requested")] == [0, 2, 3]
    assert of_type(new, "effect_resolved")[0]["bonus"] == [[0, 5]]  # R14: the Kostič's +1
    assert g.lives == [5, 0, 4, 5]


# R12: effects that need another player.


@pytest.mark.parametrize(
    "play",
    [
        Play("C01", 0, "one", 0),  # DUEL
        Play("C10", 0, "one", 0),  # GIVE_NEIGHBOR
        Play("C06", 0, "one", 0),  # STEAL_NEIGHBOR
        Play("C16", 0, "one", 0),  # SWAP_NEIGHBOR
        Play("C13", 0, "one", 0),  # BLAST
    ],
)
def test_r12_effect_needing_another_player_is_illegal_when_none_exists(play):
    """R12: where no other player exists the play is illegal. R17 ends a real game first, so
    the lone-survivor state is folded from a rigged game's log plus a made-up life change."""
    hand = ["C01", "C10", "C06", "C16", "C13", "C30"]
    g = rigged(3, hands=[hand, ["C31"], ["C32"]])
    alone = fold([*g.events, Event("lives_changed", {"changes": [[1, 0], [2, 0]]})])
    assert (alone.lives, alone.phase, alone.awaiting) == ([6, 0, 0], "play", [0])
    legal = legal_commands(alone, 0)
    kinds = {alone.deck.card(p.card).effects[p.effect].kind for p in legal}
    assert not kinds & NEEDS_ANOTHER
    assert Play("C30", 0, "one", 0) in legal  # GAIN_1 needs nobody else
    with pytest.raises(IllegalCommand) as err:
        execute(alone, play, actor=0, seed=SEED)
    assert err.value.code == "illegal_move"


# R13: the duel.


def duel(options: dict | None = None, lives=(6, 4, 6), dice=()) -> Game:
    """Seat 0 (the Kostič) has played C01 (green DUEL) on seat 1; the window is closed."""
    g = rigged(
        3,
        hands=[["C01", "C30"], ["C31"], ["C32"]],
        deck=["C33"],
        lives=list(lives),
        dice=list(dice),
        options=options or {},
    )
    g.do(Play("C01", 0, "one", 1), 0)
    g.passes()
    return g


def test_r13_affected_player_bets_first_then_kostic_alternately():
    """R13: P bets first, then K, alternately; each bet and each roll is an event."""
    g = duel(dice=[4, 5, 2])
    assert of_type(g.events, "duel_started") == [{"seats": [1, 0]}]
    assert (g.state.phase, g.state.awaiting) == ("bet", [1])
    assert code_of(g, Bet("parity", "even"), 0) == "not_your_turn"
    new = g.do(Bet("parity", "even"), 1)  # rolls 4: hit
    assert g.types(new) == ["bet_placed", "die_rolled"]
    assert new[0].data == {"seat": 1, "kind": "parity", "value": "even"}
    assert (new[1].data["seat"], new[1].data["value"], new[1].data["hit"]) == (1, 4, True)
    assert (g.state.phase, g.state.awaiting) == ("bet", [0])
    new = g.do(Bet("size", "big"), 0)  # rolls 5: hit
    assert g.types(new) == ["bet_placed", "die_rolled"] and new[1].data["hit"] is True
    assert (g.state.awaiting, g.lives) == ([1], [6, 4, 6])
    new = g.do(Bet("size", "big"), 1)  # rolls 2: miss
    assert (new[1].data["seat"], new[1].data["value"], new[1].data["hit"]) == (1, 2, False)
    assert [(e["seat"], e["value"]) for e in of_type(g.events, "die_rolled")] == [
        (1, 4),
        (0, 5),
        (1, 2),
    ]
    assert len(of_type(g.events, "bet_placed")) == 3


def test_r13_bettor_who_misses_loses_two_lives_and_the_duel_ends():
    """R13: a bettor who misses loses 2 lives and the duel ends (here K misses his first bet)."""
    g = duel(dice=[3, 6])
    g.do(Bet("parity", "odd"), 1)  # 3: hit
    new = g.do(Bet("parity", "odd"), 0)  # 6: miss
    types = g.types(new)
    assert types[:4] == ["bet_placed", "die_rolled", "lives_changed", "effect_resolved"]
    assert new[2].data["changes"] == [[0, 4]]
    assert "bet_placed" not in types[1:] and "die_rolled" not in types[2:]
    assert g.lives == [4, 4, 6]
    assert (g.state.kostic, g.state.phase) == (1, "play")
    assert g.state.hands[0] == ["C30", "C33"]


def test_r13_with_duel_coin_a_coin_is_tossed_instead_of_a_die():
    """R13: with the option duel_coin a coin is tossed (odd = heads); each toss is an event."""
    g = duel(options={"duel_coin": True}, dice=[3, 4])
    new = g.do(Bet("coin", "heads"), 1)  # 3: heads, hit
    assert g.types(new) == ["bet_placed", "coin_tossed"]
    assert (new[1].data["side"], new[1].data["hit"]) == ("heads", True)
    new = g.do(Bet("coin", "heads"), 0)  # 4: tails, miss
    assert g.types(new)[:3] == ["bet_placed", "coin_tossed", "lives_changed"]
    assert (new[1].data["seat"], new[1].data["side"], new[1].data["hit"]) == (0, "tails", False)
    assert "die_rolled" not in g.types()
    assert g.lives == [4, 4, 6]


# R34: which bets are legal.


def test_r34_with_duel_coin_only_coin_bets_are_legal():
    """R34: with duel_coin only coin bets (heads/tails) are legal."""
    g = duel(options={"duel_coin": True})
    assert legal_commands(g.state, 1) == [Bet("coin", "heads"), Bet("coin", "tails")]
    for bet in (Bet("parity", "even"), Bet("size", "big")):
        assert code_of(g, bet, 1) == "illegal_move"
    assert (g.state.phase, g.state.awaiting) == ("bet", [1])


def test_r34_without_duel_coin_only_parity_and_size_bets_are_legal():
    """R34: without duel_coin only parity/size bets are legal."""
    g = duel()
    assert legal_commands(g.state, 1) == [
        Bet("parity", "even"),
        Bet("parity", "odd"),
        Bet("size", "small"),
        Bet("size", "big"),
    ]
    assert code_of(g, Bet("coin", "heads"), 1) == "illegal_move"
    assert (g.state.phase, g.state.awaiting) == ("bet", [1])


# R14: the eliminator in a duel.


def test_r14_duel_eliminator_is_the_other_participant_when_the_kostic_falls():
    """R14: in a duel the eliminator is the duel's other participant (here P, not the Kostič),
    who gets +1 after the effect."""
    g = duel(lives=(2, 4, 6), dice=[2, 1])
    g.do(Bet("parity", "even"), 1)  # 2: hit
    new = g.do(Bet("size", "big"), 0)  # 1: miss, K 2 → 0
    assert of_type(new, "lives_changed")[0]["changes"] == [[0, 0]]
    assert of_type(new, "player_eliminated") == [{"seat": 0, "by": 1}]
    assert of_type(new, "effect_resolved")[0]["bonus"] == [[1, 5]]
    types = g.types(new)
    assert types.index("player_eliminated") < types.index("effect_resolved")
    assert g.lives == [0, 5, 6]
    turn = g.do(Handoff(None, None), 0)  # R30: the fallen Kostič does not draw
    assert "card_drawn" not in g.types(turn)
    assert (g.state.kostic, g.state.hands[0]) == (1, [])


def test_r14_duel_eliminator_is_the_kostic_when_the_affected_player_falls():
    """R14: when P misses and falls, the other participant, the Kostič, gets +1 after it."""
    g = duel(lives=(3, 2, 6), dice=[5])
    new = g.do(Bet("size", "small"), 1)  # 5: miss, P 2 → 0
    assert of_type(new, "player_eliminated") == [{"seat": 1, "by": 0}]
    assert of_type(new, "effect_resolved")[0]["bonus"] == [[0, 4]]
    assert g.lives == [4, 0, 6]
