# Two commands do all set-up on a fresh machine with Python 3.11:
#   make run   - virtual environment, install, serve the web app (SQLite file henge.db) and print its address
#   make test  - install what the tests need (a C compiler, Chromium and PostgreSQL through apt as root), then
#                lint, type check, import contracts, dependency check and the whole suite on the compiled engine
#                (slowest tests listed at the end), and the conformance suite and golden games on the pure path
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test quick compiler browser postgres lint typecheck contracts deps pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installing compiles the engine (setup.py, Cython; both cores): a C compiler and Python's headers
# come first. Without them the install still works, on the slower pure-Python path, and says so.
# The declarations (.pxd) beside them are sources too.
COMPILED_SOURCES = $(shell $(PYTHON) -c 'import runpy; print(" ".join(runpy.run_path("henge/compiled.py")["COMPILED"]))') \
	$(wildcard henge/*/*.pxd henge/*/*/*.pxd)

$(STAMP): pyproject.toml setup.py henge/compiled.py $(COMPILED_SOURCES) | compiler $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml setup.py henge/compiled.py $(COMPILED_SOURCES) | compiler $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

PY_INCLUDE = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')

compiler:
	@if ! command -v cc >/dev/null || [ ! -f "$(PY_INCLUDE)/Python.h" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc python3-dev; \
		else \
			echo "henge compiles its engine with a C compiler and Python's headers: run 'apt-get install gcc python3-dev' as root (without them it runs pure Python, slower)" >&2; \
		fi; \
	fi

run: $(STAMP)
	$(BIN)/henge serve

test: compiler browser postgres $(TEST_STAMP) lint typecheck contracts deps pytest

# The suite without the tests marked slow (whole games in a browser, long playouts): a minute or two.
quick: $(TEST_STAMP) lint typecheck contracts deps
	$(BIN)/python -m pytest -n auto -m 'not slow'

# The browser tests drive Debian's Chromium (Playwright cannot download a browser here).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
		else \
			echo "the browser tests need /usr/bin/chromium: run 'apt-get install chromium' as root" >&2; exit 1; \
		fi; \
	fi

# The PostgreSQL test runs against a throwaway cluster that the tests start with Debian's server programs
# (under /usr/lib/postgresql/VERSION/bin, not on PATH).
postgres:
	@if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
		else \
			echo "the PostgreSQL test needs initdb and pg_ctl: run 'apt-get install postgresql' as root" >&2; exit 1; \
		fi; \
	fi

lint: $(TEST_STAMP)
	$(BIN)/ruff check henge tests scripts examples
	$(BIN)/ruff format --check henge tests scripts examples

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

# Which package may import which: the contracts in pyproject.toml ([tool.importlinter]).
contracts: $(TEST_STAMP)
	$(BIN)/lint-imports --no-cache

# Every declared dependency is used and every import is declared ([tool.deptry]).
deps: $(TEST_STAMP)
	$(BIN)/deptry .

pytest: $(TEST_STAMP) browser postgres
	HENGE_BROWSER_REQUIRED=1 HENGE_POSTGRES_REQUIRED=1 HENGE_COMPILED_REQUIRED=1 $(BIN)/python -m pytest -n auto --durations=15
	@echo "The pure-Python path (HENGE_PURE=1): the conformance suite, the golden games, clones and pickles"
	HENGE_PURE=1 $(BIN)/python -m pytest -n auto -q tests/test_conformance.py tests/test_golden.py tests/test_clone.py tests/test_trail.py

bench: $(STAMP)
	$(BIN)/henge bench

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .import_linter_cache test-artifacts
	find henge -name '*.so' -delete -o -name '*.c' -delete
