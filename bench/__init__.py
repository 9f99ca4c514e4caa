"""Service benchmarks of issue 3 (`make bench-service`): appends, moves over HTTP, fan-out.

Everything runs on loopback against the real PostgreSQL and Redis, in a database of its own
(`sejmi_bench`, dropped and migrated afresh each run) and a Redis database of its own, so test
databases are never touched. Every benchmark is bounded in count and time and stops by itself.
Figures go to the "Service" section of docs/PERFORMANCE.md (`python -m bench.run --write-doc`).
"""
