"""The database from websocket code: `socket_db(func)` is Channels' database_sync_to_async on
a small pool of threads of its own. Channels' default (thread-sensitive) runs every database
call of a web process on one thread: all its sockets' commands, reads and presence beats
queued behind each other, and a command waiting for a busy game's row lock held every other
socket of the process (bench-load at 200 games). Each call here is self-contained (its own
transaction, its connection back to the pool when it ends), so none needs another's thread.

The pool has half the process's PostgreSQL connections (games.core.db_pool), leaving the rest to
HTTP requests; with SQLite (`make run`) one thread, as before."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync

from games.core.db_pool import half_the_pool

EXECUTOR = ThreadPoolExecutor(max_workers=half_the_pool(), thread_name_prefix="socket-db")


def socket_db(func):
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=EXECUTOR)
