"""games.live.registry.EachLoop: one step over all of a loop's live sockets every few seconds
(presence's heartbeat, the catch-up look); a failing round does not end the rounds after it."""

from __future__ import annotations

import asyncio

from games.live.registry import EachLoop
from tests.support.loops import in_own_loop


def test_each_round_sees_the_sockets_live_then_and_survives_a_failed_round():
    seen: list[list[str]] = []

    async def step(live: dict) -> None:
        seen.append(sorted(live))
        if len(seen) == 1:
            raise RuntimeError("a round that fails")

    async def main() -> None:
        sockets = EachLoop(0.05, step)
        sockets.enter("a", object())
        sockets.enter("b", object())
        await asyncio.sleep(0.08)
        sockets.leave("a")
        assert sorted(sockets.live()) == ["b"]
        await asyncio.sleep(0.1)

    in_own_loop(main(), timeout=30)
    assert seen[0] == ["a", "b"] and seen[-1] == ["b"] and len(seen) >= 2
