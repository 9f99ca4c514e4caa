"""Which replicas may serve a read now: up, still a standby, and no further behind the
primary than settings.SEJMI_REPLICA_MAX_LAG_S (5 s).

One look every SEJMI_REPLICA_CHECK_S (1 s) per process at most, in a thread of its own, started
by the first read that finds the last look too old: no request waits for a look. A look reads
the primary's WAL position and each replica's replayed position, on connections of its own
(one to the primary and one per replica, per process). A replica is fresh when it has replayed
everything the primary had written SEJMI_REPLICA_MAX_LAG_S ago — measured by this process's own
samples of the primary, so an idle primary (nothing to replay) never makes its replicas look
late, as the time of the last replayed commit would. A replica that does not answer, is no
longer in recovery (promoted) or is behind is skipped; so is every replica while the primary
does not answer, and any judgment older than three looks (a look stuck on a dead network must
not keep a replica in use). A read that fails on a replica marks it down at once
(games.core.replicas.reads), until the next look.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections import deque

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

log = logging.getLogger(__name__)

PRIMARY_SQL = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"
REPLICA_SQL = ("SELECT pg_is_in_recovery(),"
               " pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint")  # fmt: skip
CONNECT_TIMEOUT_S = 2

_lock = threading.Lock()  # held by the one look running
_samples: deque[tuple[float, int]] = deque()  # (monotonic time, the primary's WAL position)
_fresh: dict[str, float] = {}  # replica alias -> when a look last found it fresh
_last_look = float("-inf")
_conns: dict[str, psycopg.Connection] = {}
_seen_stale: set[str] = set()  # replicas whose skipping was told (once, not every second)


def pick() -> str | None:
    """A fresh replica's alias (any one of them), or None: read on the primary. Starts a look
    when the last is due."""
    now = time.monotonic()
    every = settings.SEJMI_REPLICA_CHECK_S
    if now - _last_look >= every and _lock.acquire(blocking=False):
        threading.Thread(target=_look_then_release, name="sejmi-replica-look",
                         daemon=True).start()  # fmt: skip
    fresh = [alias for alias, at in list(_fresh.items())
             if now - at < 3 * every and alias in settings.DATABASE_REPLICAS]  # fmt: skip
    return random.choice(fresh) if fresh else None


def look_now() -> dict[str, bool]:
    """Look at once (waiting for a look under way); each replica: whether it is fresh."""
    with _lock:
        _look()
    return {alias: alias in _fresh for alias in settings.DATABASE_REPLICAS}


def mark_down(alias: str | None, error: BaseException) -> None:
    """A read on `alias` failed: skip it until a look finds it fresh again."""
    if alias is not None and _fresh.pop(alias, None) is not None:
        log.warning("replica %s skipped until the next look: %s", alias, str(error).strip())


def _look_then_release() -> None:
    try:
        _look()
    except Exception:  # a thread's exception would only print; keep one line
        log.exception("replica look failed")
    finally:
        _lock.release()


def _look() -> None:
    global _last_look
    _last_look = now = time.monotonic()
    try:
        (primary,) = _ask(DEFAULT_DB_ALIAS, PRIMARY_SQL)
    except psycopg.Error:
        _fresh.clear()  # nothing to measure against: every read on the primary (or its error)
        return
    _samples.append((now, primary))
    while _samples[0][0] < now - settings.SEJMI_REPLICA_MAX_LAG_S:
        _samples.popleft()
    # The primary's oldest position at most the bound ago: positions only grow, so a replica
    # that has replayed it lags less than the bound (a little less between looks: stricter).
    bar = _samples[0][1]
    for alias in settings.DATABASE_REPLICAS:
        _judge(alias, bar)


def _judge(alias: str, bar: int) -> None:
    try:
        recovering, replayed = _ask(alias, REPLICA_SQL)
    except psycopg.Error as error:
        why = f"does not answer ({str(error).strip()})"
    else:
        if recovering and replayed is not None and replayed >= bar:
            if _fresh.get(alias) is None:
                log.warning("replica %s fresh: serving reads that may lag", alias)
            _fresh[alias] = time.monotonic()
            return
        why = "is behind the bound" if recovering else "is not a standby (promoted?)"
    if _fresh.pop(alias, None) is not None or alias not in _seen_stale:
        log.warning("replica %s %s: its reads go to the primary", alias, why)
        _seen_stale.add(alias)


def _ask(alias: str, sql: str) -> tuple:
    conn = _conns.get(alias)
    if conn is None or conn.closed:
        conn = _conns[alias] = _connect(alias)
    try:
        row = conn.execute(sql).fetchone()
    except psycopg.Error:
        conn.close()
        raise
    assert row is not None, sql  # each question is a SELECT of values: one row
    return row


def _connect(alias: str) -> psycopg.Connection:
    """As Django connects to `alias` (its user, role, database), with short timeouts: a look
    gives up on a host that does not answer."""
    params = connections[alias].get_connection_params()
    params.pop("cursor_factory", None)
    return psycopg.connect(**params, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                           tcp_user_timeout=CONNECT_TIMEOUT_S * 1000)  # fmt: skip


def forget() -> None:
    """Close the looks' connections and forget every judgment (the tests, between cases)."""
    with _lock:
        for conn in _conns.values():
            conn.close()
        _conns.clear()
        _samples.clear()
        _fresh.clear()


def _after_fork() -> None:
    """A forked child (Celery's pool) starts with no look under way and no connection (its
    parent's sockets stay the parent's: dropped, not closed)."""
    global _lock, _last_look
    _lock = threading.Lock()
    _last_look = float("-inf")
    _samples.clear()
    _fresh.clear()
    _conns.clear()


os.register_at_fork(after_in_child=_after_fork)
