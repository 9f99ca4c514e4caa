"""Golden games: whole event logs in tests/fixtures/golden/ (written by make_golden.py) replayed
to the end they are known to reach, like python-chess's PGN fixtures. A rule change that alters
any of these games fails here; regenerate the logs and update the ends below only on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games.engine import Event, fold
from games.engine import events as ev
from games.engine.audit import Verdict, rederive, verify_events
from games.engine.setup import OLD_GAME_OPTIONS
from tests.fixtures.make_golden import GOLDEN, path_of, read_log


@dataclass(frozen=True)
class End:
    winners: list[int]
    lives: list[int]
    hand_sizes: list[int]
    reason: str
    turn: int
    seq: int  # the seq of game_ended: the number of events in the log


ENDS = {
    "standard": End([3], [1, 2, 0, 3], [1, 1, 0, 1], "countdown", turn=19, seq=187),
    "pairs": End([1, 3], [0, 4, 0, 0], [0, 1, 0, 0], "last_standing", turn=23, seq=249),
    "pairs_extreme": End([0, 1], [5, 0, 3, 0], [2, 0, 1, 0], "countdown", turn=24, seq=235),
    "duel_handoff": End([1], [0, 5, 3, 3, 0], [0, 1, 1, 1, 0], "countdown", turn=23, seq=221),
}
NAMES = [golden.name for golden in GOLDEN]


def log(name: str) -> tuple[dict, list[Event]]:
    return read_log(path_of(name))


def test_every_golden_game_has_a_known_end() -> None:
    assert sorted(ENDS) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_folds_to_its_known_end(name: str) -> None:
    header, events = log(name)
    state, end = fold(events), ENDS[name]
    assert state.status == "ended"
    assert state.winners == end.winners
    assert list(state.lives) == end.lives
    assert [len(hand) for hand in state.hands] == end.hand_sizes
    assert state.turn == end.turn
    assert len(events) == end.seq
    assert events[-1].type == ev.GAME_ENDED and events[-1].data["reason"] == end.reason


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_is_played_with_its_header_settings(name: str) -> None:
    header, events = log(name)
    created = events[0].data
    assert (created["variant"], created["seats"]) == (header["variant"], header["seats"])
    assert created["options"] == header["options"]
    assert events[-1].data["seed"] == header["seed"]  # R22: revealed at the end


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_passes_the_re_execution_audit(name: str) -> None:
    """R22: every event is what the rules make of the state before it, under the seed."""
    header, events = log(name)
    seed = bytes.fromhex(header["seed"])
    assert verify_events(events, seed) == Verdict(True, len(events))
    assert rederive(events, seed).ok


def test_duel_and_handoff_game_has_a_duel_roll_and_a_card_handed_on() -> None:
    """Section 3.1 duel (bets, then a roll) and R15 (an eliminated player hands a card on)."""
    _, events = log("duel_handoff")
    types = {e.type for e in events}
    assert {ev.DUEL_STARTED, ev.BET_PLACED, ev.PLAYER_ELIMINATED, ev.CARD_HANDED_OFF} <= types
    assert any(e.type == ev.DIE_ROLLED and e.data["purpose"] == "duel" for e in events)
    gifts = [e.data for e in events if e.type == ev.CARD_HANDED_OFF and e.data["card"] is not None]
    assert gifts and all(gift["to"] is not None for gift in gifts)


@pytest.mark.parametrize("name", NAMES)
def test_golden_games_predate_the_spectator_delay_and_fold_with_live_spectators(name: str) -> None:
    """Issue 10: a game_created without `spectator_delay` (every log written before the option)
    folds with 0, live as it was promised; the event itself stays as it was written."""
    _, events = log(name)
    assert "spectator_delay" not in events[0].data["options"]
    assert fold(events).options["spectator_delay"] == 0
    assert fold(events[:1]).options == {**events[0].data["options"], **OLD_GAME_OPTIONS}
