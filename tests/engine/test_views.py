"""What each viewer sees (R19, R23), what the service does on a timeout (R21) and auditable
randomness (R22)."""

from __future__ import annotations

import hashlib
import json

import pytest

from games.engine import (
    OMNISCIENT,
    Block,
    Deck,
    Event,
    Handoff,
    HeuristicBot,
    Join,
    Pass,
    Play,
    Timeout,
    deadline_kind,
    evolve,
    fold,
    legal_commands,
    new_game,
    redact_event,
    rng,
    view_for,
)
from tests.engine.helpers import SEED, Game, rigged

HANDS = [["C25", "C10", "C01"], ["C33", "C40"], ["C26", "C34", "C05"], ["C27", "C28"]]
GREEN_ONE = Play("C25", 0, "one", 1)  # green LOSE_1 on seat 1


def table(seats: int = 4, **kw) -> Game:
    kw.setdefault("hands", HANDS[:seats])
    kw.setdefault("deck", ["C39", "C38"])
    return rigged(seats, **kw)


def custom(rows: list[list[str]], seats: int, **kw) -> Game:
    """An unrigged game on a custom deck, every seat joined (first Kostič by die roll)."""
    g = Game.__new__(Game)
    g.seed = SEED
    g.events = new_game(seats=seats, seed=SEED, deck=Deck.from_rows("t", rows), **kw)
    g.state = fold(g.events)
    for seat in range(seats):
        g.do(Join(f"p{seat}", seat))
    return g


def of_type(g: Game, kind: str) -> list[Event]:
    return [e for e in g.events if e.type == kind]


# R19: nobody learns who passed before the window closes.


def test_r19_a_pass_changes_nothing_in_the_view_of_spectators_and_other_seats() -> None:
    """R19: the public view never shows who passed before the window closes."""
    g = table()
    g.do(GREEN_ONE, 0)
    viewers = [None, 0, 2, 3]
    before = {v: view_for(g.state, v) for v in viewers}
    g.do(Pass(), 1)
    for viewer in viewers:
        assert view_for(g.state, viewer) == before[viewer]
        assert view_for(g.state, viewer)["awaiting"] == [1, 2, 3]


def test_r19_the_player_who_passed_sees_himself_no_longer_awaited() -> None:
    """R19: only the passer knows his own pass; he has nothing left to send (R26)."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.do(Pass(), 1)
    mine = view_for(g.state, 1)
    assert mine["awaiting"] == [2, 3] and mine["legal"] == []


def test_r19_block_passed_hides_the_seat_while_the_window_is_open() -> None:
    """R19: a block_passed event names nobody to others while the window is open."""
    g = table()
    g.do(GREEN_ONE, 0)
    passed = g.do(Pass(), 2)[0]
    for viewer in (None, 0, 1, 3):
        assert redact_event(passed, g.state, viewer) == {"seat": None, "turn": 1}
    assert redact_event(passed, g.state, 2) == {"seat": 2, "turn": 1}
    assert redact_event(passed, g.state, OMNISCIENT)["seat"] == 2


@pytest.mark.parametrize("closing", ["passes", "block"])
def test_r19_block_passed_shows_the_seat_once_the_window_has_closed(closing) -> None:
    """R19: after the window closes (all passed, or a block) the passer is public."""
    g = table()
    g.do(GREEN_ONE, 0)
    passed = g.do(Pass(), 3)[0]
    g.passes() if closing == "passes" else g.do(Block("C26"), 2)
    assert g.state.phase != "block"
    for viewer in (None, 0, 1, 2):
        assert redact_event(passed, g.state, viewer)["seat"] == 3


# R23: hidden information.


def test_r23_a_player_sees_his_own_hand_and_no_other() -> None:
    """R23: seat 1's view holds his hand; no card of another hand appears anywhere in it."""
    g = table()
    g.do(GREEN_ONE, 0)
    view = view_for(g.state, 1)
    assert view["hand"] == ["C33", "C40"] and view["you"] == 1
    assert view["hands"] is None and view["partner_hand"] is None
    text = json.dumps(view)
    for seat in (0, 2, 3):
        for card in g.state.hands[seat]:
            assert card not in text


