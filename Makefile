# claimlab: `make run` sets up and runs every notebook; `make test` sets up and runs the suite.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Debian packages: chromium (PDF handouts, browser tests), poppler-utils (PDF checks),
# libjs-mathjax (offline maths in handouts), fonts for Thai, Korean and emoji (fonts-symbola:
# emoji in outline, which figures can draw; a colour bitmap emoji font only reaches HTML)
DEBS := chromium poppler-utils libjs-mathjax fonts-noto-core fonts-noto-mono fonts-noto-color-emoji fonts-thai-tlwg fonts-nanum fonts-symbola

.PHONY: setup system run test test-fast docs lint lab bench mutation clean

setup: system $(STAMP)

system:
	@missing=""; \
	if command -v dpkg-query >/dev/null 2>&1; then \
	  for p in $(DEBS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	  done; \
	elif ! command -v chromium >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then \
	  missing="$(DEBS)"; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian packages:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "please install the Debian packages:$$missing (PDF handouts and browser tests need them)" >&2; \
	  fi; \
	fi

# Bytecode is compiled once here: with PYTHONDONTWRITEBYTECODE set (as on CI machines) Python
# would otherwise recompile pandas and matplotlib from source in every kernel, test and command
# (importing pandas: about 1.7 s without, 0.5 s with)
$(STAMP): pyproject.toml Makefile
	@echo "setup 1/3: the virtual environment in $(VENV)"
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet uv
	@test -x $(PY) || uv venv --quiet --python python3 $(VENV)
	@echo "setup 2/3: installing claimlab and its dependencies (the first time: about a minute)"
	@uv pip install --quiet --python $(PY) -e ".[dev]"
	@echo "setup 3/3: compiling bytecode once (about half a minute)"
	@$(PY) -m compileall -q -j 0 $$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') claimlab >/dev/null
	@touch $(STAMP)
	@echo "setup done"

run: setup
	$(VENV)/bin/claimlab run --output outputs
	$(VENV)/bin/claimlab handouts --from outputs --to outputs/handouts

# the suite writes bytecode even where PYTHONDONTWRITEBYTECODE is set (the libraries and claimlab
# were compiled by setup): pytest keeps the test modules it rewrote for its assertion messages in
# tests/**/__pycache__, and each worker collects in about 4.7 s instead of 7.4 s on the next run
PYTEST := PYTHONDONTWRITEBYTECODE= $(VENV)/bin/python -m pytest

test: setup
	$(PYTEST) -n 2

# the quick tier: unit, property and notebook-level tests (the first point of each notebook
# test's parameter grid); no real use (browser, install, the real data, a journey through several
# commands), no hostile level, no long group, no scale case (markers browser, install, realdata,
# journey, hostile, long, slow and grid)
test-fast: setup
	$(PYTEST) -n 2 -m "not slow and not browser and not install and not long and not grid and not realdata and not journey and not hostile"

# the documentation site, offline, into site/ (docs/contributing.md); its gallery is the notebooks
# `make run` executed, so with no executed notebook in outputs/ they are executed first
docs: setup
	@ls outputs/[0-9][0-9]_*.ipynb >/dev/null 2>&1 || { \
	  echo "docs: no executed notebook in outputs/, running claimlab run first"; \
	  $(VENV)/bin/claimlab run --output outputs; }
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# seeded mutants of core/ratio.py and the metric modules, each against its own unit tests;
# slow (minutes per module), so not part of `make test`; figures in QUALITY.md
mutation: setup
	$(PY) quality/mutation.py

lint: setup
	$(VENV)/bin/ruff check claimlab tests benchmarks quality notebooks docs
	$(VENV)/bin/ruff format --check claimlab tests benchmarks quality notebooks docs
	$(VENV)/bin/mypy --strict claimlab
	$(VENV)/bin/lint-imports

bench: setup
	$(VENV)/bin/python benchmarks/bench_fever.py
	$(VENV)/bin/python benchmarks/bench_ledger.py
	$(VENV)/bin/python benchmarks/bench_scale.py
	$(VENV)/bin/python benchmarks/bench_citations.py
	$(VENV)/bin/python benchmarks/bench_startup.py
	$(VENV)/bin/python benchmarks/bench_uncertainty.py
	$(VENV)/bin/python benchmarks/bench_gold.py
	$(VENV)/bin/python benchmarks/bench_parse.py
	$(VENV)/bin/python benchmarks/bench_official.py $(if $(FEVER_SCORER),--fever-scorer $(FEVER_SCORER)) \
	  $(if $(RAGCHECKER),--ragchecker $(RAGCHECKER)) \
	  $(if $(RAGCHECKER_PYTHON),--ragchecker-python $(RAGCHECKER_PYTHON))
	$(if $(BEFORE),$(VENV)/bin/python benchmarks/bench_outputs.py --before $(BEFORE))

# no update checks, news feeds or extension searches: the lab reaches nothing outside this
# machine, and no news toast (JupyterLab asks about news unless its settings say no); as root
# (containers, CI machines) JupyterLab wants --allow-root
lab: setup
	mkdir -p $(VENV)/share/jupyter/lab/settings
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' \
	  > $(VENV)/share/jupyter/lab/settings/overrides.json
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --ip=127.0.0.1 \
	  --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate --LabApp.news_url=None \
	  --LabApp.extension_manager=readonly --ContentsManager.pre_save_hook=claimlab.tooling.labsave.clear_outputs \
	  $$([ "$$(id -u)" = 0 ] && echo --allow-root)

clean:
	rm -rf outputs/*.ipynb outputs/*.json outputs/handouts outputs/screenshots site
