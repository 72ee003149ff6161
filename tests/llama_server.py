"""llama-cpp-python's OpenAI-compatible server (`python -m llama_cpp.server`) on a free loopback port, serving the
bundled weights (or any GGUF) as a real server for slow tests and the benchmark; stopped by its process id.

    from tests.llama_server import LlamaServer

    with LlamaServer.start() as server:          # waits until /v1/models answers (~2-10 s)
        server.base_url                          # http://127.0.0.1:PORT/v1, model alias "qwen"
        # autoagent --model openai:qwen --base-url <server.base_url> ...

From a shell (the benchmark): `.venv/bin/python -m tests.llama_server [--port N] [--model GGUF] [--embedding]` prints
`base_url=http://127.0.0.1:PORT/v1 pid=PID` and serves until Ctrl-C or `kill PID`.
Needs the server extras: pip install -e '.[local,dev]' (or "llama-cpp-python[server]==0.3.36").
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import IO

ALIAS = "qwen"
START_TIMEOUT = 120.0  # seconds: loading the 0.5B GGUF takes a few on 2 busy cores
# Patches run before `python -m llama_cpp.server` where its options fall short. Extra weight buffers (AMX,
# repacking) off: on a VM whose CPU reports AMX but does not let a process use it, a native build dies with SIGILL
# on the first token otherwise.
WITHOUT_EXTRA_BUFFERS = """
import llama_cpp.llama_cpp as low_level
defaults = low_level.llama_model_default_params
def without_extra_buffers():
    params = defaults()
    params.use_extra_bufts = False
    return params
low_level.llama_model_default_params = without_extra_buffers
"""
# Mean pooling for /v1/embeddings, as llama.cpp's own llama-server does with `--pooling mean`: the bundled GGUF
# names no pooling, so llama-cpp-python's server (which has no such option) would return one vector per token.
MEAN_POOLING = """
import llama_cpp
plain_init = llama_cpp.Llama.__init__
def init_with_mean_pooling(self, *args, **kwargs):
    if kwargs.get("embedding"):
        kwargs.setdefault("pooling_type", llama_cpp.LLAMA_POOLING_TYPE_MEAN)
    plain_init(self, *args, **kwargs)
llama_cpp.Llama.__init__ = init_with_mean_pooling
"""
RUN_SERVER = """
import runpy, sys
sys.argv[0] = "llama_cpp.server"
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_installed() -> bool:
    """True when llama-cpp-python's server extras (fastapi, uvicorn, sse-starlette, ...) can be imported."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None
               for name in ("llama_cpp", "fastapi", "uvicorn", "sse_starlette", "starlette_context",
                            "pydantic_settings"))


def built_with_amx() -> bool:
    """True when the installed llama.cpp has AMX kernels (a native build on a CPU that reports AMX)."""
    import llama_cpp

    return "AMX_INT8 = 1" in llama_cpp.llama_print_system_info().decode(errors="replace")


class LlamaServer:
    """One running `llama_cpp.server` process; `stop()` (or leaving the `with` block) ends it by its pid."""

    def __init__(self, process: subprocess.Popen[bytes], port: int, alias: str, log: IO[bytes]) -> None:
        self.process, self.port, self.alias, self._log = process, port, alias, log

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.process.pid

    @property
    def base_url(self) -> str:
        """The OpenAI base URL: http://127.0.0.1:PORT/v1"""
        return f"http://127.0.0.1:{self.port}/v1"

    @classmethod
    def start(
        cls,
        model_path: str | Path | None = None,
        *,
        alias: str = ALIAS,
        port: int | None = None,
        n_ctx: int = 4096,
        threads: int | None = None,
        extra_buffers: bool | None = None,
        embedding: bool = False,
        timeout: float = START_TIMEOUT,
    ) -> LlamaServer:
        """Start a server for `model_path` (the bundled weights when None) and wait until it answers.
        `embedding`: serve /v1/embeddings, mean-pooled (see MEAN_POOLING). `extra_buffers`: llama.cpp's AMX and
        repacked weight buffers; None: on unless this llama.cpp was built with AMX kernels, which crash where the
        CPU's AMX is not usable (see WITHOUT_EXTRA_BUFFERS)."""
        if model_path is None:
            from autoagent.llm.weights import ensure_default_weights

            model_path = ensure_default_weights()
        port = port or free_port()
        threads = threads or os.cpu_count() or 1
        if extra_buffers is None:
            extra_buffers = not built_with_amx()
        patches = ([] if extra_buffers else [WITHOUT_EXTRA_BUFFERS]) + ([MEAN_POOLING] if embedding else [])
        launch = ["-c", "".join([*patches, RUN_SERVER])] if patches else ["-m", "llama_cpp.server"]
        command = [sys.executable, *launch, "--model", str(model_path), "--model_alias", alias,
                   "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
                   "--n_threads_batch", str(threads), "--verbose", "false"]
        if embedding:
            command += ["--embedding", "true"]
        log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        server = cls(process, port, alias, log)
        try:
            server._wait_until_ready(timeout)
        except BaseException:
            server.stop()
            raise
        return server

    def _wait_until_ready(self, timeout: float) -> None:
        """Poll /v1/models until it answers; raise with the server's output when it dies or takes too long."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.process.returncode}:\n{self.output()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as response:
                    if json.load(response).get("data"):
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"llama_cpp.server did not answer within {timeout:.0f} s:\n{self.output()}")

    def output(self) -> str:
        """What the server printed so far (its last 4,000 characters)."""
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")[-4000:]

    def stop(self, grace: float = 10.0) -> None:
        """Stop the server by its pid: SIGTERM, then SIGKILL after `grace` seconds."""
        if self.process.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()

    def __enter__(self) -> LlamaServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


def main() -> None:
    """Serve in the foreground, printing the base URL and pid, until Ctrl-C or SIGTERM."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="a GGUF path (default: the bundled weights)")
    parser.add_argument("--port", type=int, help="default: a free port")
    parser.add_argument("--embedding", action="store_true", help="serve mean-pooled /v1/embeddings too")
    arguments = parser.parse_args()
    server = LlamaServer.start(arguments.model, port=arguments.port, embedding=arguments.embedding)
    print(f"base_url={server.base_url} pid={server.pid} alias={server.alias}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
