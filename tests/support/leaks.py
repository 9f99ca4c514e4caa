"""The leak canary's checker: what a viewer received, judged against the truth (R23, R19).

The truth is a finished game's export (every event unredacted) folded with the engine, so every
hand, the draw pile and every block window are known at every seq. A payload a viewer received
is a `Capture`; `find_leaks` reports:

- **card**: a card id that, at the moment the payload shows, lay in the draw pile or in the hand
  of a player the viewer may not look into (not himself, not his partner in pairs extreme), unless
  the viewer handed it there himself (R15: giver and receiver see the card). Played, blocking and
  discarded cards are public and never lie in a hand at the seq that shows them. A history (the
  transcript) names no seq per line, so a card in it is a leak when the viewer could not have
  known it at any moment so far (a card that was played once may be told of, wherever it is now).
- **pass**: who passed, shown to another viewer while the block window is still open (R19): a
  `block_passed` event with a seat, or a view whose `awaiting` leaves out an asked player.
- **young** (`find_young`, games with a spectator delay): a part of a payload to a viewer with no
  seat that shows a seq younger than the delay allowed when it was received — past
  max(present - delay, the deal's seq) — before the end (issue 10).

Nothing received after the end is a leak (R23: the whole history is public then). The checker
knows no Django and trusts nothing the service computes but the exported events.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engine import Event, GameState, evolve

CARD = re.compile(r"\bC\d\d\b")  # a card id, also inside a message text

# What a payload is, which says which seq each of its parts shows.
VIEW = "view"  # a game view: shows its own "seq"
REPLAY = "replay"  # a view of the past: shows its "seq" (the `at` asked for)
EVENTS = "events"  # a list of events: each shows its own "seq"
TEXT = "text"  # anything else (markers, error bodies, lobby lists): shows the moment received
HISTORY = "history"  # a text telling the game so far (the transcript): its lines show no seq


@dataclass(frozen=True)
class Capture:
    """One payload as a viewer received it."""

    role: str  # who received it: "seat0", "spectator", "anonymous socket", ...
    viewer: int | None  # the seat the service knows the receiver as, None for no seat
    kind: str  # VIEW, REPLAY, EVENTS or TEXT
    at: int  # the game's last seq when it was received
    payload: Any
    source: str = ""  # "GET view", "ws event", "POST commands 409", ...
    sent: frozenset[str] = frozenset()  # card ids the request named itself (an echo is no leak)
    present: int | None = None  # the game's seq when received, where `at` is a frame's own seq


@dataclass(frozen=True)
class Leak:
    what: str  # "card" or "pass"
    capture: Capture
    seq: int  # the moment the leaking part shows
    detail: str

    def __str__(self) -> str:
        c = self.capture
        return f"{self.what} leak to {c.role} via {c.source or c.kind} at {self.seq}: {self.detail}"


@dataclass(frozen=True)
class Moment:
    """The hidden facts right after one event."""

    hands: tuple[frozenset[str], ...]
    draw: frozenset[str]
    window: int | None  # the seq of the play whose block window is open, or None
    asked: tuple[int, ...]  # the players asked in that window (R19)
    eliminated: frozenset[int]
    ended: bool
    given: dict[str, int] = field(default_factory=dict)  # card held since a handoff → its giver


class Truth:
    """Every hidden fact of a finished game at every seq (moments[seq]; 0 is before the log)."""

    def __init__(self, variant: str, moments: list[Moment], started: int | None) -> None:
        self.variant, self.moments, self.started = variant, moments, started
        self.end = next((seq for seq, m in enumerate(moments) if m.ended), None)

    @classmethod
    def from_events(cls, events: Iterable[dict[str, Any]]) -> Truth:
        """From unredacted events `{"seq", "type", "v", "data"}` in seq order."""
        state: GameState | None = None
        moments = [Moment((), frozenset(), None, (), frozenset(), False)]
        window, started, given = None, None, {}
        for seq, e in enumerate(events, start=1):
            assert e["seq"] == seq, f"the export skips from {seq - 1} to {e['seq']}"
            state = evolve(state, Event(e["type"], e["data"], e.get("v", 1)))
            if e["type"] == "game_started":
                started = seq
            if e["type"] == "card_played":
                window = seq
            if e["type"] == "card_handed_off" and e["data"]["card"] is not None:
                given[e["data"]["card"]] = (e["data"]["seat"], e["data"]["to"])
            given = {c: (g, to) for c, (g, to) in given.items() if c in state.hands[to]}
            moments.append(_moment(state, window if state.phase == "block" else None, given))
        return cls(state.variant if state else "standard", moments, started)

    @classmethod
    def from_export(cls, text: str) -> Truth:
        """From GET /api/games/{id}/export/: a header line, then one line per event."""
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        return cls.from_events(lines[1:])

    def sees(self, viewer: int | None) -> frozenset[int]:
        """The seats whose hands `viewer` may look into (R23)."""
        if viewer is None:
            return frozenset()
        return frozenset({viewer, viewer ^ 1} if self.variant == "pairs_extreme" else {viewer})

    def hidden(self, viewer: int | None, seq: int) -> frozenset[str]:
        """The cards `viewer` may not know the place of right after event `seq`."""
        m, sees = self.moments[seq], self.sees(viewer)
        cards = set(m.draw)
        for seat, hand in enumerate(m.hands):
            if seat not in sees:
                cards |= {c for c in hand if m.given.get(c) not in sees}
        return frozenset(cards)

    def never_known(self, viewer: int | None, seq: int) -> frozenset[str]:
        """The cards hidden from `viewer` at every moment from the deal up to `seq`."""
        cards: frozenset[str] | None = None
        for moment in range(self.started or seq, seq + 1):
            hidden = self.hidden(viewer, moment)
            cards = hidden if cards is None else cards & hidden
        return cards or frozenset()

    def window(self, seq: int) -> int | None:
        return self.moments[min(seq, len(self.moments) - 1)].window

    def ended_by(self, seq: int) -> bool:
        return self.end is not None and seq >= self.end


def _moment(s: GameState, window: int | None, given: dict) -> Moment:
    return Moment(
        hands=tuple(frozenset(h) for h in s.hands),
        draw=frozenset(s.draw),
        window=window,
        asked=tuple(s.pending.asked) if window is not None and s.pending else (),
        eliminated=frozenset(p for p in range(s.n) if s.status != "lobby" and s.lives[p] == 0),
        ended=s.status == "ended",
        given={c: g for c, (g, _) in given.items()},
    )


def find_leaks(truth: Truth, captures: Iterable[Capture]) -> list[Leak]:
    """Every hidden card and every early pass in `captures` (see the module docstring)."""
    leaks: list[Leak] = []
    for capture in captures:
        if truth.ended_by(capture.at):
            continue  # R23: after the end everything is public
        for seq, part in _parts(capture):
            leaks += _hidden_cards(truth, capture, seq, part)
        leaks += _early_passes(truth, capture)
    return leaks


def _parts(capture: Capture) -> Iterator[tuple[int, Any]]:
    """(the seq it shows, a JSON value) for each part of the payload."""
    if capture.kind in (VIEW, REPLAY):
        yield capture.payload["seq"], capture.payload
    elif capture.kind == EVENTS:
        for event in capture.payload:
            if event["type"] == "game_created":  # its deck is the public catalog of card ids
                event = {**event, "data": {k: v for k, v in event["data"].items() if k != "deck"}}
            yield event["seq"], event
    else:
        yield capture.at, capture.payload


def _hidden_cards(truth: Truth, capture: Capture, seq: int, part: Any) -> list[Leak]:
    # Before the deal no card lies anywhere: judge what the lobby showed against the deal.
    moment = min(max(seq, truth.started or 0), len(truth.moments) - 1)
    if capture.kind == HISTORY:
        hidden = truth.never_known(capture.viewer, moment)
    else:
        hidden = truth.hidden(capture.viewer, moment)
    shown = set(CARD.findall(json.dumps(part))) - capture.sent
    return [Leak("card", capture, moment, f"{card} was hidden from {capture.role}")
            for card in sorted(shown & hidden)]  # fmt: skip


def _early_passes(truth: Truth, capture: Capture) -> list[Leak]:
    sees, leaks = truth.sees(capture.viewer), []
    if capture.kind in (VIEW, REPLAY):
        seq = capture.payload["seq"]
        window = truth.window(seq)
        if window is not None and truth.window(capture.at) == window:
            asked = truth.moments[seq].asked
            for seat in sorted(set(asked) - set(capture.payload["awaiting"]) - sees):
                leaks.append(Leak("pass", capture, seq, f"awaiting leaves out seat {seat}"))
    elif capture.kind == EVENTS:
        for event in capture.payload:
            seat = event["data"].get("seat") if event["type"] == "block_passed" else None
            window = truth.window(event["seq"])
            if seat is None or seat in sees or window is None:
                continue
            if truth.window(capture.at) == window:
                leaks.append(Leak("pass", capture, event["seq"], f"seat {seat} passed"))
    return leaks


def find_young(truth: Truth, captures: Iterable[Capture], delay: int) -> list[Leak]:
    """Every part of a payload to a viewer with no seat that shows a seq younger than `delay`
    events before the moment it was received (the lobby and the deal are public), before the
    end. Markers and lobby lists count by their `seq` fields; a transcript names none."""
    leaks: list[Leak] = []
    start = truth.started or 0
    for capture in captures:
        present = capture.at if capture.present is None else capture.present
        if capture.viewer is not None or truth.ended_by(present) or capture.kind == HISTORY:
            continue
        limit = max(present - delay, start)
        for seq in _seqs_shown(capture):
            if seq > limit:
                leaks.append(Leak("young", capture, seq, f"seq {seq} shown at {present}"))
    return leaks


def _seqs_shown(capture: Capture) -> Iterator[int]:
    if capture.kind in (VIEW, REPLAY, EVENTS):
        yield from (seq for seq, _ in _parts(capture))
    else:
        yield from _seq_fields(capture.payload)


def _seq_fields(value: Any) -> Iterator[int]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seq" and isinstance(item, int):
                yield item
            else:
                yield from _seq_fields(item)
    elif isinstance(value, list):
        for item in value:
            yield from _seq_fields(item)
