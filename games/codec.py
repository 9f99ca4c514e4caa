"""JSON forms of engine values, kept out of the engine (STYLE: serialization lives here).

- events: `{"type", "v", "data"}` (Event.as_dict / Event.from_dict);
- state: a plain dict for projections and replay snapshots; `state_from_json(state_to_json(s))`
  equals `s` (a test checks it on every event of random games);
- canonical JSON: the exact bytes the hash chain covers.
"""

from __future__ import annotations

import json
from typing import Any

from games.engine import Deck, GameState
from games.engine.state import Duel, Pending

STATE_FORMAT = 1


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_to_json(s: GameState) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "variant": s.variant, "n": s.n, "options": s.options,
        "deck": {"name": s.deck.name, "cards": s.deck.rows()},
        "seed_commitment": s.seed_commitment, "rigged": s.rigged, "rig": s.rig,
        "status": s.status, "names": s.names, "bots": s.bots, "lives": s.lives, "hands": s.hands,
        "draw": s.draw, "discard": s.discard, "phase": s.phase, "kostic": s.kostic, "turn": s.turn,
        "awaiting": s.awaiting, "pending": _pending_to_json(s.pending),
        "first_rolls": [[k, v] for k, v in s.first_rolls.items()], "contenders": s.contenders,
        "countdown": s.countdown, "countdown_turn": s.countdown_turn, "winners": s.winners,
        "rolls": s.rolls, "shuffles": s.shuffles, "seed": s.seed,
    }  # fmt: skip


def state_from_json(d: dict[str, Any]) -> GameState:
    if d.get("format") != STATE_FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}")
    deck = Deck.from_rows(d["deck"]["name"], d["deck"]["cards"])
    return GameState(
        variant=d["variant"], n=d["n"], deck=deck, options=d["options"],
        seed_commitment=d["seed_commitment"], rigged=d["rigged"], rig=d["rig"],
        status=d["status"], names=list(d["names"]), bots=list(d["bots"]), lives=list(d["lives"]),
        hands=[list(h) for h in d["hands"]], draw=list(d["draw"]), discard=list(d["discard"]),
        phase=d["phase"], kostic=d["kostic"], turn=d["turn"], awaiting=list(d["awaiting"]),
        pending=_pending_from_json(d["pending"], deck),
        first_rolls={k: v for k, v in d["first_rolls"]}, contenders=list(d["contenders"]),
        countdown=d["countdown"], countdown_turn=d["countdown_turn"],
        winners=list(d["winners"]) if d["winners"] is not None else None,
        rolls=d["rolls"], shuffles=d["shuffles"], seed=d["seed"],
    )  # fmt: skip


def _pending_to_json(p: Pending | None) -> dict[str, Any] | None:
    if p is None:
        return None
    duel = p.duel
    return {
        "seat": p.seat, "card": p.card.id, "effect_index": p.effect_index, "scope": p.scope,
        "target": p.target, "snapshot": list(p.snapshot), "asked": list(p.asked),
        "window": p.window, "queue": p.queue, "neighbor_options": list(p.neighbor_options),
        "neighbor": p.neighbor,
        "duel": None if duel is None else [duel.p, duel.k, duel.bettor,
                                           list(duel.bet) if duel.bet else None, duel.loser],
        "eliminated": [list(x) for x in p.eliminated], "handoffs": p.handoffs,
    }  # fmt: skip


def _pending_from_json(d: dict[str, Any] | None, deck: Deck) -> Pending | None:
    if d is None:
        return None
    duel = None
    if d["duel"] is not None:
        dp, dk, bettor, bet, loser = d["duel"]
        duel = Duel(dp, dk, bettor, tuple(bet) if bet else None, loser)  # type: ignore[arg-type]
    return Pending(
        seat=d["seat"], card=deck.card(d["card"]), effect_index=d["effect_index"],
        scope=d["scope"], target=d["target"], snapshot=tuple(d["snapshot"]),
        asked=tuple(d["asked"]), window=list(d["window"]), queue=list(d["queue"]),
        neighbor_options=tuple(d["neighbor_options"]), neighbor=d["neighbor"], duel=duel,
        eliminated=[(a, b) for a, b in d["eliminated"]], handoffs=list(d["handoffs"]),
    )  # fmt: skip
