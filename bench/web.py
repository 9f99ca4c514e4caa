"""`python -m bench.web`: runs bench/scenarios/web.py (`--help` says what it measures)."""

from bench.scenarios.web import main

if __name__ == "__main__":
    main()
