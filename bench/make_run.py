"""`python -m bench.make_run`: runs bench/scenarios/make_run.py (`--help` says what it measures)."""

from bench.scenarios.make_run import main

if __name__ == "__main__":
    main()
