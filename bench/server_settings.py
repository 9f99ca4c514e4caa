"""Server settings for the benchmarks: sejmi.settings, with one knob to measure a proposed fix.

BENCH_DB_POOL=1 runs the ASGI server the way Django's docs ask for ASGI ("persistent
connections should be disabled; use the backend's connection pooling"): CONN_MAX_AGE 0 and a
psycopg pool per process (psycopg_pool comes with requirements-bench.txt: eventsourcing's
postgres extra requires psycopg[pool]). Unset, these are exactly sejmi.settings.
"""

import os

from sejmi.settings import *  # noqa: F403
from sejmi.settings import DATABASES

if os.environ.get("BENCH_DB_POOL") == "1":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": 8,
        "timeout": 10,
    }
