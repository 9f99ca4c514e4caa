VENV ?= .venv
PY = $(VENV)/bin/python
STAMP = $(VENV)/.installed

DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/sejmi
REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test bench-engine simulate lint clean

$(STAMP): requirements.txt requirements-bench.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -r requirements.txt -r requirements-bench.txt
	touch $@

run: $(STAMP)
	$(PY) manage.py demo

test: $(STAMP)
	DATABASE_URL=$(DATABASE_URL) REDIS_URL=$(REDIS_URL) $(PY) -m pytest

bench-engine: $(STAMP)
	$(PY) -m games.engine.bench

simulate: $(STAMP)
	$(PY) manage.py simulate --games 2000 --players 4 --json

lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
	rm -rf .pytest_cache .hypothesis .ruff_cache staticfiles
