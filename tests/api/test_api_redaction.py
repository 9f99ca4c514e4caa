"""The redaction matrix (R23, R19): for every event type that can carry a hidden card and every
viewer — each seat, the partner, a spectator, an anonymous client, and everyone after the end —
neither the view, nor the event list, nor a replay holds a card that viewer may not see.

The truth is folded from the stored events; what a viewer may see is spelled out here (R23),
not borrowed from the engine's own redaction."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from games.core.models import GameEvent
from games.engine import Event, fold
from games.engine import events as ev
from tests.support.api import (
    card_ids,
    open_table,
    send,
    step,
)

# Every card is dealt (ten each, none left to draw), so the first draw reshuffles (R4). Seat 0
# holds C25 (green LOSE_1) for seat 2, who has one life: seat 2 is eliminated and hands C01
# to seat 3 (R15). The rest of the game is random legal play.
IDS = [f"C{i:02d}" for i in range(1, 41)]
HANDS = [IDS[10 * p : 10 * p + 10] for p in range(4)]
HANDS[0][0], HANDS[2][4] = "C25", "C01"
RIG = {"lives": [6, 6, 1, 6], "hands": HANDS, "deck": [], "first": 0}
HIDING = {ev.GAME_CREATED, ev.GAME_STARTED, ev.DECK_RESHUFFLED, ev.CARD_DRAWN,
          ev.CARD_HANDED_OFF, ev.BLOCK_PASSED}  # fmt: skip


def sees(variant: str, viewer: int | None, seat: int) -> bool:
    """R23: one's own hand, and the partner's in pairs extreme (partners 0+1 and 2+3)."""
    if viewer is None:
        return False
    return viewer == seat or (variant == "pairs_extreme" and viewer // 2 == seat // 2)


def secret(state, viewer: int | None) -> set[str]:
    """The cards `viewer` may not see in `state`: the draw pile and the hands of others."""
    if state.status == "ended":
        return set()
    hidden = set(state.draw)
    for seat, hand in enumerate(state.hands):
        if not sees(state.variant, viewer, seat):
            hidden |= set(hand)
    return hidden


class Matrix:
    """One rigged game and its six viewers; `check()` asks each for everything it may read."""

    def __init__(self, make_player, variant: str) -> None:
        self.variant = variant
        # Spectators watch live: this is about R23 and R19 in the present (delays:
        # test_spectator_delay.py).
        self.table = open_table(make_player, 4, variant, options={"spectator_delay": 0}, rig=RIG)
        spectator = make_player()
        self.viewers: list[tuple[APIClient, int | None]] = [
            *((client, seat) for seat, client in enumerate(self.table.seats)),
            (spectator, None),
            (APIClient(), None),
        ]
        self.seen_types: set[str] = set()

    def truth(self) -> list:
        """The state right after each seq (index 0: before the first event)."""
        states, state = [None], None
        for row in GameEvent.objects.filter(game_id=self.table.gid).order_by("seq"):
            state = fold([Event(row.type, row.data, row.v)], state)
            states.append(state)
        return states

    def act(self, seat: int, body: dict) -> dict:
        client = self.table.seats[seat]
        seq = client.get(self.table.url()).json()["seq"]
        answer = send(client, self.table.gid, {"expected_seq": seq, **body})
        assert answer.status_code == 200, answer.content
        return answer.json()["view"]

    def check(self, replays: list[int] | None = None) -> None:
        states = self.truth()
        now = states[-1]
        for client, viewer in self.viewers:
            self._view(client, viewer, now)
            self._events(client, viewer, states)
            for at in replays if replays is not None else [len(states) - 1]:
                self._replay(client, viewer, states[at], now, at)

    def check_public(self) -> None:
        """R23: after the end the whole history, hands included, is public to everyone."""
        rows = list(GameEvent.objects.filter(game_id=self.table.gid).order_by("seq"))
        states = self.truth()
        assert states[-1].status == "ended"
        for client, _ in self.viewers:
            events = client.get(self.table.url("events/")).json()["events"]
            assert [(e["type"], e["data"]) for e in events] == [(r.type, r.data) for r in rows]
            assert client.get(self.table.url()).json()["hands"] == states[-1].hands
            for at in (6, len(rows) // 2, len(rows)):
                replay = client.get(self.table.url("replay/"), {"at": at}).json()
                assert replay["hands"] == states[at].hands

    def _view(self, client: APIClient, viewer: int | None, now) -> None:
        view = client.get(self.table.url()).json()
        assert not card_ids(view) & secret(now, viewer), (viewer, view)
        assert view["you"] == viewer
        assert view["hand"] == (now.hands[viewer] if viewer is not None else [])
        partner = None if viewer is None else viewer ^ 1
        extreme = self.variant == "pairs_extreme" and partner is not None
        assert view["partner_hand"] == (now.hands[partner] if extreme else None)
        assert view["hands"] == (now.hands if now.status == "ended" else None)

    def _events(self, client: APIClient, viewer: int | None, states: list) -> None:
        events = client.get(self.table.url("events/")).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, len(states)))
        if states[-1].status == "ended":
            return  # R23: the whole history is public now (see the test below)
        for e in events:
            self.seen_types.add(e["type"])
            data = e["data"]
            if e["type"] == ev.GAME_CREATED:
                data = {k: v for k, v in data.items() if k != "deck"}  # the catalog is public
                assert set(data["rig"]) <= {"lives", "first", "dice"}, data
            if e["type"] == ev.CARD_HANDED_OFF and sees(self.variant, viewer, data["seat"]):
                data = {k: v for k, v in data.items() if k != "card"}  # R15: the giver knows
            assert not card_ids(data) & secret(states[e["seq"]], viewer), (viewer, e)

    def _replay(self, client: APIClient, viewer: int | None, then, now, at: int) -> None:
        view = client.get(self.table.url("replay/"), {"at": at}).json()
        assert view["seq"] == at and view["legal"] == []
        if now.status != "ended":  # R23: after the end, replays show every hand
            assert not card_ids(view) & secret(then, viewer), (viewer, at, view)


@pytest.fixture
def rigging(settings):
    settings.SEJMI_ALLOW_RIGGED = True


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["pairs_extreme", "pairs", "standard"])
def test_no_payload_holds_a_card_its_viewer_may_not_see(make_player, rigging, variant):
    m = Matrix(make_player, variant)
    m.check()
    m.act(0, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 2})
    m.check()
    for seat in (1, 2, 3):
        m.act(seat, {"type": "pass"})
        m.check()
    m.act(2, {"type": "handoff", "card": "C01", "to": 3})
    m.check(replays=list(range(1, len(m.truth()))))
    rnd, view = random.Random(variant), None
    while (view := step(m.table, rnd, view)) is not None:
        m.check()
    assert HIDING <= m.seen_types
    m.check_public()


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["pairs_extreme", "standard"])
def test_r19_who_passed_stays_hidden_until_the_window_closes(make_player, rigging, variant):
    m = Matrix(make_player, variant)
    m.act(0, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 2})
    window_at = m.act(1, {"type": "pass"})["seq"]  # sealed: the seq does not move
    for client, viewer in m.viewers:  # the partner too: a sealed pass is nobody else's
        events = client.get(m.table.url("events/")).json()["events"]
        assert events[-1]["type"] == ev.CARD_PLAYED and events[-1]["seq"] == window_at
        view = client.get(m.table.url()).json()
        assert view["seq"] == window_at
        assert view["awaiting"] == ([2, 3] if viewer == 1 else [1, 2, 3])
        replay = client.get(m.table.url("replay/"), {"at": window_at}).json()
        assert replay["awaiting"] == [1, 2, 3]  # the log's past: no pass in it yet
    m.act(2, {"type": "pass"})
    m.act(3, {"type": "pass"})  # the window closes: who passed is public now
    for client, _ in m.viewers:
        passes = [e["data"]["seat"] for e in client.get(m.table.url("events/")).json()["events"]
                  if e["type"] == ev.BLOCK_PASSED]  # fmt: skip
        assert passes == [1, 2, 3]
