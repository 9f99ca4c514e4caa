"""Every command kind, every way it can be illegal: the exact error code (R35 order) and no
change at all — neither to the state passed to `execute` nor to the event log."""

from __future__ import annotations

import pytest

from games.engine import (
    OMNISCIENT,
    Bet,
    Block,
    ChooseNeighbor,
    Handoff,
    IllegalCommand,
    Join,
    Pass,
    Play,
    Timeout,
    execute,
    fold,
    new_game,
    parse_command,
    view_for,
)
from tests.engine.helpers import SEED, Game, rigged

# Kostič seat 0 (lives 6); seat 1 is LOWHP and odd, seat 2 HIGHHP and odd. C40 is in the draw pile.
HANDS = [["C25", "C06", "C13", "C19", "C22", "C01", "C36"], ["C02", "C33"], ["C03"]]


def at_play() -> Game:
    return rigged(3, hands=HANDS, lives=[6, 3, 5])


def at_block() -> Game:
    g = at_play()
    g.do(Play("C25", 0, "one", 1), 0)  # green LOSE_1 on seat 1; seats 1 and 2 are asked
    return g


def after_pass() -> Game:
    g = at_block()
    g.do(Pass(), 1)
    return g


def at_neighbour() -> Game:
    g = rigged(4, hands=[["C10", "C25"], ["C33", "C34"], ["C35"], ["C36"]])
    g.do(Play("C10", 0, "one", 2), 0)  # green GIVE_NEIGHBOR: seat 2 picks 3 (left) or 1
    g.passes()
    return g


def at_bet(coin: bool = False) -> Game:
    g = rigged(3, hands=HANDS, options={"duel_coin": coin})
    g.do(Play("C01", 0, "one", 1), 0)  # green DUEL: seat 1 bets first
    g.passes()
    return g


def at_handoff() -> Game:
    """Seats 2 and 3 are eliminated by a red LOSE_1; seat 2 hands off first, then seat 3."""
    g = rigged(4, hands=[["C06", "C25"], ["C33"], ["C03", "C04"], ["C05"]], lives=[6, 6, 1, 1])
    g.do(Play("C06", 1, "all", None), 0)
    g.passes()
    return g


def after_elimination() -> Game:
    """Seat 2 (empty hand) was eliminated on turn 1; seat 1 is now the Kostič."""
    g = rigged(3, hands=[["C25", "C27"], ["C26", "C28"], []], lives=[6, 6, 1])
    g.do(Play("C25", 0, "one", 2), 0)
    g.passes()
    return g


def ended() -> Game:
    g = rigged(2, hands=[["C25", "C26"], ["C02", "C03"]], lives=[6, 1])
    g.do(Play("C25", 0, "one", 1), 0)
    g.passes()
    return g


def lobby() -> Game:
    """A 3-seat game where only seat 0 is taken."""
    g = Game.__new__(Game)
    g.seed = SEED
    g.events = new_game(seats=3, seed=SEED)
    g.state = fold(g.events)
    g.do(Join("p0", 0))
    return g


SETUPS = {
    "play": (at_play, "play"),
    "block": (at_block, "block"),
    "passed": (after_pass, "block"),
    "neighbour": (at_neighbour, "choose_neighbor"),
    "bet": (at_bet, "bet"),
    "coin": (lambda: at_bet(coin=True), "bet"),
    "handoff": (at_handoff, "handoff"),
    "elim": (after_elimination, "play"),
    "ended": (ended, None),
    "lobby": (lobby, None),
}

NOT_YOURS, ILLEGAL, OVER = "not_your_turn", "illegal_move", "game_over"


def case(setup: str, seat, command, code: str, name: str, bug: str | None = None):
    marks = [pytest.mark.xfail(strict=True, reason=f"engine bug: {bug}")] if bug else []
    return pytest.param(setup, seat, command, code, id=f"{setup}-{name}", marks=marks)


