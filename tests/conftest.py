"""Shared fixtures: no test reaches the network or the user's home directory."""

from __future__ import annotations

import ipaddress
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_backend import FakeBackend, install_backend
from tests.fake_openai import fake_openai  # noqa: F401

_real_connect = socket.socket.connect

# A run started in the background by a shell without job control (`nohup make test &`, some CI runners) inherits
# SIGINT ignored, and so would every CLI the tests start: the Ctrl-C tests need Python's own handler back.
signal.signal(signal.SIGINT, signal.default_int_handler)


def _loopback_only(self: socket.socket, address: Any) -> Any:
    host = address[0] if isinstance(address, tuple) else None
    if host is not None:
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise AssertionError(f"a test tried to reach the network: {address!r}")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A private AUTOAGENT_HOME, no API keys or AUTOAGENT_* settings from outside, loopback-only sockets."""
    import os

    for name in list(os.environ):
        if name.startswith(("AUTOAGENT_", "OPENAI_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AUTOAGENT_HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.setenv("AUTOAGENT_RETRY_BASE_DELAY", "0.01")  # retried model calls wait milliseconds, not seconds
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)
    yield


@pytest.fixture
def isolated_home() -> Path:
    """This test's private AUTOAGENT_HOME."""
    import os

    return Path(os.environ["AUTOAGENT_HOME"])


@pytest.fixture(scope="session")
def local_weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real bundled weights, assembled from the six part packages into a fresh directory."""
    from autoagent.llm.weights import WEIGHTS_SIZE, ensure_default_weights

    directory = tmp_path_factory.mktemp("models")
    started = time.perf_counter()
    path = ensure_default_weights(directory)
    print(f"\n[measure] weights assembled and hashed in {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    assert ensure_default_weights(directory) == path  # the second call reuses the verified file
    print(f"[measure] weights reused (no re-hash) in {(time.perf_counter() - started) * 1000:.1f} ms")
    assert path.stat().st_size == WEIGHTS_SIZE
    return path


@pytest.fixture(scope="session")
def chat_weights(local_weights: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The weights a bare `--model local` runs (the 1.5B, which `make install` installs), assembled from its part
    packages into a fresh directory; the 0.5B's where the 1.5B is not installed."""
    from autoagent.llm.weights import DEFAULT_MODEL, default_chat_model, ensure_weights

    model = default_chat_model()
    if model.name == DEFAULT_MODEL:
        return local_weights
    return ensure_weights(model, tmp_path_factory.mktemp("chat-models"))


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> FakeBackend:
    """Every chat model the CLI loads follows one script (tests/cli_backend.py)."""
    return install_backend(monkeypatch)
