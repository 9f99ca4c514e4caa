VENV ?= .venv
PY = $(VENV)/bin/python
STAMP = $(VENV)/.installed

DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/sejmi
REDIS_URL ?= redis://127.0.0.1:6379/0


.PHONY: run demo test bench-engine simulate lint clean

$(STAMP): requirements.txt requirements-bench.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -r requirements.txt -r requirements-bench.txt
	touch $@

# The whole service on embedded defaults: SQLite, the in-memory channel layer and a deadline
# runner thread; DATABASE_URL / REDIS_URL / SEJMI_ALLOW_RIGGED from the environment apply.
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	SEJMI_INPROCESS_RUNNER=1 $(VENV)/bin/uvicorn sejmi.asgi:application \
		--host 127.0.0.1 --port $${PORT:-8000} --no-access-log --ws-per-message-deflate false \
		--timeout-graceful-shutdown 5

# A bot-vs-bot game told in the terminal (LANG=cs for Czech).
demo: $(STAMP)
	$(PY) manage.py demo

# The engine's tests first, with no Django at all; then the rest. Both always run, and a
# failure in either fails the target.
test: $(STAMP)
	@status=0; \
	$(PY) -m pytest tests/engine -p no:django || status=1; \
	DATABASE_URL=$(DATABASE_URL) REDIS_URL=$(REDIS_URL) $(PY) -m pytest --ignore=tests/engine \
		|| status=1; \
	exit $$status

bench-engine: $(STAMP)
	$(PY) -m games.engine.bench

bench-service: $(STAMP)
	$(PY) -m bench.run --write-doc

# `make run`'s one process: idle CPU, and CPU per acknowledged command against the bot.
.PHONY: bench-run
bench-run: $(STAMP)
	$(PY) -m bench.make_run

# A 2,000-event game in a database of its own: replay/?at= over HTTP, verify_game wall time.
.PHONY: bench-tournaments
bench-tournaments: $(STAMP)
	$(PY) -m bench.tournament_pairing

.PHONY: bench-replays
bench-replays: $(STAMP)
	$(PY) -m bench.replays --write-doc

# Issue 32's probes run again on the production shape: one line per probe (docs/RELIABILITY.md).
.PHONY: bench-probes
bench-probes: $(STAMP)
	$(PY) -m bench.scenarios.probes

# From a command's COMMIT to its notification and its Web Push, the followers in their own
# process (`manage.py run_deadlines --only-followers`) as in production (docs/PERFORMANCE.md).
.PHONY: bench-follow
bench-follow: $(STAMP)
	$(PY) -m bench.scenarios.follow_delay $(BENCH_ARGS)

simulate: $(STAMP)
	$(PY) manage.py simulate --games 2000 --players 4 --json

# Lint and types; every step runs, and any failure fails the target: ruff's rules and its
# format, the import contracts, and mypy on the engine and the Django side with django-stubs
# (pyproject's [tool.mypy]; docs/TESTS.md, "Lint and types").
lint: $(STAMP)
	@status=0; \
	$(VENV)/bin/ruff check . || status=1; \
	$(VENV)/bin/ruff format --check . || status=1; \
	PYTHONPATH=. $(VENV)/bin/lint-imports || status=1; \
	PYTHONPATH=. $(VENV)/bin/lint-imports --config bench/importlinter.toml || status=1; \
	$(VENV)/bin/mypy games replays frontend sejmi || status=1; \
	exit $$status

clean:
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
	rm -rf .pytest_cache .hypothesis .ruff_cache staticfiles

# Many games on the real processes (uvicorn workers, Celery worker and beat, `manage.py
# run_deadlines`, PostgreSQL, a Redis of its own on port 6390), then the checks; figures in docs/RELIABILITY.md. BENCH_ARGS adds
# flags, e.g. BENCH_ARGS="--games 50 --duration 60" (python -m bench.load --help).
.PHONY: bench-load bench-faults bench-nodes bench-failover
bench-load: $(STAMP)
	$(PY) -m bench.load --write-doc $(BENCH_ARGS)

# The same under faults: kill -9 of the Celery worker, a Redis restart, kill -9 of a web
# worker, a quarter of the sockets cut.
bench-faults: $(STAMP)
	$(PY) -m bench.load --faults all --write-doc $(BENCH_ARGS)

# Two web nodes behind HAProxy (bench/harness/haproxy.cfg; `apt-get install haproxy`), two Celery
# workers, one beat and one deadline runner: spectators on node a see commands sent through node b.
# PostgreSQL behind PgBouncer (`apt-get install pgbouncer`), the channel layer on two Redis.
bench-nodes: $(STAMP)
	$(PY) -m bench.load --nodes 2 --write-doc $(BENCH_ARGS)

# kill -9 of the PostgreSQL primary (a synchronous standby of its own, HAProxy in front) in the
# middle of games: acknowledged commands lost (must be 0), time without service, audits after.
bench-failover: $(STAMP)
	$(PY) -m bench.failover --write-doc $(BENCH_ARGS)