CASES = [
    # play
    case("play", 1, Play("C02", 0, "one", 2), NOT_YOURS, "r35-not-the-kostic"),
    case("play", None, Play("C25", 0, "one", 1), NOT_YOURS, "r35-spectator"),
    case("play", 0, Play("C02", 0, "one", 1), ILLEGAL, "foreign-card"),
    case("play", 0, Play("C99", 0, "one", 1), ILLEGAL, "unknown-card-id"),
    case("play", 0, Play("", 0, "one", 1), ILLEGAL, "empty-card-id"),
    case("play", 0, Play("C40", 1, "one", 1), ILLEGAL, "card-in-the-draw-pile"),
    case("play", 0, Play("C25", 0, "all", None), ILLEGAL, "s2-green-on-all"),
    case("play", 0, Play("C06", 1, "one", 1), ILLEGAL, "s2-red-on-one"),
    case("play", 0, Play("C25", 0, "one", None), ILLEGAL, "one-without-target"),
    case("play", 0, Play("C36", 0, "one", None), ILLEGAL, "blue-one-without-target"),
    case("play", 0, Play("C06", 1, "all", 1), ILLEGAL, "all-with-target"),
    case("play", 0, Play("C36", 0, "all", 2), ILLEGAL, "blue-all-with-target"),
    case("play", 0, Play("C25", 0, "one", 3), ILLEGAL, "target-past-the-last-seat"),
    case("play", 0, Play("C25", 0, "one", -1), ILLEGAL, "negative-target"),
    case("play", 0, Play("C25", 0, "some", 1), ILLEGAL, "unknown-scope"),
    case("play", 0, Play("C13", 0, "one", 1), ILLEGAL, "r9-blast-on-lowhp"),
    case("play", 0, Play("C19", 0, "one", 2), ILLEGAL, "r9-halve-on-odd"),
    case("play", 0, Play("C22", 0, "one", 0), ILLEGAL, "r9-double-on-highhp"),
    case("play", 0, Play("C36", 0, "one", 1), ILLEGAL, "r9-blue-halve-on-odd"),
    case("play", 0, Play("C01", 0, "one", 0), ILLEGAL, "r3-duel-on-self"),
    case("elim", 1, Play("C26", 0, "one", 2), ILLEGAL, "eliminated-target"),
    case("elim", 2, Play("C26", 0, "one", 0), NOT_YOURS, "eliminated-sender"),
    case("block", 1, Play("C02", 0, "one", 2), ILLEGAL, "in-block-window"),
    case("neighbour", 2, Play("C35", 0, "one", 2), ILLEGAL, "in-neighbour-choice"),
    # block
    case("block", 0, Block("C06"), NOT_YOURS, "r18-kostic-not-asked"),
    case("block", None, Block("C02"), NOT_YOURS, "spectator"),
    case("passed", 1, Block("C02"), NOT_YOURS, "r26-after-passing"),
    case("block", 1, Block("C33"), ILLEGAL, "s5-no-card-of-the-colour"),
    case("block", 2, Block("C03"), ILLEGAL, "s5-last-card"),
    case("block", 1, Block("C03"), ILLEGAL, "foreign-card"),
    case("block", 1, Block("C99"), ILLEGAL, "unknown-card-id"),
    case("block", 1, Block("C25"), ILLEGAL, "r25-the-pending-card"),
    case("block", 1, Block("C40"), ILLEGAL, "card-in-the-draw-pile"),
    case("play", 0, Block("C06"), ILLEGAL, "in-play-phase"),
    case("neighbour", 2, Block("C35"), ILLEGAL, "in-neighbour-choice"),
    # pass
    case("passed", 1, Pass(), NOT_YOURS, "r26-twice"),
    case("block", 0, Pass(), NOT_YOURS, "kostic"),
    case("block", None, Pass(), NOT_YOURS, "spectator"),
    case("play", 0, Pass(), ILLEGAL, "in-play-phase"),
    case("play", 1, Pass(), NOT_YOURS, "in-play-phase-by-another-seat"),
    case("bet", 1, Pass(), ILLEGAL, "in-bet-phase"),
    case("handoff", 2, Pass(), ILLEGAL, "in-handoff-phase"),
    # choose_neighbor
    case("neighbour", 0, ChooseNeighbor(3), NOT_YOURS, "kostic"),
    case("neighbour", 1, ChooseNeighbor(0), NOT_YOURS, "another-seat"),
    case("neighbour", 2, ChooseNeighbor(0), ILLEGAL, "r8-not-a-neighbour"),
    case("neighbour", 2, ChooseNeighbor(2), ILLEGAL, "r8-himself"),
    case("neighbour", 2, ChooseNeighbor(4), ILLEGAL, "r8-no-such-seat"),
    case("play", 0, ChooseNeighbor(1), ILLEGAL, "in-play-phase"),
    case("block", 1, ChooseNeighbor(0), ILLEGAL, "in-block-window"),
    # bet
    case("bet", 0, Bet("parity", "even"), NOT_YOURS, "s31-kostic-bets-second"),
    case("bet", 2, Bet("parity", "even"), NOT_YOURS, "not-in-the-duel"),
    case("bet", 1, Bet("coin", "heads"), ILLEGAL, "r34-coin-without-duel-coin"),
    case("coin", 1, Bet("parity", "even"), ILLEGAL, "r34-parity-with-duel-coin"),
    case("coin", 1, Bet("size", "big"), ILLEGAL, "r34-size-with-duel-coin"),
    case("bet", 1, Bet("parity", "heads"), ILLEGAL, "value-of-another-kind"),
    case("bet", 1, Bet("dice", "six"), ILLEGAL, "unknown-kind"),
    case("play", 0, Bet("parity", "even"), ILLEGAL, "in-play-phase"),
    case("neighbour", 2, Bet("size", "big"), ILLEGAL, "in-neighbour-choice"),
    # handoff
    case("handoff", 3, Handoff(None, None), NOT_YOURS, "r15-in-elimination-order"),
    case("handoff", 0, Handoff("C25", 1), NOT_YOURS, "kostic"),
    case("handoff", 2, Handoff("C03", 3), ILLEGAL, "r15-to-an-eliminated-player"),
    case("handoff", 2, Handoff("C03", 2), ILLEGAL, "r15-to-himself"),
    case("handoff", 2, Handoff("C03", 4), ILLEGAL, "r15-no-such-seat"),
    case("handoff", 2, Handoff("C33", 1), ILLEGAL, "r15-card-not-held"),
    case("handoff", 2, Handoff("C99", 1), ILLEGAL, "unknown-card-id"),
    case("handoff", 2, Handoff("C03", None), ILLEGAL, "card-without-receiver"),
    case("handoff", 2, Handoff(None, 1), ILLEGAL, "receiver-without-card"),
    case("play", 0, Handoff(None, None), ILLEGAL, "in-play-phase"),
    # the game is over (R35: checked first, for everyone)
    case("ended", 0, Play("C26", 0, "one", 0), OVER, "play"),
    case("ended", 1, Play("C99", 0, "all", 7), OVER, "illegal-play-out-of-turn"),
    case("ended", 1, Block("C02"), OVER, "block"),
    case("ended", None, Pass(), OVER, "pass"),
    case("ended", 0, ChooseNeighbor(1), OVER, "choose-neighbor"),
    case("ended", 1, Bet("parity", "even"), OVER, "bet"),
    case("ended", 1, Handoff(None, None), OVER, "handoff"),
    case("ended", None, Timeout(), OVER, "timeout"),
    # the lobby: nobody may act before the game starts
    case("lobby", 0, Play("C01", 0, "one", 1), NOT_YOURS, "play"),
    case("lobby", 0, Pass(), NOT_YOURS, "pass"),
    case("lobby", None, Timeout(), ILLEGAL, "timeout-with-nothing-pending"),
    # join
    case("play", None, Join("late"), "game_full", "join-started-game"),
    case("play", None, Join("late", 1), "game_full", "join-taken-seat-of-started-game"),
    case("lobby", None, Join("p1", 0), "seat_taken", "join-seat-taken"),
    case("lobby", None, Join("p1", 3), "invalid", "join-seat-past-the-last"),
    case("lobby", None, Join("p1", -1), "invalid", "join-negative-seat"),
    case("lobby", None, Join("p1", "1"), "invalid", "join-seat-as-text"),
    case(
        "lobby",
        None,
        Join("p1", True),
        "invalid",
        "join-seat-as-bool",
    ),
]


