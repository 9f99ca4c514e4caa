"""One table of event kinds (games.engine.events.KINDS): every event type the engine defines is
classified there, and the classification agrees with what the engine does."""

from dataclasses import fields

from games.engine import events as ev
from games.engine import new_game
from games.engine.simulate import game_seed
from tests.engine.helpers import bot_game


def _defined_types() -> set[str]:
    """Every event type constant of the module: an upper-case name bound to a lower-case word."""
    return {
        value
        for name, value in vars(ev).items()
        if name.isupper()
        and isinstance(value, str)
        and value.islower()
        and "_" in value
        and name not in {"NOBODY", "THE_SEAT", "EVERY_SEAT"}
    } | {ev.FORKED}  # one word


def test_every_defined_event_type_is_classified_once():
    defined = _defined_types()
    assert defined == set(ev.EVENT_TYPES)
    assert set(ev.KINDS) == defined


def test_a_new_event_type_without_a_kind_fails_loudly():
    try:
        ev.kind_of("something_new")
    except KeyError:
        return
    raise AssertionError("an unclassified event type must not pass silently")


def test_away_events_are_the_kinds_marked_away_and_restart_no_decision():
    assert {t for t, k in ev.KINDS.items() if k.away} == set(ev.AWAY_EVENTS)
    assert all(not ev.KINDS[t].new_decision for t in ev.AWAY_EVENTS)


def test_r19_only_a_pass_is_sealable_and_it_restarts_no_decision():
    assert [t for t, k in ev.KINDS.items() if k.sealable] == [ev.BLOCK_PASSED]
    assert not ev.KINDS[ev.BLOCK_PASSED].new_decision


def test_only_game_ended_ends_a_game_and_it_is_the_last_event_of_random_games():
    assert [t for t, k in ev.KINDS.items() if k.ends_game] == [ev.GAME_ENDED]
    for i in range(5):
        events = bot_game(game_seed("kinds", i), seats=2 + i % 5)
        ended = [i for i, e in enumerate(events) if ev.KINDS[e.type].ends_game]
        assert ended == [len(events) - 1]


def test_every_notice_names_a_seat_to_tell():
    for kind in ev.KINDS.values():
        assert (kind.notice is None) == (kind.audience == ev.NOBODY)


def test_every_event_random_games_make_is_classified():
    seen: set[str] = set()
    for i in range(12):
        seen |= {e.type for e in bot_game(game_seed("kinds-all", i), seats=2 + i % 5,
                                          duel_coin=bool(i % 2))}  # fmt: skip
    seen |= {e.type for e in new_game(seats=2, seed=game_seed("kinds-new", 0))}
    assert seen <= set(ev.KINDS)
    assert len(seen) > 20  # the games reached most kinds: the check is not vacuous


def test_the_engines_event_builder_makes_what_the_class_makes():
    """ev.event fills Event's slots itself, for speed: a field added to Event fails here."""
    assert [f.name for f in fields(ev.Event)] == ["type", "data", "v"]
    data = {"seat": 1}
    built, made = ev.event(ev.BLOCK_PASSED, data), ev.Event(ev.BLOCK_PASSED, data)
    assert type(built) is ev.Event and built == made and built.data is data
    assert built.as_dict() == {"type": "block_passed", "v": 1, "data": {"seat": 1}}
