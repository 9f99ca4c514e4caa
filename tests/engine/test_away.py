"""Who is away from a seat (games/engine/away.py): leaving, the bot's takeover after K
timeouts in a row (R21, option timeouts_to_bot), returning, vacations and abandonment, folded
and re-executed by the audit like any command."""

from __future__ import annotations

import pytest

from games.engine import HeuristicBot, IllegalCommand, Pass, Timeout, bots_act, fold, view_for
from games.engine import events as ev
from games.engine.audit import verify_events
from games.engine.away import Abandon, Leave, Return, VacationEnd, VacationStart
from games.engine.setup import option
from tests.engine.helpers import Game, rigged

UNTIL = "2027-01-10T12:00:00.000000+00:00"


def time_out(game: Game) -> list[ev.Event]:
    return game.do(Timeout())


def test_old_games_fold_timeouts_to_bot_with_its_default():
    game = rigged(3)
    created = game.events[0]
    old = ev.Event(ev.GAME_CREATED, {**created.data, "options": {
        k: v for k, v in created.data["options"].items() if k != "timeouts_to_bot"}})  # fmt: skip
    state = fold([old])  # upcast on fold (setup.OLD_GAME_OPTIONS): the record stays as written
    assert state.options["timeouts_to_bot"] == option(state, "timeouts_to_bot") == 3


def test_timeouts_to_bot_must_be_a_small_whole_number():
    for bad in (-1, True, "3", 101):
        with pytest.raises(IllegalCommand) as err:
            Game(3, options={"timeouts_to_bot": bad})
        assert err.value.code == "invalid"


def test_r21_three_timeouts_in_a_row_hand_the_seat_to_the_bot():
    game = rigged(3, options={"timeouts_to_bot": 3})
    for _ in range(8):  # whoever is awaited times out, again and again
        time_out(game)
    counts = game.state.timeouts
    taken = [e.data["seat"] for e in game.events if e.type == ev.SEAT_TAKEN_BY_BOT]
    assert taken and sorted(taken) == [s for s in range(3) if counts[s] >= 3]
    for s in taken:
        assert game.state.away[s] == "bot" and game.state.plays_bot(s)
        assert view_for(game.state, None)["players"][s]["away"] == "bot"
    assert verify_events(game.events, game.seed).ok


def test_a_takeover_follows_the_timed_out_record_and_the_acts_stay_r21s():
    game = rigged(3, options={"timeouts_to_bot": 1})
    kostic = game.state.kostic
    new = time_out(game)
    assert [e.type for e in new[:2]] == [ev.TIMED_OUT, ev.SEAT_TAKEN_BY_BOT]
    assert new[1].data == {"seat": kostic}
    assert new[2].type == ev.CARD_PLAYED and new[2].data["seat"] == kostic
    assert verify_events(game.events, game.seed).ok
    game.do(Return(kostic))
    assert game.state.away[kostic] is None and game.state.timeouts[kostic] == 0
    assert verify_events(game.events, game.seed).ok


def test_an_act_of_his_own_ends_a_run_of_timeouts():
    game = rigged(2, options={"timeouts_to_bot": 2})
    time_out(game)  # seat 0 (the Kostič) times out: the bot plays for him
    assert game.state.timeouts[0] == 1
    while game.state.status == "active" and game.state.awaiting != [0]:
        seat = game.state.awaiting[0]
        game.do(HeuristicBot().choose(game.state, seat), seat)
    game.do(HeuristicBot().choose(game.state, 0), 0)  # his own play
    assert game.state.timeouts[0] == 0
    assert not [e for e in game.events if e.type == ev.SEAT_TAKEN_BY_BOT]


def test_zero_means_the_bot_never_takes_a_seat():
    game = rigged(2, options={"timeouts_to_bot": 0})
    for _ in range(6):
        time_out(game)
    assert game.state.away == [None, None]