def snapshot(g: Game) -> tuple:
    return view_for(g.state, OMNISCIENT), repr(g.state), [e.as_dict() for e in g.events]


@pytest.mark.parametrize("setup, seat, command, code", CASES)
def test_r35_an_illegal_command_gets_its_code_and_changes_nothing(setup, seat, command, code):
    """R35: the first failing check names the error; execute leaves its input state as it was."""
    build, phase = SETUPS[setup]
    g = build()
    assert g.state.phase == phase  # the setup reached the phase the case is about
    before = snapshot(g)
    with pytest.raises(IllegalCommand) as err:
        execute(g.state, command, actor=seat, seed=g.seed)
    assert err.value.code == code
    assert snapshot(g) == before


LEGAL = [
    ("play", 0, Play("C25", 0, "one", 1)),
    ("block", 1, Block("C02")),
    ("block", 2, Pass()),
    ("neighbour", 2, ChooseNeighbor(1)),
    ("bet", 1, Bet("size", "big")),
    ("coin", 1, Bet("coin", "tails")),
    ("handoff", 2, Handoff("C03", 0)),
    ("lobby", None, Join("p1")),
    ("block", None, Timeout()),
    ("play", None, Timeout()),
]


@pytest.mark.parametrize("setup, seat, command", LEGAL)
def test_execute_never_mutates_the_state_it_is_given(setup, seat, command) -> None:
    """A legal command returns new events and a new state; the state passed in is untouched."""
    g = SETUPS[setup][0]()
    before = snapshot(g)
    new, after = execute(g.state, command, actor=seat, seed=g.seed)
    assert new and after is not g.state
    assert snapshot(g) == before
    assert repr(fold(new, g.state)) == repr(after)


