"""The committed batch's message (games.table.publish, issue 31 item 2): its size in bytes as
channels_redis sends it (msgpack) and its decode per batch in a web process (the layer's
msgpack, then games.live.render.remember's state), with the projection's whole state
(`whole`, before) and with the sockets' part of it (`view`, games.core.codec.view_state_json).
Bot games of four seats played by the engine, one batch per command; the two forms are timed
alternately in one run. No service, no database:

    python -m bench.scenarios.batch_message [--games 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from channels_redis.serializers import registry

from games.core.codec import (
    iso,
    state_from_json,
    state_to_json,
    view_state_from_json,
    view_state_json,
)
from games.engine.bots import BOTS
from games.engine.decide import execute_in_place, start_game
from games.engine.simulate import game_seed
from games.engine.state import ACTIVE

SERIALIZER = registry.get_serializer("msgpack")
HEAD = {"seq": 0, "hash": "ab" * 32, "key_id": "k1", "signature": "A" * 86}  # as signed_head


def batches(games: int) -> list[dict[str, Any]]:
    """Every command's batch of `games` four-seat heuristic bot games, as publish sends it
    with the whole state."""
    out = []
    at = datetime(2026, 12, 2, tzinfo=UTC)
    for index in range(games):
        seed = game_seed("batch-message", index)
        events, state = start_game(
            seats=4, seed=seed, variant="standard", options={"bots": list(range(4))}
        )
        seq, bots = len(events), [BOTS["heuristic"]() for _ in range(4)]
        while state.status == ACTIVE:
            seat = state.awaiting[0]
            made = execute_in_place(state, bots[seat].choose(state, seat), actor=seat, seed=seed)
            rows = []
            for e in made:
                seq += 1
                at += timedelta(milliseconds=40)
                rows.append({"seq": seq, "type": e.type, "v": 1, "at": iso(at), "data": e.data})
            out.append({"type": "game.committed", "game": index + 1, "seq": seq,
                        "events": json.loads(json.dumps(rows)),  # as read back from jsonb
                        "state": state_to_json(state), "deadline": iso(at + timedelta(hours=1)),
                        "tournament": None, "signed_head": {**HEAD, "seq": seq}})  # fmt: skip
    return out


def decode_us(payloads: list[bytes], decode_state: Any) -> float:
    """Microseconds per batch: the layer's decode and the state's, as a web process does."""
    started = time.perf_counter()
    for payload in payloads:
        decode_state(SERIALIZER.deserialize(payload)["state"])
    return (time.perf_counter() - started) / len(payloads) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    whole = batches(args.games)
    view = [{**m, "state": view_state_json(m["state"])} for m in whole]
    forms = {
        "whole": ([SERIALIZER.serialize(m) for m in whole], state_from_json),
        "view": ([SERIALIZER.serialize(m) for m in view], view_state_from_json),
    }
    times: dict[str, list[float]] = {name: [] for name in forms}
    for _ in range(args.rounds):  # alternately, so both see the same machine
        for name, (payloads, decode) in forms.items():
            times[name].append(decode_us(payloads, decode))
    per_batch = sum(len(m["events"]) for m in whole) / len(whole)
    print(f"{len(whole)} batches of {args.games} four-seat bot games "
          f"({per_batch:.1f} events per batch)")  # fmt: skip
    for name, (payloads, _) in forms.items():
        sizes = [len(p) for p in payloads]
        messages = whole if name == "whole" else view
        states = [len(SERIALIZER.serialize(m["state"])) for m in messages]
        t = times[name]
        rounds = ", ".join(f"{x:.1f}" for x in t)
        print(f"{name:5}: message mean {statistics.mean(sizes):.0f} B, max {max(sizes)} B "
              f"(its state mean {statistics.mean(states):.0f} B, max {max(states)} B); "
              f"decode per batch median {statistics.median(t):.1f} µs, min {min(t):.1f} µs "
              f"({len(t)} rounds: {rounds})")  # fmt: skip


if __name__ == "__main__":
    main()
