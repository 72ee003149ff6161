# Two commands for a newcomer: `make demo` runs a task on the embedded model, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TASK ?= What is 1234 * 5678 + 17?

.PHONY: demo test lint install clean bench

install: $(STAMP)

# The first install builds llama-cpp-python from source (about 5 minutes on 2 cores); pip caches the wheel.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar off -e '.[local,dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/autoagent --model local "$(TASK)"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy autoagent tools

test: lint
	$(BIN)/pytest

# Framework cost beside LangChain's AutoGPT and smolagents (installed into bench/.venvs/ on first use): writes
# bench/RESULTS.md in about 10 minutes. BENCH_SKIP_LOCAL=1 skips the embedded-model section.
bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
