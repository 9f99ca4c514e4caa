"""The service's benchmarks, on loopback against the real PostgreSQL and Redis, in databases and
Redis databases of their own, so test databases are never touched. Every benchmark is bounded
in count and time and stops by itself; figures go to docs/PERFORMANCE.md.

The house, by role (the arrows point down only; tests/bench/test_bench_house.py and
bench/importlinter.toml keep it so):

- entry points: `python -m bench.run` (make bench-service), `bench.load` (bench-load, -faults,
  -nodes), `bench.web`, `bench.replays`, `bench.make_run` (make bench-run), `bench.failover`;
- reports/: the figures as Markdown, and the one writer of docs/PERFORMANCE.md;
- scenarios/: what each benchmark does;
- clients/: what talks to the service as its users do;
- harness/: where it runs (databases, Redis, servers, bench-load's processes, faults).

Nothing here reaches into a private name of the product (games/, replays/, frontend/).
"""
