# Two commands do everything on a fresh clone with only Python 3.11 and make:
#   make demo   build .venv, install, create an example workspace, index it, recall from it
#   make test   build .venv, install, lint, run the whole test suite
# Both are idempotent: the install step re-runs only when pyproject.toml or this file change.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO := example-workspace
DEMO_NOW := 2025-11-30T18:00

.PHONY: install test lint demo bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch first, pinned: 2.13.0 is the CPU wheel on this machine's disk; left to the resolver,
# sentence-transformers would pull a multi-GB CUDA build.
$(STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[local,dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check src tests benchmarks

test: install lint
	$(BIN)/pytest -q -n 2 -p no:cacheprovider

demo: install
	rm -rf $(DEMO)
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) init
	cp examples/memory/*.md $(DEMO)/memory/
	cp examples/bank/entities/*.md $(DEMO)/bank/entities/
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) index
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) status
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "Baileys crash fix" --k 3
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "what does Peter prefer" --k 3
	@echo "# Cross-lingual: an English question finds a note written in Chinese (memory/2025-11-27.md)."
	@echo "# The default model, use-multilingual-v3, maps 16 languages into one space; lexical search alone does not find it."
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "what do users in Shanghai want" --k 2

bench: install
	$(BIN)/python benchmarks/synthetic.py

clean:
	rm -rf $(VENV) $(DEMO) build *.egg-info src/*.egg-info
