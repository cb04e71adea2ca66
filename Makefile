# cardlab: the two commands. Each sets itself up from nothing and is idempotent.
#   make report   strategy reports for every game (reports/<game>/)
#   make test     the whole test suite, notebooks included
#   make bench    throughput figures and ratios (benchmarks/)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# The stamp files record what was installed; they are remade only when pyproject.toml changes.
BASE_STAMP := $(VENV)/.cardlab-base
DEV_STAMP  := $(VENV)/.cardlab-dev
BENCH_STAMP := $(VENV)/.cardlab-bench

.PHONY: report test lint bench test-slow clean-venv

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(BASE_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml $(BASE_STAMP)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(BENCH_STAMP): pyproject.toml $(BASE_STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	touch $@

report: $(BASE_STAMP)
	$(PY) -m analysis report --all

# one worker process per core, each test file in one worker (its kernels compile once, in parallel with
# the other files'), the files in the order tests/conftest.py gives (the heaviest first: docs/performance.md);
# a single test or file runs as usual with plain pytest
test: $(DEV_STAMP) lint
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder

# lint and format check over the tree (ruff), type check of analysis/ (mypy; its files in pyproject.toml)
lint: $(DEV_STAMP)
	$(PY) -m ruff check --quiet .
	$(PY) -m ruff format --check --quiet .
	$(PY) -m mypy

test-slow: $(DEV_STAMP)
	$(PY) -m pytest -m slow

bench: $(BENCH_STAMP)
	$(PY) benchmarks/run.py

clean-venv:
	rm -rf $(VENV)
