# Two commands do all set-up on a fresh machine with Python 3.11:
#   make run   - virtual environment, install, play Stonerush in the terminal against bots
#   make test  - install what the tests need, then lint, type check and the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/henge play stonerush --players 4

test: $(TEST_STAMP) lint typecheck pytest

lint: $(TEST_STAMP)
	$(BIN)/ruff check henge tests scripts
	$(BIN)/ruff format --check henge tests scripts

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

pytest: $(TEST_STAMP)
	$(BIN)/python -m pytest -n auto

bench: $(STAMP)
	$(BIN)/henge bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
