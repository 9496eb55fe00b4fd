# Entry points: `make run` (the main job), `make test` (the test suite), `make lint` (ruff, mypy, import-linter),
# `make docs` (the documentation site).
# Each creates .venv with everything the project needs when it is missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-timing results lint docs setup bytecode clean

$(BIN)/eternity: pyproject.toml setup.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[all]'
	touch $(BIN)/eternity

# Byte-compiled sources: start-up reads them even where PYTHONDONTWRITEBYTECODE keeps Python from writing them.
bytecode: $(BIN)/eternity
	$(BIN)/python -m compileall -q puzzles solving baseline cpmodel encoders experiments eternity > /dev/null

setup: $(BIN)/eternity bytecode

run: setup
	$(BIN)/eternity run experiments/configs/quick.toml --db results/quick.sqlite
	$(BIN)/eternity table results/quick.sqlite --format md

# On every core (pytest-xdist), a test file a worker: a file's fixtures (a Dask cluster) are made once.
test: setup
	$(BIN)/python -m pytest -n auto --dist loadfile

# The checks that a limit holds within a wall-clock margin (marker `timing`): apart, as their margin depends on the machine.
test-timing: setup
	$(BIN)/python -m pytest -m timing

# Every results page held to its committed runs and to the commands it names, the minutes-long checks (marker
# `slow`) included: a figure that its run or its command no longer gives fails here.
results: setup
	$(BIN)/python -m pytest -n auto --dist loadfile -m 'slow or not slow' tests/test_results_pages.py $(wildcard tests/test_*_page.py)

# The habits of the field: lint and format (ruff), types (mypy), the layers and rooms (import-linter), and the house's
# 600 lines a module at most.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python tests/helpers/module_sizes.py 600

# The documentation site, into build/site/; strict: a broken link, a missing page, a reference page that the
# code cannot write (an option without help) or any warning of the reference's parser fails the build (no --quiet:
# it would hide the warnings from strict mode too).
docs: setup
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) results
