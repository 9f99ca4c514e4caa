"""The databases of the settings (sejmi.settings imports them): the primary (DATABASE_URL), the
owner's alias for migrations, the pool, the service's role, PgBouncer's limits and the read
replicas. Apart from sejmi/settings.py so that one file holds one idea each."""

import copy
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from sejmi.env import env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
    ),
}
# The owner of the tables migrates them and grants the service its rights; the service itself
# may not UPDATE, DELETE or TRUNCATE game events, nor switch their triggers off (docs/PRODUCTION.md,
# "Running in production"). Tests see one database: the same name makes "owner" a mirror.
_owner_url = os.environ.get("MIGRATE_DATABASE_URL")
DATABASES["owner"] = (
    dj_database_url.parse(_owner_url) if _owner_url else copy.deepcopy(DATABASES["default"])
)
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Under ASGI every sync request runs in a new thread: persistent per-thread connections
    # pile up until PostgreSQL refuses more (seen in bench-service). Pool per process instead.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # A request that finds the pool exhausted waits at most SEJMI_DB_POOL_TIMEOUT seconds, and
    # at most SEJMI_DB_POOL_MAX_WAITING requests wait at once (the rest are refused at once):
    # either way the answer is 503 `unavailable` with Retry-After (games.api.handlers), not a
    # 500 after a long wait. A busy service says so early; the client retries.
    # Parameters sent apart from the query (psycopg's server-side binding) instead of quoted
    # into it by the client: the quoting was 8 % of the web workers' CPU in bench-load. Each
    # statement goes as the unnamed one (Parse, Bind, Execute, Sync in one write): Django
    # leaves psycopg's prepare_threshold at None, so no named prepared statement outlives its
    # transaction, and the same binding works behind PgBouncer in transaction mode.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("SEJMI_DB_POOL_MAX", "8")),
        "timeout": float(os.environ.get("SEJMI_DB_POOL_TIMEOUT", "2")),
        "max_waiting": int(os.environ.get("SEJMI_DB_POOL_MAX_WAITING", "64")),
    }
# SEJMI_DB_ROLE: connect with DATABASE_URL's user, then act as this role (SET ROLE on every new
# connection). The test suite runs the service so, as the role `grant_service_role` makes, so
# a statement that needs a right production's service lacks fails in `make test` (issue 21);
# the "owner" alias (migrations, grants) keeps the login user.
# (Set at connection start, `-c role=`: Django's own `assume_role` runs a query from inside the
# pool's connect callback, which waits on the pool itself and times out.)
if os.environ.get("SEJMI_DB_ROLE") and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["OPTIONS"]["options"] = f"-c role={os.environ['SEJMI_DB_ROLE']}"
# SEJMI_PGBOUNCER=1: DATABASE_URL (and MIGRATE_DATABASE_URL, when it points there too) is a
# PgBouncer in transaction mode, which gives each transaction whichever server connection is
# free: nothing may live on a connection past its transaction (docs/PRODUCTION.md, PgBouncer).
SEJMI_PGBOUNCER = env_bool("SEJMI_PGBOUNCER", False)
if SEJMI_PGBOUNCER and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    if os.environ.get("SEJMI_DB_ROLE"):
        # A startup option: PgBouncer 1.18 refuses `options`, and a server connection's role
        # would serve every client it is handed to. Log in as the role instead.
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("SEJMI_DB_ROLE does not work behind PgBouncer: connect as "
                                   "that role (DATABASE_URL's user) instead")  # fmt: skip
    for _alias in [a for a, d in DATABASES.items() if d["ENGINE"].endswith("postgresql")]:
        # No named prepared statements (psycopg's default is 5 runs; Django's None, kept so
        # on purpose): one prepared on a server connection is missing on the next, or
        # collides with another client's of the same name. No server-side cursors: a WITH
        # HOLD cursor stays on the server connection the next FETCH may not get.
        DATABASES[_alias].setdefault("OPTIONS", {})["prepare_threshold"] = None
        DATABASES[_alias]["DISABLE_SERVER_SIDE_CURSORS"] = True
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # `make run`: the web threads and the deadline runner write concurrently; wait, don't fail.
    # Write-ahead log, synced at its checkpoints (SQLite's advice for WAL): a commit appends to
    # the log with no sync of its own, where the rollback journal made, synced and deleted a
    # file per commit (a third of `make run`'s CPU per move, issue 31). Readers no longer wait
    # for the writer. An application crash loses nothing; a power cut may take back the last
    # commits, never corrupt the file (the production database is PostgreSQL: docs/CHOICES.md).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20, "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }  # fmt: skip
    # Each thread keeps its connection: the web's views run on one thread (sejmi.handlers),
    # the runner and the socket's database calls on one each.
    DATABASES["default"]["CONN_MAX_AGE"] = None
# DATABASE_REPLICA_URLS: streaming replicas of the primary (aliases replica1, replica2, ...)
# for the reads that may lag (games.core.replicas; docs/PRODUCTION.md, "Read replicas"): each
# pooled and acting as the service's role like the primary; in tests a mirror of it.
DATABASE_REPLICAS: list[str] = []
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS", ""), start=1):
    if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise ImproperlyConfigured("DATABASE_REPLICA_URLS needs a PostgreSQL DATABASE_URL")
    _replica = dj_database_url.parse(_url)
    _replica["OPTIONS"] = {**copy.deepcopy(DATABASES["default"]["OPTIONS"]),
                           **_replica.get("OPTIONS", {})}  # fmt: skip
    DATABASES[f"replica{_number}"] = {**_replica, "CONN_MAX_AGE": 0,
                                      "TEST": {"MIRROR": "default"}}  # fmt: skip
    DATABASE_REPLICAS.append(f"replica{_number}")
DATABASE_ROUTERS = ["games.core.replicas.router.ReplicaRouter"]
# A replica further behind the primary than this is skipped; replicas are looked at once a
# second per process at most (games.core.replicas.health).
SEJMI_REPLICA_MAX_LAG_S = float(os.environ.get("SEJMI_REPLICA_MAX_LAG_S", "5"))
SEJMI_REPLICA_CHECK_S = float(os.environ.get("SEJMI_REPLICA_CHECK_S", "1"))
