"""`python -m bench.failover`: runs bench/scenarios/failover.py (`--help` says what it measures)."""

from bench.scenarios.failover import main

if __name__ == "__main__":
    main()
