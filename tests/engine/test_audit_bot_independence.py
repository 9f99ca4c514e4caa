"""R21 and the audit: at the Kostič's timeout the service plays the built-in bot's choice, but
the rule asks only for a legal play. So the audit checks the recorded play was legal in the
state before it, never what today's bot would choose: a game recorded with one bot must still
verify after the bot's strategy changes (issue 9, hole 4). The other timeout acts (pass, left
neighbour, parity/even, decline) are fixed by R21 and stay exact.

Seqs are 1-based: the event at list index i has seq i + 1.
"""

from __future__ import annotations

import pytest

from games.engine import Block, Event, HeuristicBot, Play, fold, legal_commands
from games.engine import events as ev
from games.engine.audit import verify_events
from games.engine.bots import preview
from games.engine.simulate import game_seed
from tests.engine.helpers import bot_game


def kostic_timeouts(events: list[Event]) -> list[int]:
    """List indexes of the timeouts that fell on a Kostič's play (R21: the bot's choice)."""
    return [i for i, e in enumerate(events) if e.type == ev.TIMED_OUT and e.data["phase"] == "play"]


@pytest.fixture(scope="module")
def game() -> tuple[list[Event], bytes]:
    """The first seeded bot game with a Kostič timeout that had more than one legal play."""
    for index in range(100):
        seed = game_seed("bot-independence", index)
        events = bot_game(seed)
        for i in kostic_timeouts(events):
            if len(legal_commands(fold(events[:i]), events[i + 1].data["seat"])) > 1:
                return events, seed
    raise AssertionError("no seeded bot game has a Kostič timeout with a choice")


def worst_play(bot: HeuristicBot, s, seat: int):
    """A bot of another strategy: the legal play today's bot ranks last."""
    options = legal_commands(s, seat)
    return min(options, key=lambda c: bot._score(s, seat, preview(s, s.kostic, c)))


@pytest.fixture
def changed_bot(monkeypatch):
    """Today's HeuristicBot replaced by one that plays differently at the Kostič's play."""
    original = HeuristicBot.choose

    def choose(self, s, seat):
        return worst_play(self, s, seat) if s.phase == "play" else original(self, s, seat)

    monkeypatch.setattr(HeuristicBot, "choose", choose)


def test_the_game_recorded_with_todays_bot_verifies(game):
    events, seed = game
    assert kostic_timeouts(events) and verify_events(events, seed).ok


def test_r21_a_game_recorded_with_one_bot_verifies_after_the_bots_strategy_changes(
    game, changed_bot
):
    events, seed = game
    assert other_choices(events), "the changed bot must choose otherwise at a recorded timeout"
    verdict = verify_events(events, seed)
    assert verdict.ok and verdict.events == len(events)


def test_r21_a_game_recorded_with_another_bot_verifies_with_todays(changed_bot, monkeypatch):
    seed = game_seed("bot-independence-other", 0)
    events = bot_game(seed)  # recorded while the changed bot answered the timeouts
    monkeypatch.undo()  # today's bot again
    assert other_choices(events), "today's bot must choose otherwise at a recorded timeout"
    assert verify_events(events, seed).ok


def other_choices(events: list[Event]) -> list[int]:
    """The Kostič timeouts where the HeuristicBot of now would play otherwise than the log."""
    return [i for i in kostic_timeouts(events)
            if HeuristicBot().choose(fold(events[:i]), events[i + 1].data["seat"])
            != logged_play(events[i + 1])]  # fmt: skip


def logged_play(e: Event) -> Play:
    assert e.type == ev.CARD_PLAYED
    d = e.data
    return Play(d["card"], d["effect"], d["scope"], d["target"])


# What the timeout may not do: each is refused at its seq, with the bot out of the question


def edited(events: list[Event], i: int, **changes) -> list[Event]:
    e = events[i]
    return [*events[:i], Event(e.type, {**e.data, **changes}, e.v), *events[i + 1 :]]


def test_r21_a_timeout_play_of_a_card_not_in_hand_is_refused_at_its_seq(game, changed_bot):
    events, seed = game
    i = kostic_timeouts(events)[0]
    before = fold(events[: i + 1])
    seat = events[i + 1].data["seat"]
    elsewhere = next(c for c in before.draw if c not in before.hands[seat])
    verdict = verify_events(edited(events, i + 1, card=elsewhere), seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 2
    assert "R21" in verdict.reason and "not a legal play" in verdict.reason


def test_r21_a_timeout_play_by_another_seat_is_refused_at_its_seq(game):
    events, seed = game
    i = kostic_timeouts(events)[0]
    seat = events[i + 1].data["seat"]
    other = next(p for p in fold(events[:i]).alive() if p != seat)
    verdict = verify_events(edited(events, i + 1, seat=other), seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 2 and "R21" in verdict.reason


def test_r21_a_timed_out_block_window_must_pass_not_block(game):
    """Only the Kostič's play is the bot's to choose; a block window's timeout is a pass."""
    events, seed = game
    i, block = next((k, b) for k, e in enumerate(events)
                    if e.type == ev.TIMED_OUT and e.data["phase"] == "block"
                    for b in legal_commands(fold(events[: k + 1]), events[k + 1].data["seat"])
                    if isinstance(b, Block))  # fmt: skip
    seat = events[i + 1].data["seat"]
    block = Event(ev.PLAY_BLOCKED, {"seat": seat, "card": block.card})
    verdict = verify_events([*events[: i + 1], block, *events[i + 2 :]], seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 2 and "R21" in verdict.reason


def test_r21_a_timeout_naming_other_seats_differs_from_the_rules(game):
    events, seed = game
    i = kostic_timeouts(events)[0]
    seat = events[i].data["seats"][0]
    verdict = verify_events(edited(events, i, seats=[(seat + 1) % 4]), seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 1
    assert "differs from the rules" in verdict.reason


def test_a_log_cut_after_a_kostic_timeout_is_found_where_his_play_must_follow(game):
    events, seed = game
    i = kostic_timeouts(events)[0]
    verdict = verify_events(events[: i + 1], seed)
    assert not verdict.ok and verdict.first_bad_seq == i + 2
    assert verdict.reason == "the log ends where card_played must follow"
