"""`autoagent doctor`: each check on its own, and the command's report and exit code."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner, Result

from autoagent.cli import cli
from autoagent.commands.doctor import (
    BROWSER_FIX,
    check_browser,
    check_memory,
    check_settings_files,
    check_user_tools,
    check_workspace,
)
from autoagent.commands.findings import Finding
from autoagent.commands.model_checks import check_model, check_server
from autoagent.memory.store import MemoryStore
from autoagent.tools import browser

from .test_memory_support import HASH_MODEL, entry, hash_vector

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class Models(BaseHTTPRequestHandler):
    """GET /v1/models answering `status` with `models`; records the Authorization header."""

    status = 200
    models: ClassVar[list[str]] = []
    seen: ClassVar[list[str | None]] = []

    def do_GET(self) -> None:
        type(self).seen.append(self.headers.get("Authorization"))
        body = json.dumps({"data": [{"id": name} for name in self.models]} if self.status == 200 else
                          {"error": {"message": "bad key"}}).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[Models]]]:
    handler = type("Handler", (Models,), {"seen": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", handler
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def no_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The browser lookup pointed at an empty directory."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    paths = (str(empty / "chromium"), str(empty / "chromedriver"))
    monkeypatch.setattr(browser, "CHROMIUM", paths[0])
    monkeypatch.setattr(browser, "CHROMEDRIVER", paths[1])
    return paths


def doctor(*args: str, cwd: Path) -> Result:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        return CliRunner().invoke(cli, ["doctor", *args])


def test_doctor_reports_a_missing_key_and_a_missing_browser(tmp_path: Path, no_browser: tuple[str, str]) -> None:
    result = doctor("--model", "openai:gpt-4o-mini", "--no-memory", cwd=tmp_path)

    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert lines[0] == "Checking autoagent with --model openai:gpt-4o-mini"
    assert "FAIL  model key: openai:gpt-4o-mini needs OPENAI_API_KEY, which is not set" in lines
    assert "      fix: set OPENAI_API_KEY in ./api_keys.env or the environment, or use --model local" in lines
    at = lines.index(f"warn  browser: {no_browser[0]} and {no_browser[1]} missing: read_webpage cannot render "
                     "JavaScript pages")
    assert lines[at + 1] == f"      fix: {BROWSER_FIX}" == "      fix: sudo apt-get install chromium chromium-driver"
    assert f"ok    workspace: {tmp_path / 'workspace'} does not exist yet; it is created on first use" in lines
    assert lines[-1] == "1 problem to fix, 1 warning."
    assert not any(line.startswith("ok    model server") for line in lines)  # no key: nothing to ask the server


def test_doctor_passes_against_a_reachable_server(tmp_path: Path, server: tuple[str, type[Models]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    url, handler = server
    handler.models = ["qwen"]
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    (tmp_path / "workspace").mkdir()

    result = doctor("--model", "openai:qwen", cwd=tmp_path)

    lines = result.output.splitlines()
    assert result.exit_code == 0, result.output
    assert f"Checking autoagent with --model openai:qwen --base-url {url}" == lines[0]
    assert "ok    model key: no OPENAI_API_KEY (a server of your own seldom needs one)" in lines
    assert f"ok    model server: {url}/models answers and lists qwen" in lines
    assert f"ok    workspace: {tmp_path / 'workspace'} is writable" in lines
    assert lines[-1].startswith("Ready to run (")


def test_the_key_is_sent_but_never_shown(tmp_path: Path, server: tuple[str, type[Models]],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    url, handler = server
    handler.status = 401
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret")
    (tmp_path / "api_keys.env").write_text("OPENAI_API_KEY=sk-very-secret\nAUTOAGENT_MODEL=openai:x\n")
    (tmp_path / "api_keys.env").chmod(0o644)

    result = doctor("--model", "openai:gpt-4o", "--base-url", url, "--no-memory", cwd=tmp_path)

    lines = result.output.splitlines()
    assert handler.seen == ["Bearer sk-very-secret"]
    assert "sk-very-secret" not in result.output
    assert f"ok    settings: {tmp_path / 'api_keys.env'} sets OPENAI_API_KEY, AUTOAGENT_MODEL" in lines
    assert f"warn  settings: {tmp_path / 'api_keys.env'} is readable by other users" in lines
    assert f"warn  settings: {tmp_path / 'api_keys.env'} may set API keys only: AUTOAGENT_MODEL ignored" in lines
    assert f"FAIL  model server: {url}/models refused the key (HTTP 401)" in lines
    assert result.exit_code == 1


def test_an_unreachable_server_fails() -> None:
    check = check_server("http://127.0.0.1:9/v1", "x", None, timeout=1)
    assert check == Finding("model server", "FAIL", "cannot reach http://127.0.0.1:9/v1/models (ConnectionError)",
                          "start the server, or check --base-url / OPENAI_BASE_URL")


def test_an_unlisted_model_is_a_warning(server: tuple[str, type[Models]]) -> None:
    url, handler = server
    handler.models = ["a", "b"]
    check = check_server(url, "c", "key")
    assert (check.status, check.fix) == ("warn", "check --model; it lists: a, b")


def test_unknown_spec_and_misplaced_base_url_fail() -> None:
    assert [check.status for check in check_model("gemini:pro")] == ["FAIL"]
    assert check_model("local", "http://127.0.0.1:1/v1")[0].detail == "--base-url http://127.0.0.1:1/v1 does not " \
                                                                      "apply to local"


def test_a_local_gguf_path_is_checked(tmp_path: Path) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"GGUF" + b"\0" * 16)
    assert check_model(f"local:{fake}")[-1] == Finding("model weights", "ok", f"{fake} is a GGUF file")
    fake.write_bytes(b"<html>")
    assert check_model(f"local:{fake}")[-1].status == "FAIL"
    assert check_model(f"local:{tmp_path / 'gone.gguf'}")[-1].detail == f"{tmp_path / 'gone.gguf'} does not exist"


def test_missing_weight_packages_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.llm import weights

    monkeypatch.setattr(weights, "WEIGHT_PARTS", (("autoagent_no_such_weights_part", "data/part01.bin"),))
    check = check_model("local")[-1]
    assert check.status == "FAIL"
    assert check.detail.startswith("model weights package autoagent-no-such-weights-part is not installed")


def test_the_browser_found() -> None:
    here = __file__
    assert check_browser(here, here) == Finding("browser", "ok", f"{here} and {here} found")


def test_memory_store_checks(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    assert check_memory("local", directory).detail == f"empty; {directory} is created by the first run"
    store = MemoryStore(directory)
    store.add(entry("usd to eur"), hash_vector("usd to eur"), HASH_MODEL)
    store.close()

    mismatch = check_memory("local", directory)
    assert mismatch.status == "FAIL"
    assert mismatch.detail.startswith(f"1 memory in {directory} embedded with {HASH_MODEL}, but local embeds")
    assert mismatch.fix == "autoagent memory reembed --model local, or use --no-memory"


def test_a_damaged_memory_store_fails_with_the_remedy(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    store = MemoryStore(directory)
    store.add(entry("usd to eur"), hash_vector("usd to eur"), HASH_MODEL)
    store.close()
    (directory / "memory.sqlite3").write_bytes(b"this is not a database " * 200)

    check = check_memory("local", directory)

    assert check.status == "FAIL"
    assert "was damaged" in check.detail and "moved to" in check.detail
    assert check_memory("local", directory).status == "ok"  # moved aside: a fresh store starts


def test_a_workspace_that_is_a_file_fails(tmp_path: Path) -> None:
    path = tmp_path / "ws"
    path.write_text("")
    assert check_workspace(path) == Finding("workspace", "FAIL", f"{path} is not a directory",
                                          "choose another --workspace")


def test_settings_files_none(tmp_path: Path) -> None:
    [check] = check_settings_files([tmp_path])
    assert check.status == "ok" and check.detail.startswith("no api_keys.env (optional;")


def test_user_tools_are_loaded_and_a_broken_module_fails(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('oops')\n")
    checks = check_user_tools([EXAMPLES / "my_tools.py", broken])
    assert checks[0] == Finding(f"tools module {EXAMPLES / 'my_tools.py'}", "ok", "word_count, slugify")
    assert checks[1].status == "FAIL" and checks[1].detail.endswith("failed to import: RuntimeError: oops")


def test_the_doctor_command_is_light_to_import() -> None:
    heavy = "('langchain_core', 'requests', 'mcp')"
    code = f"import sys, autoagent.cli; print(sorted(m for m in {heavy} if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"
