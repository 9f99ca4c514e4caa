"""Where and on what the benchmarks run: the bench database and Redis, the servers as
docker-compose.yml starts them, bench-load's stack of processes (and its scale-out, a
PostgreSQL pair, a read replica), the faults injected into them, and their CPU readings. The
generic process handling (free ports, process groups, waiting for a server) is
tests/support/processes.py, shared with the tests."""