def test_r23_a_spectator_sees_no_hand() -> None:
    """R23: a spectator (viewer None) sees no hand at all."""
    g = table()
    view = view_for(g.state, None)
    assert view["hand"] == [] and view["hands"] is None and view["you"] is None
    assert view["legal"] == []
    text = json.dumps(view)
    assert not [card for hand in g.state.hands for card in hand if card in text]


def test_r23_lives_hand_sizes_pile_sizes_and_the_discard_pile_are_public() -> None:
    """R23: everyone sees the same lives, hand sizes, pile sizes and discard pile."""
    g = table(lives=[6, 2, 5, 3])
    g.do(GREEN_ONE, 0)
    g.do(Block("C26"), 2)
    for viewer in (None, 0, 1, 2, 3):
        view = view_for(g.state, viewer)
        assert [p["lives"] for p in view["players"]] == [6, 2, 5, 3]
        assert [p["hand_count"] for p in view["players"]] == [3, 2, 2, 2]
        assert view["draw_count"] == len(g.state.draw) == 40 - 10 - 1
        assert view["discard"] == ["C25", "C26"]


def test_r23_pairs_extreme_partners_see_each_others_hand() -> None:
    """R23: a player sees his own hand and his partner's in pairs extreme (0+1, 2+3)."""
    g = table(variant="pairs_extreme")
    assert view_for(g.state, 0)["partner_hand"] == HANDS[1]
    assert view_for(g.state, 3)["partner_hand"] == HANDS[2]
    for variant in ("standard", "pairs"):  # pairs partners sit opposite and see nothing
        assert view_for(table(variant=variant).state, 0)["partner_hand"] is None
    assert view_for(table(variant="pairs").state, 0)["hands"] is None


def test_r23_card_drawn_is_hidden_from_everyone_but_the_drawer() -> None:
    """R23: a drawn card is null for other seats and spectators."""
    g = table()
    g.do(GREEN_ONE, 0)
    g.passes()
    drawn = of_type(g, "card_drawn")[-1]
    assert drawn.data == {"seat": 0, "card": "C39"}
    assert redact_event(drawn, g.state, 0)["card"] == "C39"
    for viewer in (None, 1, 2, 3):
        assert redact_event(drawn, g.state, viewer) == {"seat": 0, "card": None}


def test_r23_game_started_shows_a_player_only_his_own_hand() -> None:
    """R23: the deal keeps its shape, with every card the viewer may not see as null."""
    g = table()
    started = of_type(g, "game_started")[0]
    mine = redact_event(started, g.state, 2)
    assert mine["hands"] == [[None] * 3, [None] * 2, HANDS[2], [None] * 2]
    assert mine["draw"] == [None] * 30 and mine["lives"] == [6, 6, 6, 6]
    public = redact_event(started, g.state, None)
    assert public["hands"] == [[None] * len(h) for h in HANDS]


def test_r23_a_rigged_game_created_event_hides_the_rigged_hands_and_deck() -> None:
    """R23: the rig's hands and deck would show every hand; only its lives and dice are left."""
    g = table()
    rig = redact_event(g.events[0], g.state, None)["rig"]
    assert "hands" not in rig and "deck" not in rig and rig["first"] == 0


def test_r23_deck_reshuffled_hides_the_new_draw_pile() -> None:
    """R23: a reshuffled pile is secret: nulls of the right length for everyone."""
    g = custom([[f"G{i}", "green", "GAIN_1", "red", "GAIN_1"] for i in range(8)], 2)
    while not of_type(g, "deck_reshuffled"):
        g.do(Timeout())
    assert g.state.status == "active"
    event = of_type(g, "deck_reshuffled")[0]
    for viewer in (None, 0, 1):
        assert redact_event(event, g.state, viewer)["draw"] == [None] * len(event.data["draw"])