def test_a_leaver_is_played_by_the_bot_to_the_end_and_cannot_win():
    game = rigged(3)
    game.do(Leave(1))
    assert game.state.left[1] and game.state.away[1] == "bot"
    assert view_for(game.state, 1)["legal"] == []  # he may read his view, never act
    while game.state.status == "active":
        seat = game.state.awaiting[0]
        if game.state.plays_bot(seat):
            new, game.state = bots_act(game.state, game.seed)
            game.events += new
        else:
            game.do(HeuristicBot().choose(game.state, seat), seat)
    assert 1 not in game.state.winners
    assert verify_events(game.events, game.seed).ok
    with pytest.raises(IllegalCommand):
        game.do(Return(1))


def test_nobody_returns_from_a_leave_nor_leaves_twice():
    game = rigged(3)
    game.do(Leave(2))
    for command in (Leave(2), Return(2), VacationStart(2, UNTIL)):
        with pytest.raises(IllegalCommand) as err:
            game.do(command)
        assert err.value.code == "invalid"


def test_a_vacation_starts_and_ends_in_a_block_window_without_touching_it():
    game = rigged(3)
    game.do(HeuristicBot().choose(game.state, 0), 0)
    assert game.state.phase == "block"
    game.do(VacationStart(1, UNTIL))
    assert game.state.away[1] == "vacation" and game.state.vacation_until[1] == UNTIL
    assert view_for(game.state, None)["players"][1]["away_until"] == UNTIL
    assert game.state.phase == "block" and 1 in game.state.awaiting
    with pytest.raises(IllegalCommand):
        game.do(VacationStart(1, UNTIL))
    game.do(Pass(), 2)
    game.do(VacationEnd(1))
    assert game.state.away[1] is None
    game.passes()
    assert verify_events(game.events, game.seed).ok


def test_an_abandoned_game_ends_with_no_winner_and_reveals_the_seed():
    game = rigged(3)
    game.do(VacationStart(0, UNTIL))
    new = game.do(Abandon())
    assert [e.type for e in new] == [ev.GAME_ENDED]
    assert new[0].data == {"winners": [], "seed": game.seed.hex(), "reason": "abandoned"}
    assert game.state.status == "ended" and game.state.away[0] is None  # the vacation ends too
    assert verify_events(game.events, game.seed).ok


def test_the_audit_refuses_a_takeover_the_rule_does_not_make():
    game = rigged(3, options={"timeouts_to_bot": 3})
    time_out(game)
    forged = list(game.events)
    at = next(i for i, e in enumerate(forged) if e.type == ev.TIMED_OUT)
    seat = forged[at].data["seats"][0]
    forged.insert(at + 1, ev.Event(ev.SEAT_TAKEN_BY_BOT, {"seat": seat}))
    verdict = verify_events(forged, game.seed)
    assert not verdict.ok and verdict.first_bad_seq == at + 2


def test_human_acts_count_joins_and_own_moves_not_the_bots():
    game = rigged(2, options={"bots": [1]})
    assert game.state.human_acts == 1  # p0 joined
    game.do(HeuristicBot().choose(game.state, 0), 0)
    assert game.state.human_acts == 2
    new, state = bots_act(game.state, game.seed)
    assert state.human_acts == 2


def test_a_whole_game_with_a_vacation_a_takeover_a_return_and_a_leave_verifies():
    from games.engine.audit import rederive
    from tests.engine.helpers import away_game

    events = away_game()
    types = {e.type for e in events}
    assert set(ev.AWAY_EVENTS) <= types and events[-1].type == ev.GAME_ENDED
    assert verify_events(events, Game().seed).ok and rederive(events, Game().seed).ok


def test_a_state_stored_before_these_fields_reads_back_with_their_defaults():
    from games.core.codec import ADDED_FIELDS, state_from_json, state_to_json

    game = rigged(3)
    stored = {k: v for k, v in state_to_json(game.state).items() if k not in ADDED_FIELDS}
    state = state_from_json(stored)
    assert state.away == [None] * 3 and state.left == [False] * 3 and state.owed == []
    assert state_to_json(state) == state_to_json(game.state) | {"human_acts": 0}
