# Two entry points for a fresh machine (see README): `make play` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: play test lint screenshots catalog clean

$(BIN)/poissonnier: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## play: set up and start a solo game against 3 bots
play: $(BIN)/poissonnier
	$(BIN)/poissonnier

## test: set up, lint, type-check and run the whole test suite
test: $(BIN)/poissonnier lint
	$(BIN)/python -m pytest -q

lint: $(BIN)/poissonnier
	$(BIN)/ruff check poissonnier_tui net tests scripts
	$(BIN)/mypy

## screenshots: regenerate screenshots/*.svg from the real app
screenshots: $(BIN)/poissonnier
	$(BIN)/python scripts/screenshots.py

## catalog: extract the marked strings, update the .po files, compile the .mo files
catalog: $(BIN)/poissonnier
	$(BIN)/python scripts/catalog.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