def test_r23_a_handed_off_card_is_seen_only_by_giver_and_receiver() -> None:
    """R23/R15: everyone sees that a card passed and to whom; only the two see which card."""
    g = table(lives=[6, 6, 1, 6])
    g.do(Play("C25", 0, "one", 2), 0)
    g.passes()
    handed = g.do(Handoff("C34", 3), 2)[0]
    assert handed.data == {"seat": 2, "card": "C34", "to": 3, "discarded": ["C26", "C05"]}
    for viewer in (2, 3):
        assert redact_event(handed, g.state, viewer)["card"] == "C34"
    for viewer in (None, 0, 1):
        assert redact_event(handed, g.state, viewer) == {**handed.data, "card": None}


def test_r23_after_the_end_every_hand_and_card_is_public() -> None:
    """R23: after the game ends its whole history, hands included, is public."""
    g = table(seats=2, hands=[["C25", "C26"], ["C33", "C40"]], lives=[6, 1])
    g.do(GREEN_ONE, 0)
    g.passes()
    assert g.state.status == "ended"
    assert view_for(g.state, None)["hands"] == [["C26"], []]  # R29: seat 1's hand was discarded
    started = redact_event(of_type(g, "game_started")[0], g.state, None)
    assert started["hands"] == [["C25", "C26"], ["C33", "C40"]]
    for event in g.events:
        assert redact_event(event, g.state, None) == event.data


# R21: the service acts for a player whose deadline passed.


def test_r21_a_block_window_timeout_passes_for_everyone_still_asked() -> None:
    """R21: block window -> pass, for every seat that has not answered; timed_out comes first."""
    g = table()
    g.do(GREEN_ONE, 0)
    assert deadline_kind(g.state) == "block"
    g.do(Pass(), 2)
    new = g.do(Timeout())
    assert new[0].type == "timed_out" and new[0].data == {"phase": "block", "seats": [1, 3]}
    assert [e.data["seat"] for e in new[1:3]] == [1, 3]
    assert g.types(new)[1:4] == ["block_passed", "block_passed", "block_window_closed"]
    assert g.lives == [6, 5, 6, 6]


def test_r21_a_neighbour_choice_timeout_picks_the_left_neighbour() -> None:
    """R21: neighbour choice -> the left neighbour (seat+1): seat 2 gives a life to seat 3."""
    g = table(lives=[6, 6, 4, 3])
    g.do(Play("C10", 0, "one", 2), 0)
    g.passes()
    assert deadline_kind(g.state) == "turn"
    new = g.do(Timeout())
    assert g.types(new)[:2] == ["timed_out", "neighbor_chosen"]
    assert new[1].data == {"seat": 2, "neighbor": 3}
    assert g.lives == [6, 6, 3, 4]


@pytest.mark.parametrize("coin, bet", [(False, ("parity", "even")), (True, ("coin", "heads"))])
def test_r21_a_duel_bet_timeout_bets_parity_even_or_heads(coin, bet) -> None:
    """R21/R34: duel bet -> parity/even; with duel_coin a coin bet, heads."""
    g = table(options={"duel_coin": coin}, dice=[2])
    g.do(Play("C01", 0, "one", 1), 0)
    g.passes()
    assert g.state.phase == "bet" and deadline_kind(g.state) == "turn"
    new = g.do(Timeout())
    assert new[0].data == {"phase": "bet", "seats": [1]}
    assert new[1].data == {"seat": 1, "kind": bet[0], "value": bet[1]}
    assert new[2].type == ("coin_tossed" if coin else "die_rolled")
    assert new[2].data["hit"] is (not coin)  # a 2 is even, and tails


def test_r21_a_handoff_timeout_declines() -> None:
    """R21: handoff -> decline; the whole hand goes to the discard pile (R15)."""
    g = table(lives=[6, 6, 1, 6])
    g.do(Play("C25", 0, "one", 2), 0)
    g.passes()
    assert g.state.phase == "handoff" and deadline_kind(g.state) == "turn"
    new = g.do(Timeout())
    assert new[0].data == {"phase": "handoff", "seats": [2]}
    assert new[1].data == {"seat": 2, "card": None, "to": None, "discarded": HANDS[2]}
    assert g.state.discard == ["C25", *HANDS[2]]


