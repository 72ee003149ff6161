"""The configured API key never leaves in what autoagent prints or stores: a model that repeats it, plainly or
base64-encoded (as a prompt-injected page could ask it to), has it redacted in the `--json` report, a batch's result
lines, `serve`'s steps over HTTP and on disk (`steps.jsonl`, `task.json`), the transcript and the terminal."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from autoagent.cli import cli
from autoagent.redact import REDACTED, Redactor
from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.settings import Settings

from .cli_backend import FakeBackend
from .scripted import act

KEY = "sk-live-4f9c2a7b1e6d8c3a5f0b9e2d7c4a1f86"
ENCODED = base64.b64encode(f"user:{KEY}".encode()).decode()  # as in an Authorization: Basic header


def leaking_replies() -> list[str]:
    return [act("calculator", f"the header is Basic {ENCODED}", expression="6*7"), act("FINISH"),
            f"42 (and the key is {KEY}, or {base64.b64encode(KEY.encode()).decode()})"]


def assert_no_key(text: str) -> None:
    assert KEY not in text and KEY[:12] not in text
    assert base64.b64encode(KEY.encode()).decode()[:-4] not in text and ENCODED[12:-4] not in text


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def test_the_key_is_redacted_in_any_base64_text_that_holds_it() -> None:
    redactor = Redactor([KEY])
    for before in ("", "a", "ab", "user:", "Authorization: Bearer "):
        encoded = base64.b64encode(f"{before}{KEY}\n".encode()).decode()
        for form in (encoded, encoded.replace("+", "-").replace("/", "_")):
            assert REDACTED in redactor.text(form)
            assert_no_key(redactor.text(form))
    assert redactor.text(KEY.encode().hex()) == REDACTED
    assert redactor.text("aGVsbG8gd29ybGQ=") == "aGVsbG8gd29ybGQ="  # other base64 stays


def test_json_report_and_transcript(backend: FakeBackend, isolated_home: Path) -> None:
    backend.replies.extend(leaking_replies())
    result = CliRunner().invoke(cli, ["--json", "--verbose", "What is 6*7?"], catch_exceptions=False)

    assert result.exit_code == 0, result.stderr
    assert REDACTED in json.loads(result.stdout)["answer"]
    assert_no_key(result.stdout)
    assert_no_key(result.stderr)
    [transcript] = (isolated_home / "runs").glob("*.jsonl")
    assert_no_key(transcript.read_text())

    backend.replies.extend(leaking_replies())
    shown = CliRunner().invoke(cli, ["What is 6*7?"], catch_exceptions=False)  # the answer on stdout
    assert REDACTED in shown.stdout
    assert_no_key(shown.stdout)


def test_batch_result_lines(backend: FakeBackend, tmp_path: Path) -> None:
    backend.replies.extend(leaking_replies())
    (tmp_path / "tasks.jsonl").write_text(json.dumps({"id": "t1", "task": "What is 6*7?"}) + "\n")
    result = CliRunner().invoke(cli, ["batch", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl")],
                                catch_exceptions=False)

    assert result.exit_code == 0, result.stderr
    assert REDACTED in (tmp_path / "out.jsonl").read_text()
    assert_no_key((tmp_path / "out.jsonl").read_text())


def test_serve_steps_over_http_and_on_disk(backend: FakeBackend, isolated_home: Path) -> None:
    backend.replies.extend(leaking_replies())
    http = TestClient(create_app(Settings(model="openai:gpt-4o-mini", use_memory=False), Access(token="t" * 32)),
                      base_url="http://127.0.0.1:8000", headers={"Authorization": f"Bearer {'t' * 32}"})
    task = http.post("/ap/v1/agent/tasks", json={"input": f"What is 6*7? (use {KEY})",
                                                 "additional_input": {"key": KEY}}).json()
    replies = [http.post(f"/ap/v1/agent/tasks/{task['task_id']}/steps", json={}).text for _ in range(2)]
    listed = http.get(f"/ap/v1/agent/tasks/{task['task_id']}/steps").text

    assert REDACTED in replies[-1]
    for text in [json.dumps(task), *replies, listed]:
        assert_no_key(text)
    folder = isolated_home / "serve" / "tasks" / task["task_id"]
    assert_no_key((folder / "steps.jsonl").read_text())
    assert_no_key((folder / "task.json").read_text())
