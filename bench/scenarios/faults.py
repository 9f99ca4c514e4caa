"""Faults during bench-load (`make bench-faults`), one after another at even intervals:

- worker:  kill -9 of a Celery worker's whole process group, and another started at once;
- redis:   the benchmark's own Redis shut down without saving and started again after 1 s
           (every key lost: channel-layer groups, queued and reserved Celery messages);
- web:     kill -9 of one uvicorn worker process; uvicorn's supervisor starts another;
- sockets: a quarter of the open websockets cut under the connection (no close frame); the
           clients reconnect and resync from their last seq.
Each fault's window runs from its start to the next fault (or the end of the run); the
summary judges each window on its own.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from bench.clients.tables import Record
from bench.harness.stack import Stack

KINDS = ("worker", "redis", "web", "sockets")
DROP_SHARE = 0.25


@dataclass
class Fault:
    kind: str
    at: float  # time.monotonic() when it began
    took_s: float = 0.0  # until the fault was done (the replacement up)
    detail: str = ""


@dataclass
class Faults:
    stack: Stack
    record: Record
    kinds: list[str]
    concurrency: int
    done: list[Fault] = field(default_factory=list)

    async def run(self, first_at: float, every_s: float, stop: asyncio.Event) -> None:
        for i, kind in enumerate(self.kinds):
            try:
                await asyncio.wait_for(stop.wait(), timeout=max(0, first_at + i * every_s
                                                                - time.monotonic()))  # fmt: skip
                return  # stopped early
            except TimeoutError:
                pass
            fault = Fault(kind, time.monotonic())
            fault.detail = await getattr(self, f"_{kind}")()
            fault.took_s = round(time.monotonic() - fault.at, 2)
            self.done.append(fault)
            print(f"  fault {kind}: {fault.detail} ({fault.took_s} s)", flush=True)

    async def _worker(self) -> str:
        old = self.stack.workers[0].proc.pid
        await asyncio.to_thread(self.stack.replace_worker, 0, self.concurrency)
        return f"killed worker group {old}, started {self.stack.workers[0].proc.pid}"

    async def _redis(self) -> str:
        await asyncio.to_thread(self.stack.redis.restart, 1.0)
        return f"redis on {self.stack.redis.port} restarted, 1 s down"

    async def _web(self) -> str:
        node = self.stack.nodes[0]
        before = set(node.worker_pids())
        killed = node.kill_worker()
        give_up = time.monotonic() + 30
        while time.monotonic() < give_up:
            await asyncio.sleep(0.1)
            now = set(node.worker_pids())
            if len(now) >= len(before) and killed not in now:
                return f"killed web worker {killed}; uvicorn started {sorted(now - before)}"
        return f"killed web worker {killed}; NOT replaced within 30 s"

    async def _sockets(self) -> str:
        open_ = [s for s in self.record.streams if s.ws is not None and not s.closing]
        cut = random.Random(9).sample(open_, k=int(len(open_) * DROP_SHARE))
        dropped = sum(s.drop() for s in cut)
        return f"cut {dropped} of {len(open_)} open sockets"
