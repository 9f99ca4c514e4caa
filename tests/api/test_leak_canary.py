"""The leak canary (issue 9): whole games of every variant, every payload to every role — each
seat, a partner, an eliminated player, a spectator, an anonymous client, sockets with a seat's
token, a spectator's, none and a bad one — checked against the truth exported after the end:
no hidden card (R23), no pass shown while its block window is open (R19)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from asgiref.sync import sync_to_async

from tests.support.canary import ALL_CARDS
from tests.support.leaks import EVENTS, REPLAY, TEXT, VIEW, Capture, Truth, find_leaks, find_young
from tests.support.watchers import play_to_end, watched_game


def big_hands(seed: str) -> list[list[str]]:
    """Nine cards a seat (dealt by `seed`), so only four lie in the draw pile: the discard pile
    is reshuffled into it (R4) by the fifth turn, and the new pile is hidden too."""
    cards = random.Random(seed).sample(ALL_CARDS, 36)
    return [cards[seat::4] for seat in range(4)]


# Four seats each. Standard as it comes (seat 3 the bot); the pair games, every seat human,
# start at 2 lives so that they end in well under a hundred commits, and pairs (partners
# opposite, who must not see each other's hands) deals big hands to get to a reshuffle.
GAMES = {
    "standard": ([3], None),
    "pairs": ([], {"lives": [2] * 4, "hands": big_hands("pairs")}),
    "pairs_extreme": ([], {"lives": [2] * 4}),
}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", GAMES)
async def test_r23_r19_no_role_receives_a_hidden_card_or_an_open_windows_pass(
    variant, make_player, open_socket, no_throttles, no_celery, rigged
):
    bots, rig = GAMES[variant]
    table, watchers = await watched_game(make_player, open_socket, variant, 4, bots=bots, rig=rig)
    await play_to_end(table, watchers)
    truth = await sync_to_async(table.truth)()
    captures = table.captures + [c for w in watchers for c in w.captures]

    leaks = find_leaks(truth, captures)
    assert not leaks, "\n".join(map(str, leaks[:20]))

    before_end = [c for c in captures if c.at < truth.end]
    kinds = {(c.role, c.kind) for c in before_end}
    for role in table.roles:  # every REST role read every kind of payload during the game
        assert {(role.name, k) for k in (VIEW, EVENTS, REPLAY, TEXT)} <= kinds, role.name
    for watcher in watchers:  # every socket saw the deal live and every batch after it...
        seqs = {e["seq"] for c in watcher.captures if c.kind == EVENTS for e in c.payload}
        assert set(range(truth.started, truth.end + 1)) <= seqs, watcher.role
        last = [c.payload for c in watcher.captures if c.kind == VIEW][-1]
        assert last["you"] == watcher.viewer, watcher.role  # ...as the viewer it stands for
    judged = {c.source for c in before_end if c.kind == VIEW and in_open_window(truth, c)}
    assert {"GET view", "ws view"} <= judged  # R19 had views of open windows to judge
    if not bots and any(truth.moments[c.at].eliminated for c in before_end):
        # every seat human: whoever was eliminated before the end kept receiving
        assert any(c.viewer in truth.moments[c.at].eliminated for c in before_end)
    if rig and "hands" in rig:  # a new draw pile was made while roles were watching
        assert any(e["type"] == "deck_reshuffled" for c in before_end if c.kind == EVENTS
                   for e in c.payload)  # fmt: skip
    if variant == "pairs_extreme":  # the partner's cards were shown, and that is no leak
        assert any(c.kind == VIEW and c.payload["partner_hand"] for c in before_end)
    assert_refusals_read_alike(truth, table.card_probes)


# A standard game whose spectators stay behind (issue 10): seat 3 the bot, the rest human.
DELAY = 7


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_delayed_games_spectators_receive_nothing_younger_than_the_delay(
    make_player, open_socket, no_throttles, no_celery, rigged
):
    table, watchers = await watched_game(make_player, open_socket, "standard", 4, bots=[3],
                                         delay=DELAY)  # fmt: skip
    await play_to_end(table, watchers)
    truth = await sync_to_async(table.truth)()
    captures = table.captures + [c for w in watchers for c in w.captures]
    assert not find_leaks(truth, captures), "\n".join(map(str, find_leaks(truth, captures)[:20]))
    young = find_young(truth, captures, DELAY)
    assert not young, "\n".join(map(str, young[:20]))
    spectators = [c for c in captures if c.viewer is None and not truth.ended_by(c.present or c.at)]
    assert {"GET view", "GET events", "GET replay", "GET markers", "ws view",
            "ws event"} <= {c.source for c in spectators}  # fmt: skip
    lagging = [c for c in spectators if c.kind == VIEW and c.payload["delayed"]]
    assert lagging and all(c.payload["seq"] < (c.present or c.at) for c in lagging)

    # ...and the checker would see a payload that shows the present to a spectator.
    # (a view that was young when it came: one received late, DELAY events after its seq
    # under a loaded full run, is no leak to plant)
    # "Young" is judged at the moment find_young judges it: the present the capture records
    # (later than its arrival for a view received late under load), else its arrival.
    def moment(c: Capture) -> int:
        return c.at if c.present is None else c.present

    player_view = next(c for c in reversed(captures) if c.viewer == 0 and c.kind == VIEW
                       and not truth.ended_by(moment(c)) and moment(c) - DELAY > truth.started
                       and c.payload["seq"] > moment(c) - DELAY)  # fmt: skip
    as_spectator = replace(player_view, role="spectator", viewer=None)
    assert [leak.what for leak in find_young(truth, [as_spectator], DELAY)] == ["young"]


def in_open_window(truth: Truth, capture: Capture) -> bool:
    """Whether the view `capture` shows a block window still open when it arrived."""
    window = truth.window(capture.payload["seq"])
    return window is not None and truth.window(capture.at) == window


def assert_refusals_read_alike(truth: Truth, probes: list[tuple[int, str, int, str]]) -> None:
    """R23: a play of a card one does not hold is refused in the same words wherever the card
    lies (another hand, the draw pile, the discard pile, the table)."""
    assert probes, "no human Kostič probed the cards he does not hold"
    for seq in sorted({seq for seq, *_ in probes}):
        answers = {(status, shape) for s, _, status, shape in probes if s == seq}
        assert len(answers) == 1, answers
        ((status, _),) = answers
        assert status == 422
        cards = {card for s, card, *_ in probes if s == seq}
        moment = truth.moments[seq]
        held = set().union(*moment.hands)
        assert cards & held and cards & moment.draw  # both kinds of hiding place were tried


# A pairs-extreme game over in one turn: seat 0 plays LOSE_1 on everyone (C33's red effect), no
# one holds a red card to block with, seats 1, 2 and 3 pass in that order and, at one life each,
# are all eliminated (R17). While seat 1's pass is the only one, the window is open.
PLANTED_RIG = {
    "lives": [6, 1, 1, 1],
    "first": 0,
    "hands": [
        ["C33", "C27", "C03"],
        ["C25", "C26", "C29"],
        ["C30", "C31", "C20"],
        ["C17", "C08", "C11"],
    ],
}
PLANTED_SCRIPT = [(0, {"type": "play", "card": "C33", "effect": 1, "scope": "all",
                       "target": None}),
                  (1, {"type": "pass"}), (2, {"type": "pass"}), (3, {"type": "pass"})]  # fmt: skip


def planted(capture: Capture, card: str) -> Capture:
    """The capture with `card` added to its payload (into an event's data for event lists)."""
    payload = capture.payload
    if capture.kind == EVENTS:
        first, *rest = payload
        payload = [{**first, "data": {**first["data"], "note": card}}, *rest]
    elif isinstance(payload, dict):
        payload = {**payload, "note": card}
    else:
        payload = [payload, card]
    return replace(capture, payload=payload)


def with_pass_of(capture: Capture, seat: int) -> Capture:
    """The event list with `seat` shown as having passed: on its first `block_passed` event,
    or on one added at the seq it was received (a window may hide passes as events)."""
    events = list(capture.payload)
    passes = [i for i, e in enumerate(events) if e["type"] == "block_passed"]
    if passes:
        events[passes[0]] = {
            **events[passes[0]],
            "data": {**events[passes[0]]["data"], "seat": seat},
        }
    else:
        events.append({"seq": capture.at, "type": "block_passed", "data": {"seat": seat}})
    return replace(capture, payload=events)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_checker_flags_leaks_planted_in_a_clean_capture(
    make_player, open_socket, no_throttles, no_celery, rigged
):
    table, watchers = await watched_game(make_player, open_socket, "pairs_extreme", 4,
                                         rig=PLANTED_RIG)  # fmt: skip
    table.script = list(PLANTED_SCRIPT)
    await play_to_end(table, watchers)
    truth = await sync_to_async(table.truth)()
    captures = table.captures + [c for w in watchers for c in w.captures]
    assert find_leaks(truth, captures) == []  # the clean capture

    live = [c for c in captures if c.at < truth.end]
    # A hidden card planted into any kind of payload, from any source, is found: seat 2's
    # C31 for team 0 and those with no seat, seat 1's C26 for team 1 (never played, either).
    for source in sorted({c.source for c in live}):
        capture = next(c for c in reversed(live) if c.source == source)
        card = "C26" if capture.viewer in (2, 3) else "C31"
        leaks = find_leaks(truth, [planted(capture, card)])
        assert [(leak.what, card in leak.detail) for leak in leaks] == [("card", True)], source
    # ...but not the partner's card (pairs extreme), nor anything received after the end.
    seat0 = next(c for c in reversed(live) if c.viewer == 0 and c.kind == VIEW)
    assert find_leaks(truth, [planted(seat0, "C26")]) == []
    assert find_leaks(truth, [replace(planted(seat0, "C31"), at=truth.end)]) == []
    # In plain pairs the partner's hand is hidden: the same views would be leaks.
    as_pairs = Truth("pairs", truth.moments, truth.started)
    assert {leak.capture.viewer for leak in find_leaks(as_pairs, live)} >= {0, 1}

    # R19: while the window is open, a pass shown with its seat is found (for all but the
    # passer's partner), and so is a view whose `awaiting` leaves out seat 1.
    window = [c for c in live if c.kind == EVENTS and truth.window(c.at) is not None]
    strangers = [c for c in window if c.viewer not in (0, 1)]
    assert {c.role for c in strangers} >= {"anonymous", "seat2 socket", "bad-token socket"}
    for capture in strangers:
        assert [leak.what for leak in find_leaks(truth, [with_pass_of(capture, 1)])] == ["pass"]
    partner = next(c for c in window if c.viewer == 0)
    assert find_leaks(truth, [with_pass_of(partner, 1)]) == []
    views = [
        c
        for c in live
        if c.kind == VIEW
        and c.viewer is None
        and truth.window(c.payload["seq"]) is not None
        and c.payload["awaiting"] == [1, 2, 3]
    ]
    for capture in views:
        shown = replace(capture, payload={**capture.payload, "awaiting": [2, 3]})
        assert [leak.what for leak in find_leaks(truth, [shown])] == ["pass"]
    assert views
