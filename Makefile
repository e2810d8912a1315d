# claimlab: `make run` sets up and runs every notebook; `make test` sets up and runs the suite.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test lint lab bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet uv
	@test -x $(PY) || uv venv --quiet --python python3 $(VENV)
	uv pip install --quiet --python $(PY) -e ".[dev]"
	@touch $(STAMP)

run: setup
	$(VENV)/bin/claimlab run --output outputs
	$(VENV)/bin/claimlab handouts --from outputs --to outputs/handouts

test: setup
	$(VENV)/bin/python -m pytest -n 2

lint: setup
	$(VENV)/bin/ruff check claimlab tests benchmarks
	$(VENV)/bin/ruff format --check claimlab tests benchmarks

bench: setup
	$(VENV)/bin/python benchmarks/bench_fever.py
	$(VENV)/bin/python benchmarks/bench_ledger.py

lab: setup
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --ip=127.0.0.1

clean:
	rm -rf outputs/*.ipynb outputs/*.json outputs/handouts outputs/screenshots
