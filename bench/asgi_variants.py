"""The ASGI app with proposed optimizations patched in, to measure them before anyone edits the
real code. Only variant rows of the benchmarks use it; the shipped app is sejmi.asgi:application.
BENCH_PATCHES names the patches, comma-separated:

fast_dispatch  GameConsumer skips Channels' per-message `aclose_old_connections()` (a hop to
               the process's one sync thread) for `game.committed`, which touches no database
               unless it heals a gap, and then through database_sync_to_async, which closes
               old connections itself.
celery_backend_once  the deadline task keeps one result backend: Celery otherwise builds one
               per thread (an entry-points scan, ~3 ms), and ASGI runs each request in a new
               thread. Results are ignored and the backend is the stateless disabled one.
"""

import os

from sejmi.asgi import application

__all__ = ["application", "PATCHES"]

PATCHES = ("fast_dispatch", "celery_backend_once")
chosen = {p for p in os.environ.get("BENCH_PATCHES", "").split(",") if p}
if chosen - set(PATCHES):
    raise RuntimeError(f"unknown BENCH_PATCHES: {chosen - set(PATCHES)}")

if "fast_dispatch" in chosen:
    from games.consumers import GameConsumer

    _dispatch = GameConsumer.dispatch

    async def dispatch(self, message):
        if message["type"] == "game.committed":
            await self.game_committed(message)
            return
        await _dispatch(self, message)

    GameConsumer.dispatch = dispatch

if "celery_backend_once" in chosen:
    from games.tasks import advance

    advance.backend = advance.app.backend
