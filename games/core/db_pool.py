"""The PostgreSQL pool of a process (settings: SEJMI_DB_POOL_MAX), shared by what runs in it."""

from __future__ import annotations

from django.conf import settings


def half_the_pool() -> int:
    """Threads a process gives to side-by-side database work (its sockets' calls, a deadline
    runner's games): half its pooled connections, leaving the rest to its other requests; one
    on SQLite (`make run`), which has one writer at a time anyway."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    return max(1, pool["max_size"] // 2) if isinstance(pool, dict) else 1