def test_r21_a_play_timeout_makes_the_built_in_bots_legal_play() -> None:
    """R21: the Kostič's play -> a legal play chosen by the built-in bot."""
    g = table()
    assert deadline_kind(g.state) == "turn"
    choice = HeuristicBot().choose(g.state, 0)
    assert choice in legal_commands(g.state, 0)
    new = g.do(Timeout())
    assert new[0].data == {"phase": "play", "seats": [0]}
    assert new[1].type == "card_played"
    assert Play(**{k: v for k, v in new[1].data.items() if k != "seat"}) == choice


def test_r21_there_is_no_deadline_after_the_end() -> None:
    """R21/R31: after the end nobody is awaited, so no deadline applies."""
    g = table(seats=2, hands=[["C25", "C26"], ["C33", "C40"]], lives=[6, 1])
    g.do(GREEN_ONE, 0)
    g.passes()
    assert deadline_kind(g.state) is None


# R22: auditable randomness.

DUELS = [[f"D{i}", "green", "DUEL", "blue", "DUEL"] for i in range(10)]


def play_out(coin: bool) -> Game:
    """A 3-player game of duels only, every decision left to time out, played to its end."""
    g = custom(DUELS, 3, options={"duel_coin": coin})
    for _ in range(500):
        if g.state.status == "ended":
            return g
        g.do(Timeout())
    raise AssertionError("the game did not end")


def test_r22_game_created_commits_to_the_sha256_of_the_seed() -> None:
    """R22: the first event carries sha256(seed) in hex; the seed itself is nowhere yet."""
    g = table()
    assert g.events[0].data["seed_commitment"] == hashlib.sha256(SEED).hexdigest()
    assert view_for(g.state, None)["seed_commitment"] == hashlib.sha256(SEED).hexdigest()
    assert view_for(g.state, OMNISCIENT)["seed"] is None
    assert SEED.hex() not in json.dumps([e.as_dict() for e in g.events])


@pytest.mark.parametrize("coin", [False, True])
def test_r22_every_roll_and_shuffle_re_derives_from_the_revealed_seed(coin) -> None:
    """R22: with the seed from game_ended anyone re-derives the deal, rolls and reshuffles."""
    g = play_out(coin)
    end = g.events[-1]
    assert end.type == "game_ended"
    seed = bytes.fromhex(end.data["seed"])
    assert hashlib.sha256(seed).hexdigest() == g.events[0].data["seed_commitment"]
    assert seed == SEED and view_for(g.state, None)["seed"] == SEED.hex()
    rolls, shuffles, state = [], [], None
    for event in g.events:
        d = event.data
        if event.type == "game_started":
            pile = rng.shuffle(seed, d["shuffle"], [row[0] for row in DUELS])
            assert d["hands"] == [pile[seat:9:3] for seat in range(3)] and d["draw"] == pile[9:]
            shuffles.append(d["shuffle"])
        elif event.type in ("die_rolled", "coin_tossed"):
            assert d["rigged"] is False and d["value"] == rng.roll(seed, d["n"])
            rolls.append(d["n"])
        elif event.type == "deck_reshuffled":
            assert d["draw"] == rng.shuffle(seed, d["n"], state.discard)
            shuffles.append(d["n"])
        if event.type == "coin_tossed":
            assert d["side"] == ("heads" if d["value"] % 2 else "tails")
        state = evolve(state, event)
    assert rolls == list(range(len(rolls))) and len(rolls) > 5  # never the same roll twice
    assert shuffles == list(range(len(shuffles))) and len(shuffles) > 1


def test_r22_a_replay_by_fold_never_needs_the_seed() -> None:
    """R22: rolls and shuffles are written into the events; fold takes no seed."""
    g = play_out(coin=False)
    replay = fold(g.events)
    assert repr(replay) == repr(g.state)
    assert view_for(replay, OMNISCIENT) == view_for(g.state, OMNISCIENT)
    middle = fold(g.events[40:], fold(g.events[:40]))
    assert repr(middle) == repr(g.state)
