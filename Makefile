# gendoc: `make docs` generates the reference and builds the site; `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SITE_DIR := build/site
DOCS_DIR := docs

.PHONY: setup docs serve check test lint bench clean browser-deps catalogs

# Every extra but onnx: `make test` needs them all (torch is a CPU build at its exact pin).
# ONNX: the onnx extra, pinned by constraints/site.txt. CI runs the suite on other onnx
# builds by installing one first and calling `make test ONNX= CONSTRAINTS=` with its own VENV.
# onnx-ad (the evidence extra) requires the distribution "onnx", which would replace
# onnx-weekly: setup installs it at its pin without its dependencies (onnx and numpy are there).
EXTRAS := site,browser,test,torch,runtime
ONNX ?= onnx,
CONSTRAINTS ?= -c constraints/site.txt
$(STAMP): pyproject.toml constraints/site.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $(CONSTRAINTS) -e ".[$(ONNX)$(EXTRAS)]"
	$(BIN)/python -m pip install --quiet --no-deps -c constraints/site.txt onnx-ad
	touch $(STAMP)

setup: $(STAMP)

## docs: the reference into docs/ (English) and docs/zh/, then the site into build/site
docs: setup
	$(BIN)/gendoc build --out $(DOCS_DIR) --lang en
	$(BIN)/gendoc build --out $(DOCS_DIR)/zh --lang zh
	$(BIN)/mkdocs build --strict --site-dir $(SITE_DIR)

serve: setup
	$(BIN)/mkdocs serve

## check: are the committed documents in docs/ current for the installed onnx?
check: setup
	$(BIN)/gendoc check --out $(DOCS_DIR) --lang en
	$(BIN)/gendoc check --out $(DOCS_DIR)/zh --lang zh

## catalogs: extract every marked message and every paragraph of schema text, merge them into
## the .po catalogs (a changed paragraph turns fuzzy), report each English sentence that the
## schema catalogs translate in more than one way, compile the label catalogs as a check.
## Translate the new entries (Poedit, Weblate or a text editor), then run `make test`.
BABEL_KEYWORDS := -k N_ -k NP_:1,2
catalogs: setup
	@mkdir -p build/locale
	$(BIN)/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --sort-output --omit-header -o build/locale/gendoc.pot .
	$(BIN)/python -m gendoc.catalogs.i18n build/locale/gendoc.pot zh
	$(BIN)/python -m gendoc.catalogs.schema_text zh
	$(BIN)/python -m gendoc.catalogs.consistency zh
	@for po in templates/locale/*/LC_MESSAGES/gendoc.po; do \
	  lang=$$(basename $$(dirname $$(dirname $$po))); \
	  $(BIN)/pybabel compile --statistics -l $$lang -i $$po -o build/locale/$$lang.mo || exit 1; \
	done

lint: setup
	$(BIN)/ruff check gendoc tests benchmarks
	$(BIN)/ruff format --check gendoc tests benchmarks

## browser-deps: Debian's chromium, and a CJK font so that Chinese pages render in it
## (installed when root, else explained)
BROWSER_PACKAGES := chromium fonts-noto-cjk
browser-deps:
	@missing=; for p in $(BROWSER_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "The browser tests need Debian packages:$$missing. Run: sudo apt-get install$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi

## test: lint, then every test (browser tests included); pytest's "no tests ran" (5) fails
## too, and so does any skipped test (GENDOC_REQUIRE_ALL_TESTS, see tests/conftest.py)
## GENDOC_EXPECT_ONNX: the onnx the suite must find (tests/collect/test_onnx_versions.py)
GENDOC_EXPECT_ONNX ?= $(shell grep '^onnx==' constraints/site.txt)
test: setup browser-deps lint
	@GENDOC_REQUIRE_ALL_TESTS=1 GENDOC_EXPECT_ONNX='$(GENDOC_EXPECT_ONNX)' \
	  $(BIN)/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

## bench: every script in benchmarks/ with its defaults, one after the other, their output
## also saved in build/bench.log; the README's figures are printed by them (each row of its
## table names the script and options), which benchmarks/shared/readme_figures.py checks last;
## ONNX_SRC=DIR, an onnx checkout at the installed version, for benchmarks/suggest_patch.py
BENCH_LOG := build/bench.log
bench: setup
	@mkdir -p build; rm -f $(BENCH_LOG) $(BENCH_LOG).failed
	@for script in benchmarks/*.py; do \
	  echo "== $$script"; \
	  ONNX_SRC="$(ONNX_SRC)" $(BIN)/python -u $$script 2>&1 || echo "$$script" > $(BENCH_LOG).failed; \
	  test ! -e $(BENCH_LOG).failed || break; \
	done | tee $(BENCH_LOG)
	@if [ -e $(BENCH_LOG).failed ]; then echo "failed: $$(cat $(BENCH_LOG).failed)" >&2; exit 1; fi
	$(BIN)/python benchmarks/shared/readme_figures.py $(BENCH_LOG) README.md

clean:
	rm -rf build .pytest_cache .ruff_cache
