"""What a viewer may see (R23): the only door out for any payload.

A viewer is a seat, None (a spectator) or OMNISCIENT (audits and exports for staff). A card a
viewer may not see is shown as null, so lengths (hand sizes, pile sizes) stay public.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from .legal import legal_commands
from .state import (
    BET,
    BLOCK,
    CHOOSE_NEIGHBOR,
    ENDED,
    HANDOFF,
    PAIRS_EXTREME,
    PUBLIC_PHASES,
    RESOLVE,
    GameState,
)

OMNISCIENT = "omniscient"
Viewer = int | str | None


def _sees(s: GameState, viewer: Viewer, seat: int) -> bool:
    return viewer == OMNISCIENT or s.sees_hand_of(viewer, seat)  # type: ignore[arg-type]


def _seat_of(viewer: Viewer) -> int | None:
    return viewer if isinstance(viewer, int) else None


def view_for(s: GameState, viewer: Viewer, *, reveal: bool = False) -> dict[str, Any]:
    """The game as `viewer` may see it (API.md, View; the service adds id, seq and deadline).
    `reveal` shows every hand: for replays of a game that has since ended (R23)."""
    seat = _seat_of(viewer)
    partner = s.partner(seat) if seat is not None and s.variant == PAIRS_EXTREME else None
    return {
        "status": s.status,
        "variant": s.variant,
        "phase": s.phase if s.phase in PUBLIC_PHASES else None,
        "kostic": s.kostic,
        "turn": s.turn,
        "awaiting": _awaiting(s, seat),
        "you": seat,
        "hand": list(s.hands[seat]) if seat is not None else [],
        "partner_hand": list(s.hands[partner]) if partner is not None else None,
        "hands": [list(h) for h in s.hands]
        if reveal or s.status == ENDED or viewer == OMNISCIENT
        else None,
        "players": [_player(s, player) for player in range(s.n)],
        "draw_count": len(s.draw),
        "discard": list(s.discard),
        "countdown": s.countdown,
        "pending": _pending(s, viewer),
        "legal": [c.body() for c in legal_commands(s, seat)]  # type: ignore[union-attr]
        if seat is None or not s.left[seat]
        else [],  # who left may read his view, never act
        "winners": s.winners,
        "seed_commitment": s.seed_commitment,
        "seed": s.seed,
        "rigged": s.rigged,
        "options": {k: v for k, v in s.options.items()},
        "forked_from": {"game": s.forked_from.get("game"), "at": s.forked_from.get("at")}
        if s.forked_from is not None
        else None,
    }


def _awaiting(s: GameState, seat: int | None) -> list[int]:
    """R19: in a block window everyone asked stays listed, so no one learns who passed."""
    if s.phase == BLOCK and s.pending is not None:
        asked = s.pending.asked
        passed = seat is not None and seat in asked and seat not in s.pending.window
        return [other for other in asked if not (passed and other == seat)]
    return list(s.awaiting)


def _player(s: GameState, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "username": s.names[seat],
        "bot": s.bots[seat],
        "lives": s.lives[seat],
        "hand_count": len(s.hands[seat]),
        "eliminated": s.status != "lobby" and s.lives[seat] == 0,
        "team": s.team(seat),
        "away": s.away[seat],  # None | "vacation" | "bot" (away.py)
        "left": s.left[seat],
        "away_until": s.vacation_until[seat],
    }


def _pending(s: GameState, viewer: Viewer) -> dict[str, Any] | None:
    pending = s.pending
    if pending is None or s.phase not in (BLOCK, RESOLVE, CHOOSE_NEIGHBOR, BET, HANDOFF):
        return None
    effect = pending.effect
    out: dict[str, Any] = {
        "seat": pending.seat,
        "card": pending.card.id,
        "effect": pending.effect_index,
        "kind": effect.kind,
        "colour": effect.colour,
        "scope": pending.scope,
        "target": pending.target,
        "resolving": pending.queue[0] if pending.queue and s.phase != BLOCK else None,
        "neighbor_options": list(pending.neighbor_options) or None,
        "eliminated": [seat for seat, _ in pending.eliminated],
    }
    if pending.duel is not None:
        d = pending.duel
        out["duel"] = {
            "seats": [d.affected, d.kostic],
            "bettor": d.bettor,
            "bet": list(d.bet) if d.bet else None,
        }
    if s.phase == HANDOFF:
        out["handoff"] = pending.handoffs[0]
    return out


def redact_event(e: ev.Event, s: GameState, viewer: Viewer) -> dict[str, Any]:
    """An event's data as `viewer` may see it, judged on the current state `s` of its game."""
    data, t = e.data, e.type
    if s.status == ENDED or viewer == OMNISCIENT or not ev.KINDS[t].secret:
        return dict(data)
    if t == ev.GAME_CREATED and data.get("rig"):
        rig = dict(data["rig"])
        rig.pop("hands", None), rig.pop("deck", None)
        return {**data, "rig": rig}
    if t == ev.FORKED or (t == ev.GAME_STARTED and "hands" in data):  # a fork's starts dealt
        hands = [
            h if _sees(s, viewer, seat) else [None] * len(h) for seat, h in enumerate(data["hands"])
        ]
        return {**data, "hands": hands, "draw": [None] * len(data["draw"])}
    if t == ev.DECK_RESHUFFLED:
        return {**data, "draw": [None] * len(data["draw"])}
    if t == ev.CARD_DRAWN and not _sees(s, viewer, data["seat"]):
        return {**data, "card": None}
    if t == ev.CARD_HANDED_OFF and data["card"] is not None:
        if not (_sees(s, viewer, data["seat"]) or _sees(s, viewer, data["to"])):
            return {**data, "card": None}
    if t == ev.BLOCK_PASSED and s.phase == BLOCK and s.turn == data["turn"]:
        if not _sees(s, viewer, data["seat"]):  # R19: hidden while the window is open
            return {"seat": None, "turn": data["turn"]}  # nor whether an order gave it
    return dict(data)
