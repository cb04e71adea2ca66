# cardlab: the two commands. Each sets itself up from nothing and is idempotent.
#   make report   strategy reports for every game (reports/<game>/)
#   make test     the whole test suite, notebooks included
#   make bench    throughput figures and ratios (benchmarks/)
#   make serve    the advisor and the review in a browser (cardlab serve, http://127.0.0.1:8765/)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# The stamp files record what was installed; they are remade only when pyproject.toml changes.
BASE_STAMP := $(VENV)/.cardlab-base
DEV_STAMP  := $(VENV)/.cardlab-dev
BENCH_STAMP := $(VENV)/.cardlab-bench
SERVE_STAMP := $(VENV)/.cardlab-serve

.PHONY: report test lint bench test-slow clean-venv serve browser

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

$(SERVE_STAMP): pyproject.toml $(BASE_STAMP)
	$(PY) -m pip install --quiet -e '.[serve]'
	touch $@

report: $(BASE_STAMP)
	$(PY) -m analysis report --all

# one worker process per core, each test file in one worker (its kernels compile once, in parallel with
# the other files'), the files in the order tests/conftest.py gives (the heaviest first: docs/performance.md);
# a single test or file runs as usual with plain pytest
test: $(DEV_STAMP) lint browser
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder

# lint and format check over the tree (ruff), type check of analysis/ (mypy; its files in pyproject.toml)
lint: $(DEV_STAMP)
	$(PY) -m ruff check --quiet .
	$(PY) -m ruff format --check --quiet .
	$(PY) -m mypy

# the page's browser tests drive Debian's Chromium (a test tool's own browser download is not possible here):
# installed when make runs as root (CI does); otherwise one line says so and those tests are skipped
browser:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make: installing Debian's chromium for the page's browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1) \
	    || echo "make: could not install chromium: the page's browser tests will be skipped"; \
	else echo "make: no chromium and not root: the page's browser tests will be skipped (apt-get install chromium)"; fi

serve: $(SERVE_STAMP)
	$(PY) -m analysis serve

test-slow: $(DEV_STAMP)
	$(PY) -m pytest -m slow

bench: $(BENCH_STAMP)
	$(PY) benchmarks/run.py

clean-venv:
	rm -rf $(VENV)
