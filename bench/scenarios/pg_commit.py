"""The bare PostgreSQL commit, for reading bench-load's figures: 300 INSERT + COMMIT in a row
over loopback into a temporary table, p50 / p99 / max. Printed before each bench-load run of
docs/RELIABILITY.md, with the load average, so a slow run can be told from a slow database.

    python -m bench.scenarios.pg_commit [postgres://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import os
import sys
import time

import psycopg

N = 300


def main(url: str) -> str:
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TEMP TABLE bench_commit (x int)")
        conn.commit()
        ms = []
        for i in range(N):
            started = time.perf_counter()
            conn.execute("INSERT INTO bench_commit VALUES (%s)", (i,))
            conn.commit()
            ms.append((time.perf_counter() - started) * 1000)
    ms.sort()
    return (f"bare PostgreSQL INSERT+COMMIT over loopback: p50 {ms[N // 2]:.2f} ms, "
            f"p99 {ms[N * 99 // 100]:.2f} ms, max {ms[-1]:.2f} ms ({N}); "
            f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip


if __name__ == "__main__":
    print(main(sys.argv[1] if len(sys.argv) > 1 else "postgres://postgres@127.0.0.1:5432/postgres"))
