"""Folding a fork's first event, `forked` (fork.py makes it): the position it carries, read
back into a state. Apart from fork.py so that evolve.py, which folds it, needs nothing of
what makes it."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .state import LOBBY, Duel, GameState, Pending


def pending_to_json(p: Pending | None) -> dict[str, Any] | None:
    """The pending play as plain JSON (its card by id, its duel as a dict)."""
    if p is None:
        return None
    out: dict[str, Any] = {}
    for f in fields(Pending):
        value = getattr(p, f.name)
        if f.name == "card":
            value = value.id
        elif f.name == "duel":
            value = None if value is None else {
                g.name: _plain(getattr(value, g.name)) for g in fields(Duel)}  # fmt: skip
        out[f.name] = _plain(value)
    return out


def pending_from_json(d: dict[str, Any] | None, s: GameState) -> Pending | None:
    if d is None:
        return None
    duel = d["duel"]
    if duel is not None:
        duel = Duel(**{**duel, "bet": tuple(duel["bet"]) if duel["bet"] else None})
    return Pending(
        seat=d["seat"],
        card=s.deck.card(d["card"]),
        effect_index=d["effect_index"],
        scope=d["scope"],
        target=d["target"],
        snapshot=tuple(d["snapshot"]),
        asked=tuple(d["asked"]),
        window=list(d["window"]),
        queue=list(d["queue"]),
        neighbor_options=tuple(d["neighbor_options"]),
        neighbor=d["neighbor"],
        duel=duel,
        eliminated=[(seat, by) for seat, by in d["eliminated"]],
        handoffs=list(d["handoffs"]),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(x) for x in value]
    return value


def apply_forked(s: GameState, d: dict[str, Any]) -> None:
    """Fill a fresh state (made from the `forked` event's game settings) with the position:
    still in the lobby until every seat is taken (`game_started`)."""
    s.status = LOBBY
    s.forked_from = {k: d["source"][k] for k in ("game", "at", "hash") if k in d["source"]}
    s.lives = list(d["lives"])
    s.hands = [list(h) for h in d["hands"]]
    s.draw = list(d["draw"])
    s.discard = list(d["discard"])
    s.phase, s.kostic, s.turn = d["phase"], d["kostic"], d["turn"]
    s.awaiting = list(d["awaiting"])
    s.pending = pending_from_json(d["pending"], s)
    s.first_rolls = {seat: value for seat, value in d["first_rolls"]}
    s.contenders = list(d["contenders"])
    s.countdown, s.countdown_turn = d["countdown"], d["countdown_turn"]
    s.rolls, s.shuffles = d["rolls"], d["shuffles"]
