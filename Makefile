# Each target bootstraps .venv itself: a fresh machine needs only Python and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SHARED ?= ../shared

.PHONY: demo test test-oldest-lark docs bench fuzz install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The package is installed as a real wheel (not editable): the tests run
# against what users get, grammar files included as package data.
install: $(BIN)/python
	$(BIN)/python -m pip install --quiet ".[test,docs]"
	$(BIN)/python -m pip install --quiet --no-deps --force-reinstall .

# The package alone (and lark), as a user installs it: not the test or docs tools.
demo: $(BIN)/python
	$(BIN)/python -m pip install --quiet --force-reinstall .
	$(BIN)/python -m rfc1738.tools.demo

test: install test-oldest-lark
	$(BIN)/ruff format --check src tests docs/hooks
	$(BIN)/ruff check src tests docs/hooks
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The Lark adapter and its contract with Lark (tests/bnf) against the oldest
# Lark that pyproject.toml allows (lark>=1.2,<2: 1.2.1 is the first 1.2 release
# on PyPI); `make test` runs them against the newest in .venv. A second venv,
# kept between runs; tests/bnf/test_lark_contract.py checks the version is
# inside pyproject's range.
OLDEST_LARK := 1.2.1
OLDEST := .venv-oldest-lark
$(OLDEST)/bin/python:
	$(PYTHON) -m venv $(OLDEST)

test-oldest-lark: $(OLDEST)/bin/python
	$(OLDEST)/bin/python -m pip install --quiet "lark==$(OLDEST_LARK)" pytest hypothesis
	$(OLDEST)/bin/python -m pip install --quiet --no-deps --force-reinstall .
	$(OLDEST)/bin/python -c "import lark; assert lark.__version__ == '$(OLDEST_LARK)', lark.__version__"
	$(OLDEST)/bin/python -m pytest -q -p no:cacheprovider tests/bnf

# The documentation site, into site/: docs/, the docstrings, and a grammar
# reference generated from grammar/ (docs/hooks/grammar_reference.py).
docs: $(BIN)/python
	$(BIN)/python -m pip install --quiet ".[docs]"
	$(BIN)/python -m pip install --quiet --no-deps --force-reinstall .
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) $(OLDEST) build dist site .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Speed figures against urllib.parse and rfc3986 (not part of `make test`).
bench: install
	$(BIN)/python -m pip install --quiet ".[bench]"
	$(BIN)/python tests/benchmarks/bench.py
	$(BIN)/python tests/benchmarks/errors.py
	$(BIN)/python tests/benchmarks/check_memory.py

# Coverage-guided fuzzing of parse/is_valid/fast-vs-reference with atheris, for
# FUZZ_SECONDS (not part of `make test`); crashes are written to build/fuzz/.
FUZZ_SECONDS ?= 60
fuzz: install
	$(BIN)/python -m pip install --quiet atheris
	$(BIN)/python tests/fuzz/fuzz_parse.py -max_total_time=$(FUZZ_SECONDS)
