"""Moments worth jumping to in a replay: eliminations, blocks, duels, the countdown, the end."""

from __future__ import annotations

from typing import Any

from games.engine import Event
from games.engine import events as ev

KINDS = {
    ev.PLAY_BLOCKED: "block",
    ev.DUEL_STARTED: "duel",
    ev.PLAYER_ELIMINATED: "elimination",
    ev.COUNTDOWN_STARTED: "countdown",
    ev.GAME_ENDED: "end",
}


def markers(events: list[Event], *, first_seq: int = 1) -> list[dict[str, Any]]:
    """`[{"seq", "kind", "turn", "seats"}]` in log order; `seats` are the players involved."""
    out, turn = [], 0
    for seq, e in enumerate(events, start=first_seq):
        if e.type == ev.TURN_STARTED:
            turn = e.data["turn"]
        kind = KINDS.get(e.type)
        if kind is None:
            continue
        out.append({"seq": seq, "kind": kind, "turn": turn, "seats": _seats(e)})
    return out


def _seats(e: Event) -> list[int]:
    d = e.data
    if e.type == ev.PLAYER_ELIMINATED:
        return [d["seat"]] + ([d["by"]] if d.get("by") is not None else [])
    if e.type == ev.DUEL_STARTED:
        return list(d["seats"])
    if e.type == ev.PLAY_BLOCKED:
        return [d["seat"]]
    if e.type == ev.GAME_ENDED:
        return list(d["winners"])
    return []
