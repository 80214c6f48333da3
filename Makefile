# Each target bootstraps .venv itself: a fresh machine needs only Python and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SHARED ?= ../shared

.PHONY: demo test test-suite test-suite-first test-suite-second test-oldest-lark test-oldest-extras test-pythons wheel docs bench fuzz install clean

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

# The whole suite on .venv's Python (in two runs), and a subset on the other
# Pythons the package admits (test-pythons), two runs at a time (two cores),
# each run's output printed whole when it ends.
test: install
	$(BIN)/ruff format --check src tests docs/hooks
	$(BIN)/ruff check src tests docs/hooks
	$(BIN)/mypy
	$(MAKE) --no-print-directory -j2 --output-sync=target INSTALLED=1 \
		test-suite-first test-suite-second test-oldest-lark test-oldest-extras test-pythons

# The whole suite as two runs of pytest, so that make can run the shorter one
# and the other Pythons' beside the longer: one run took as long as all the
# rest. The second holds the engines, the extras, the docs site, the fuzz,
# inspection and security tests (a Spark session, Chromium): about 175 of the
# suite's 490 s on one core, which leaves the two slots about even.
# INSTALLED=1: `make test` has just installed .venv.
SUITE_SECOND := tests/columns tests/engines tests/extras tests/site tests/fuzz \
	tests/inspection tests/security
test-suite: test-suite-first test-suite-second

test-suite-first: $(if $(INSTALLED),,install)
	$(BIN)/python -m pytest $(addprefix --ignore=,$(SUITE_SECOND))

test-suite-second: $(if $(INSTALLED),,install)
	$(BIN)/python -m pytest $(SUITE_SECOND)

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

# The DuckDB and Polars backends, the bulk API and `check` on its engines against
# the oldest versions the duckdb and polars extras admit: each lower bound in
# pyproject.toml (`duckdb>=1.4`, ...) installed as `==` (1.4 is 1.4.0), so the
# versions are read from the one place that declares them. A venv of its own,
# kept between runs; pip fails if a pinned version cannot be had.
OLDEST_EXTRAS := .venv-oldest-extras
OLDEST_EXTRAS_TESTS := tests/columns tests/engines/test_duckdb.py tests/engines/test_polars.py \
	tests/cli/test_check_engines.py
$(OLDEST_EXTRAS)/bin/python:
	$(PYTHON) -m venv $(OLDEST_EXTRAS)

test-oldest-extras: $(OLDEST_EXTRAS)/bin/python wheel
	$(OLDEST_EXTRAS)/bin/python -m pip install --quiet pytest hypothesis $(WHEEL_DIR)/rfc1738-*.whl \
		$$($(OLDEST_EXTRAS)/bin/python -c \
		'import tomllib; extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]; \
		print(" ".join(sorted({r.replace(">=", "==") for name in ("duckdb", "polars") for r in extras[name]})))')
	$(OLDEST_EXTRAS)/bin/python -m pip install --quiet --no-deps --force-reinstall $(WHEEL_DIR)/rfc1738-*.whl
	@echo "test-oldest-extras: $$($(OLDEST_EXTRAS)/bin/python -m pip list 2>/dev/null | grep -iE '^(duckdb|polars|pyarrow|numpy) ' | tr -s ' ' | paste -sd ',')"
	$(OLDEST_EXTRAS)/bin/python -m pytest -q -p no:cacheprovider $(OLDEST_EXTRAS_TESTS)

# The documentation site, into site/: docs/, the docstrings, and a grammar
# reference generated from grammar/ (docs/hooks/grammar_reference.py).
docs: $(BIN)/python
	$(BIN)/python -m pip install --quiet ".[docs]"
	$(BIN)/python -m pip install --quiet --no-deps --force-reinstall .
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) $(OLDEST) $(OLDEST_EXTRAS) $(addprefix .venv-,$(OTHER_PYTHONS)) build dist site .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Speed figures against urllib.parse and rfc3986 (not part of `make test`).
bench: install
	$(BIN)/python -m pip install --quiet ".[bench]"
	$(BIN)/python tests/benchmarks/bench.py
	$(BIN)/python tests/benchmarks/errors.py
	$(BIN)/python tests/benchmarks/check_memory.py
	$(BIN)/python tests/benchmarks/bench_columns.py
	$(BIN)/python tests/benchmarks/bench_check.py
	$(BIN)/python tests/benchmarks/bench_spark.py

