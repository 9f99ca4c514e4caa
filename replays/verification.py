"""Checking a game's record without trusting the server's word (R22).

(1) the hash chain from the first event to the head; (2) the revealed seed matches its
commitment; (3) folding the events reproduces the stored projection.
"""

from __future__ import annotations

import hashlib
from typing import Any

from games import event_store
from games.codec import state_to_json
from games.engine import fold
from games.models import Game, GameProjection


def audit_report(game_id: int) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    proj = GameProjection.objects.get(game_id=game_id)
    rows = event_store.load(game_id)
    chain = event_store.verify_chain(rows)
    state = fold([event_store.to_event(r) for r in rows]) if rows else None
    seed = bytes(game.seed)
    commitment = state.seed_commitment if state else None
    return {
        "seed": seed.hex(),
        "seed_commitment": commitment,
        "seed_ok": hashlib.sha256(seed).hexdigest() == commitment,
        "chain_ok": chain.ok,
        "head_hash": chain.head_hash,
        "first_bad_seq": chain.first_bad_seq,
        "reason": chain.reason,
        "replay_ok": state is not None
        and state_to_json(state) == proj.state
        and proj.seq == len(rows),
    }
