"""bench-nodes' read replica (issue 20): a standby of the local cluster (tests.support.standby)
on its own port, which every process of the run reads the reads that may lag from
(DATABASE_REPLICA_URLS), a few spectators reading the lobby lists and the leaderboard through
the balancer meanwhile, and what the replica served, from its own pg_stat_database."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from contextlib import contextmanager
from urllib.parse import urlparse

import httpx
import psycopg

from tests.support.standby import Standby

PORT = 55434  # not the replica tests' 55433
LIST_READS = ("/api/games/?status=active", "/api/games/?status=ended", "/api/replays/",
              "/api/leaderboard/")  # fmt: skip


@contextmanager
def streaming(database_url: str):
    """A fresh standby on PORT for the run (before the nodes start: they read the variable
    at startup), stopped and removed after."""
    standby = Standby(PORT, user=urlparse(database_url).username or "postgres")
    if standby.answers():
        raise SystemExit(f"something already answers on PostgreSQL port {PORT}")
    print(f"  a streaming replica on port {PORT} (pg_basebackup) ...", flush=True)
    standby.create()
    try:
        standby.start()
        os.environ["DATABASE_REPLICA_URLS"] = standby.url(urlparse(database_url).path.lstrip("/"))
        yield standby
    finally:
        os.environ.pop("DATABASE_REPLICA_URLS", None)
        standby.stop("immediate")
        standby.remove()


ANSWERS: Counter = Counter()  # the list readers' answers by status (a transport error: its name)


async def list_readers(base: str, stop: asyncio.Event, readers: int = 4,
                       every_s: float = 0.25) -> None:  # fmt: skip
    """`readers` anonymous spectators reading the lists in turn until `stop` (ANSWERS)."""
    answers = ANSWERS

    async def reader(offset: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            at = offset
            while not stop.is_set():
                try:
                    answers[(await http.get(LIST_READS[at % len(LIST_READS)])).status_code] += 1
                except httpx.TransportError as err:
                    answers[type(err).__name__] += 1
                at += 1
                try:
                    await asyncio.wait_for(stop.wait(), timeout=every_s)
                except TimeoutError:
                    pass

    await asyncio.gather(*(reader(i) for i in range(readers)))
    return answers


def served(standby: Standby, database_url: str) -> dict[str, int]:
    """What the replica served the run's database, by its own statistics: transactions (each
    autocommit read is one; the health looks, one a second per web process, are counted
    too) and rows."""
    name = urlparse(database_url).path.lstrip("/")
    with psycopg.connect(standby.url(name), autocommit=True) as conn:
        commits, returned, fetched = conn.execute(
            "SELECT xact_commit, tup_returned, tup_fetched FROM pg_stat_database"
            " WHERE datname = current_database()").fetchone()  # fmt: skip
    return {"transactions": commits, "rows_returned": returned, "rows_fetched": fetched,
            "list_reads": {str(k): v for k, v in ANSWERS.items()}}  # fmt: skip


def report_line(r: dict) -> list[str]:
    """bench-nodes' line about the replica (load_report)."""
    if "replica" not in r:
        return []
    rep = r["replica"]
    return [
        "",
        f"Read replica (port {PORT}, a standby streaming from the primary): "
        f"{rep['transactions']:,} transactions and {rep['rows_returned']:,} rows served "
        f"to the run's database (its pg_stat_database; the health looks, one a second "
        f"per web process, included); the lists read meanwhile: {rep['list_reads']}.",
    ]