# The parser, object and command-line tests on the other Pythons that
# requires-python (>=3.11) admits: Debian's own python3 (3.11.2 on Debian 12,
# where re misreads possessive repetitions of groups: runtime/possessive.py), and
# pyenv's newest 3.12 and 3.13. Each runs in a venv of its own, kept between
# runs (.venv-debian, .venv-3.12, .venv-3.13), with the wheel .venv builds,
# pytest, hypothesis and the diagrams extra; an interpreter that is not there
# is skipped with a line that says so. Another one: make test-python-NAME
# PYTHON_NAME=/path/to/python3.
PYENV_ROOT ?= $(HOME)/.pyenv
PYTHON_debian ?= /usr/bin/python3
PYTHON_3.12 ?= $(lastword $(sort $(wildcard $(PYENV_ROOT)/versions/3.12.*/bin/python3)))
PYTHON_3.13 ?= $(lastword $(sort $(wildcard $(PYENV_ROOT)/versions/3.13.*/bin/python3)))
OTHER_PYTHONS := debian 3.12 3.13
# What can differ between interpreters: the regular-expression engine (the
# grammar's accept/reject tables, the parsers' agreement, possessive forms, the
# linear matcher), threads, the objects, the command line. The tests of files,
# caches, limits, timings, docs pages and generated modules run on .venv's
# Python only, and the property tests draw half their examples on the others
# (tests/budget.py), to keep `make test` within 10 minutes on 2 cores.
OTHER_SHARE := 0.5
OTHER_TESTS := tests/grammar tests/parsers tests/urls tests/cli
OTHER_IGNORED := $(addprefix --ignore=tests/,\
	parsers/test_linear_time.py parsers/test_tables_cache.py parsers/test_cache_checks.py \
	parsers/test_reference_bounds.py parsers/test_limits.py \
	cli/test_docs.py cli/test_grammar.py cli/test_generate.py cli/test_export.py \
	urls/test_records.py urls/test_record_code.py urls/test_grammar_checks.py urls/test_docs.py)
WHEEL_DIR := build/wheel

test-pythons: $(addprefix test-python-,$(OTHER_PYTHONS))

wheel: $(BIN)/python
	rm -rf $(WHEEL_DIR)
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL_DIR) .

test-python-%: wheel
	@if [ -z "$(PYTHON_$*)" ] || [ ! -x "$(PYTHON_$*)" ]; then \
		echo "test-python-$*: SKIPPED: no Python $* here (PYTHON_$*='$(PYTHON_$*)')"; exit 0; fi; \
	set -e; venv=.venv-$*; wheel=$$(echo $(WHEEL_DIR)/rfc1738-*.whl); \
	[ -x $$venv/bin/python ] || "$(PYTHON_$*)" -m venv $$venv; \
	$$venv/bin/python -m pip install --quiet pytest hypothesis "$$wheel[diagrams]"; \
	$$venv/bin/python -m pip install --quiet --no-deps --force-reinstall "$$wheel"; \
	echo "test-python-$*: $$($$venv/bin/python -c 'import sys; print(sys.executable, sys.version)')"; \
	RFC1738_TEST_SHARE=$(OTHER_SHARE) $$venv/bin/python -m pytest -q -p no:cacheprovider \
		$(OTHER_TESTS) $(OTHER_IGNORED)

# Coverage-guided fuzzing of parse/is_valid/fast-vs-reference with atheris, for
# FUZZ_SECONDS with the shipped grammar, then as long with an edited one
# (tests/fuzz/edited.py); not part of `make test`; crashes are written to build/fuzz/.
FUZZ_SECONDS ?= 60
fuzz: install
	$(BIN)/python -m pip install --quiet atheris
	$(BIN)/python tests/fuzz/fuzz_parse.py -max_total_time=$(FUZZ_SECONDS)
	RFC1738_FUZZ_GRAMMAR=edited $(BIN)/python tests/fuzz/fuzz_parse.py -max_total_time=$(FUZZ_SECONDS)
