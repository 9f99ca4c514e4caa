"""JSON forms of engine values, kept out of the engine (STYLE: serialization lives here).

- events: `{"type", "v", "data"}` (Event.as_dict / Event.from_dict);
- state: a plain dict for projections and replay snapshots; `state_from_json(state_to_json(s))`
  equals `s` (a test checks it on every event of random games);
- canonical JSON: the exact bytes the hash chain covers.

The state's records are written field by field, so a new field needs no edit here unless its
value is not plain JSON (then it gets an entry in the tables below).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from datetime import UTC, datetime
from functools import cache
from typing import Any

from games.engine import Deck, GameState, load_deck
from games.engine.setup import game_options
from games.engine.state import Duel, Pending

STATE_FORMAT = 1


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain(value: Any) -> Any:
    """A JSON value: tuples become lists, lists are copied (so nothing is shared)."""
    if isinstance(value, list | tuple):
        return [_plain(x) for x in value]
    return value


def _copied(value: Any, deck: Deck) -> Any:
    """A JSON value read back as is, lists copied (so nothing is shared with the dict)."""
    if isinstance(value, list):
        return [_copied(x, deck) for x in value]
    return value


def _optional(decode: Callable[[Any, Deck], Any]) -> Callable[[Any, Deck], Any]:
    return lambda value, deck: None if value is None else decode(value, deck)


# A duel is stored as a list in field order: its fields' order is part of STATE_FORMAT.
def _duel_to_json(duel: Duel) -> list[Any]:
    return [_plain(getattr(duel, f.name)) for f in fields(Duel)]


def _duel_from_json(values: list[Any], deck: Deck) -> Duel:
    data = dict(zip((f.name for f in fields(Duel)), values, strict=True))
    return Duel(**{**data, "bet": tuple(data["bet"]) if data["bet"] else None})


PENDING_TO_JSON: dict[str, Callable[[Any], Any]] = {
    "card": lambda card: card.id,
    "duel": lambda duel: None if duel is None else _duel_to_json(duel),
}
PENDING_FROM_JSON: dict[str, Callable[[Any, Deck], Any]] = {
    "card": lambda card_id, deck: deck.card(card_id),
    "snapshot": lambda values, deck: tuple(values),
    "asked": lambda values, deck: tuple(values),
    "neighbor_options": lambda values, deck: tuple(values),
    "duel": _optional(_duel_from_json),
    "eliminated": lambda pairs, deck: [(seat, by) for seat, by in pairs],
}


def _pending_to_json(pending: Pending | None) -> dict[str, Any] | None:
    return None if pending is None else _record_to_json(pending, PENDING_TO_JSON)


def _pending_from_json(d: dict[str, Any] | None, deck: Deck) -> Pending | None:
    return None if d is None else _record_from_json(Pending, d, deck, PENDING_FROM_JSON)


STATE_TO_JSON: dict[str, Callable[[Any], Any]] = {
    "deck": lambda deck: {"name": deck.name, "cards": deck.rows()},
    "pending": _pending_to_json,
    "first_rolls": lambda rolls: [[seat, value] for seat, value in rolls.items()],
}
STATE_FROM_JSON: dict[str, Callable[[Any, Deck], Any]] = {
    "deck": lambda value, deck: deck,  # read first: the pending card is looked up in it
    "pending": _pending_from_json,
    "first_rolls": lambda pairs, deck: {seat: value for seat, value in pairs},
    "options": lambda options, deck: game_options(options),  # a state stored before an option
}


def _record_to_json(record: Any, encoders: dict[str, Callable[[Any], Any]]) -> dict[str, Any]:
    out = {}
    for f in fields(record):
        value = getattr(record, f.name)
        encode = encoders.get(f.name)
        out[f.name] = encode(value) if encode else _plain(value)
    return out


def _record_from_json(
    cls: type, d: dict[str, Any], deck: Deck, decoders: dict[str, Callable[[Any, Deck], Any]]
) -> Any:
    values = {f.name: decoders.get(f.name, _copied)(d[f.name], deck) for f in fields(cls)}
    return cls(**values)


def state_to_json(s: GameState) -> dict[str, Any]:
    return {"format": STATE_FORMAT, **_record_to_json(s, STATE_TO_JSON)}


# Fields added since STATE_FORMAT 1 was written, filled in when a stored state lacks them (a
# projection or snapshot saved before; `rebuild_projections` writes them all anew).
ADDED_FIELDS: dict[str, Callable[[int], Any]] = {
    "away": lambda n: [None] * n,
    "left": lambda n: [False] * n,
    "vacation_until": lambda n: [None] * n,
    "timeouts": lambda n: [0] * n,
    "owed": lambda n: [],
    "human_acts": lambda n: 0,
    "forked_from": lambda n: None,
}


def state_from_json(d: dict[str, Any]) -> GameState:
    if d.get("format") != STATE_FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}")
    return _state_from_json(d, Deck.from_rows(d["deck"]["name"], d["deck"]["cards"]))


def _state_from_json(d: dict[str, Any], deck: Deck) -> GameState:
    if any(name not in d for name in ADDED_FIELDS):
        d = {**{name: make(d["n"]) for name, make in ADDED_FIELDS.items()}, **d}
    state: GameState = _record_from_json(GameState, d, deck, STATE_FROM_JSON)
    return state


# --- the state a committed batch carries to the sockets (issue 31 item 2) ----------------------
# games.table.publish sends it, games.live.render reads it back, once per batch per process. It
# holds what the sockets read of a state (views.view_for, legal_commands, redact_event, a sealed
# pass's fold in render.seen_by, the consumer's seat and delay): not the draw pile's order (its
# count only), not the rig (its hands and deck), not the engine's own counters; a shipped deck
# by its name (the deck was three quarters of the state's bytes).
VIEW_FORMAT = "view-1"
UNSEEN = ""  # each card of the draw pile, as the sockets' state holds it: only its count is read
# Left out, and what the sockets' state holds instead (its JSON form).
VIEW_LEFT_OUT: dict[str, Callable[[int], Any]] = {
    "rig": lambda n: None,
    "first_rolls": lambda n: [],
    "contenders": lambda n: [],
    "countdown_turn": lambda n: None,
    "rolls": lambda n: 0,
    "shuffles": lambda n: 0,
    "timeouts": lambda n: [0] * n,  # a sealed pass's fold sets its seat's to 0
    "owed": lambda n: [],
    "human_acts": lambda n: 0,
}


@cache
def _shipped_rows(name: str) -> list[list[str]] | None:
    try:
        return load_deck(name).rows()
    except ValueError:
        return None


def view_state_json(d: dict[str, Any]) -> dict[str, Any]:
    """The sockets' part of a stored state JSON (`state_to_json`'s form), for a batch message."""
    out = {k: v for k, v in d.items() if k not in VIEW_LEFT_OUT}
    deck = d["deck"]
    out["format"], out["draw"] = VIEW_FORMAT, len(d["draw"])
    if deck["cards"] == _shipped_rows(deck["name"]):
        out["deck"] = {"name": deck["name"]}  # a custom deck keeps its rows
    return out


def view_state_from_json(d: dict[str, Any]) -> GameState:
    """`view_state_json`'s form read back (a whole state's too): what the sockets read of it
    equals the whole state's; the draw pile is `UNSEEN` cards, what was left out its defaults."""
    if d.get("format") == STATE_FORMAT:
        return state_from_json(d)
    if d.get("format") != VIEW_FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}")
    deck = d["deck"]
    cards = deck.get("cards")
    n = d["n"]
    whole = {**{name: make(n) for name, make in VIEW_LEFT_OUT.items()}, **d}
    whole["draw"] = [UNSEEN] * d["draw"]
    return _state_from_json(
        whole, load_deck(deck["name"]) if cards is None else Deck.from_rows(deck["name"], cards)
    )


def iso(at: datetime) -> str:
    """A time as every payload writes it: UTC, ISO 8601, microseconds."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")