def test_r35_a_play_of_a_third_effect_is_an_illegal_command_not_a_crash() -> None:
    """decide's contract: bad commands raise IllegalCommand (here, a card has effects 0 and 1)."""
    g = at_play()
    with pytest.raises(IllegalCommand) as err:
        execute(g.state, Play("C25", 2, "one", 1), actor=0, seed=g.seed)
    assert err.value.code in ("illegal_move", "invalid")


MALFORMED = [
    None,
    [],
    "play",
    17,
    {},
    {"type": None},
    {"type": "dance"},
    {"type": "join", "seat": 0},
    {"type": "timeout"},
    {"type": "PLAY", "card": "C01", "effect": 0, "scope": "one", "target": 1},
    {"type": "play", "effect": 0, "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": 0, "target": 1},
    {"type": "play", "card": "C01", "effect": 0, "scope": "one"},
    {"type": "play", "card": 1, "effect": 0, "scope": "one", "target": 1},
    {"type": "play", "card": None, "effect": 0, "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": 2, "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": -1, "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": "0", "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": True, "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": 0.0, "scope": "one", "target": 1},
    {"type": "play", "card": "C01", "effect": 0, "scope": "both", "target": 1},
    {"type": "play", "card": "C01", "effect": 0, "scope": None, "target": 1},
    {"type": "play", "card": "C01", "effect": 0, "scope": "one", "target": "1"},
    {"type": "play", "card": "C01", "effect": 0, "scope": "one", "target": False},
    {"type": "play", "card": "C01", "effect": 0, "scope": "one", "target": 1.5},
    {"type": "block"},
    {"type": "block", "card": None},
    {"type": "block", "card": ["C01"]},
    {"type": "choose_neighbor"},
    {"type": "choose_neighbor", "neighbor": None},
    {"type": "choose_neighbor", "neighbor": "3"},
    {"type": "choose_neighbor", "neighbor": True},
    {"type": "bet", "kind": "parity"},
    {"type": "bet", "value": "even"},
    {"type": "bet", "kind": "dice", "value": "six"},
    {"type": "bet", "kind": "parity", "value": "big"},
    {"type": "bet", "kind": "size", "value": "heads"},
    {"type": "bet", "kind": "coin", "value": "odd"},
    {"type": "bet", "kind": None, "value": None},
    {"type": "handoff", "card": "C01"},
    {"type": "handoff", "to": 1},
    {"type": "handoff", "card": "C01", "to": None},
    {"type": "handoff", "card": None, "to": 1},
    {"type": "handoff", "card": "C01", "to": "1"},
    {"type": "handoff", "card": 3, "to": 1},
    {"type": "handoff", "card": "C01", "to": True},
]


@pytest.mark.parametrize("body", MALFORMED, ids=lambda b: repr(b)[:60])
def test_parse_command_rejects_a_malformed_body_as_invalid(body) -> None:
    """API.md: a body of the wrong shape is `invalid` (never a crash, never a 500)."""
    with pytest.raises(IllegalCommand) as err:
        parse_command(body)
    assert err.value.code == "invalid"


@pytest.mark.parametrize(
    "command",
    [
        Play("C17", 1, "all", None),
        Play("C01", 0, "one", 3),
        Block("C05"),
        Pass(),
        ChooseNeighbor(2),
        Bet("size", "small"),
        Bet("coin", "tails"),
        Handoff("C03", 1),
        Handoff(None, None),
    ],
)
def test_parse_command_reads_back_every_canonical_body(command) -> None:
    """API.md: each command's body parses back to the same command."""
    assert parse_command(command.body()) == command
