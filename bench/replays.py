"""`python -m bench.replays`: runs bench/scenarios/replays.py (`--help` says what it measures)."""

from bench.scenarios.replays import main

if __name__ == "__main__":
    main()
