"""`autoagent serve`: the Agent Protocol routes in process (FastAPI's test client), a scripted model behind them."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from autoagent.cli import cli
from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.serve.service import TaskService
from autoagent.settings import Settings

from .cli_backend import FakeBackend
from .scripted import act

TASKS = "/ap/v1/agent/tasks"
SETTINGS = Settings(model="openai:gpt-4o-mini", use_memory=False)
TOKEN = "t0ken"
BASE_URL = "http://127.0.0.1:8000"  # the Host the server answers to on a loopback bind


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OpenAI embeddings the web tools get need a key to be built (never used: no test reaches the web)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def client(settings: Settings = SETTINGS, token: str | None = TOKEN, service: TaskService | None = None,
           send_token: bool = True) -> TestClient:
    """A loopback server's client; it sends the token unless told not to (token None: the --no-token opt-out)."""
    headers = {"Authorization": f"Bearer {token}"} if token and send_token else {}
    return TestClient(create_app(settings, Access(token=token), service=service), base_url=BASE_URL, headers=headers)


def step(http: TestClient, task_id: str, answer: str | None = None) -> dict[str, Any]:
    response = http.post(f"{TASKS}/{task_id}/steps", json={"input": answer} if answer is not None else {})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_task_runs_a_step_per_request_until_its_answer(backend: FakeBackend, isolated_home: Path) -> None:
    backend.replies.extend([act("calculator", "multiply", expression="6*7"), act("FINISH"), "42"])
    http = client()
    task = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()
    assert task["input"] == "What is 6 * 7?" and task["artifacts"] == []

    first = step(http, task["task_id"])
    assert len(backend.models[0].prompts) == 1  # one step: the model was called once
    assert first["name"] == "calculator" and first["status"] == "completed" and first["is_last"] is False
    assert "observation: 42" in first["output"]
    assert first["additional_output"]["steps"][0]["action"] == {"name": "calculator", "args": {"expression": "6*7"}}
    last = step(http, task["task_id"])
    assert last["is_last"] is True and last["output"] == "42" and last["name"] == "answer"
    assert last["additional_output"]["run"]["stop_reason"] == "finished"

    listed = http.get(f"{TASKS}/{task['task_id']}/steps").json()
    assert [item["step_id"] for item in listed["steps"]] == [first["step_id"], last["step_id"]]
    assert listed["pagination"] == {"total_items": 2, "total_pages": 1, "current_page": 1, "page_size": 10}
    assert http.get(f"{TASKS}/{task['task_id']}/steps/{last['step_id']}").json() == last
    run_id = last["additional_output"]["run"]["run_id"]
    assert (isolated_home / "runs" / f"{run_id}.jsonl").is_file()  # the same transcripts as the terminal's
    assert http.post(f"{TASKS}/{task['task_id']}/steps", json={}).status_code == 409
    assert http.get(f"{TASKS}/nope").status_code == 404


def test_an_action_waits_for_the_next_steps_answer(backend: FakeBackend) -> None:
    backend.replies.extend([act("write_file", "save the note", path="notes/a.txt", content="hello"), act("FINISH"),
                            "wrote it"])
    http = client()
    task_id = http.post(TASKS, json={"input": "Write hello to notes/a.txt"}).json()["task_id"]
    workspace = http.app.state.service.workspace(task_id)  # type: ignore[attr-defined]

    asked = step(http, task_id)
    assert asked["status"] == "running" and asked["name"] == "approval: write_file" and not asked["is_last"]
    assert asked["output"].startswith("thought: save the note\nThe agent wants to run write_file with")
    assert "y = yes" in asked["output"]
    assert asked["additional_output"]["awaiting_approval"]["tool"] == "write_file"
    assert not (workspace / "notes" / "a.txt").exists()  # no side effect without an approving step input
    again = step(http, task_id)  # no answer: asked again, and nothing runs
    assert again["status"] == "running" and len(backend.models[0].prompts) == 1

    done = step(http, task_id, "y")
    assert (workspace / "notes" / "a.txt").read_text() == "hello"
    assert done["status"] == "completed" and done["input"] == "y" and "observation:" in done["output"]
    assert [item["file_name"] for item in done["artifacts"]] == ["a.txt"]
    assert step(http, task_id)["output"] == "wrote it"

    statuses = [item["status"] for item in http.get(f"{TASKS}/{task_id}/steps").json()["steps"]]
    assert statuses == ["completed"] * 4  # both questions were answered
    [artifact] = http.get(f"{TASKS}/{task_id}/artifacts").json()["artifacts"]
    assert artifact["relative_path"] == "notes/" and artifact["agent_created"] is True
    download = http.get(f"{TASKS}/{task_id}/artifacts/{artifact['artifact_id']}")
    assert download.status_code == 200 and download.content == b"hello"


def test_feedback_instead_of_yes_reaches_the_model(backend: FakeBackend) -> None:
    backend.replies.extend([act("write_file", path="a.txt", content="x"), act("FINISH"), "not written"])
    http = client()
    task_id = http.post(TASKS, json={"input": "write a.txt"}).json()["task_id"]
    step(http, task_id)
    refused = step(http, task_id, "call it b.txt")

    assert "The user did not run this action and says: call it b.txt" in refused["output"]
    assert http.get(f"{TASKS}/{task_id}/artifacts").json()["artifacts"] == []


def test_yes_runs_side_effects_without_asking(backend: FakeBackend) -> None:
    backend.replies.extend([act("write_file", path="a.txt", content="x"), act("FINISH"), "written"])
    http = client(Settings(model="openai:gpt-4o-mini", use_memory=False, yes=True))
    task_id = http.post(TASKS, json={"input": "write a.txt"}).json()["task_id"]

    assert step(http, task_id)["status"] == "completed"
    assert [item["file_name"] for item in http.get(f"{TASKS}/{task_id}").json()["artifacts"]] == ["a.txt"]


def test_a_restarted_server_lists_and_continues_its_tasks(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7"), act("FINISH"), "42"])
    first = client()
    task_id = first.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    step(first, task_id)
    first.app.state.service.close()  # type: ignore[attr-defined]  # the server stops: its paused run is interrupted

    backend.replies[:] = [act("FINISH"), "42"]  # the new server's model
    second = client()
    assert [task["task_id"] for task in second.get(TASKS).json()["tasks"]] == [task_id]
    last = step(second, task_id)
    assert last["is_last"] and last["output"] == "42"
    assert "-> 42" in backend.models[-1].prompts[0]  # the resumed run remembers its first step
    assert len(second.get(f"{TASKS}/{task_id}/steps").json()["steps"]) == 2


def test_a_token_is_required_when_set(backend: FakeBackend) -> None:
    http = client(token="s3cret", send_token=False)
    assert http.get(TASKS).status_code == 401
    assert http.get(TASKS, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert http.get(TASKS, headers={"Authorization": "Bearer s3cret"}).status_code == 200


def test_serving_beyond_loopback_needs_a_token() -> None:
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--no-token"])
    assert result.exit_code == 2 and "--no-token is for loopback only" in result.stderr


def test_uploads_stay_in_the_workspace(backend: FakeBackend) -> None:
    http = client()
    task_id = http.post(TASKS, json={"input": "read data.txt"}).json()["task_id"]
    sent = http.post(f"{TASKS}/{task_id}/artifacts", files={"file": ("data.txt", b"1,2")},
                     data={"relative_path": "in"})
    assert sent.status_code == 200 and sent.json()["agent_created"] is False
    assert (http.app.state.service.workspace(task_id) / "in" / "data.txt").read_bytes() == b"1,2"  # type: ignore
    escape = http.post(f"{TASKS}/{task_id}/artifacts", files={"file": ("x.txt", b"x")}, data={"relative_path": ".."})
    assert escape.status_code == 400


def test_on_the_embedded_model_a_step_waits_its_turn_and_says_so(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7"), act("FINISH"), "42"])
    http = client(Settings(model="local", use_memory=False))
    service: TaskService = http.app.state.service  # type: ignore[attr-defined]
    task_id = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    results: list[dict[str, Any]] = []
    assert service.model_lock is not None
    service.model_lock.acquire()  # another task's step has the model
    worker = threading.Thread(target=lambda: results.append(step(http, task_id)))
    worker.start()
    time.sleep(0.3)
    assert not backend.models or not backend.models[0].prompts  # queued: no model call yet
    service.model_lock.release()
    worker.join(timeout=30)

    assert results[0]["output"].startswith("(queued 0.")
    assert results[0]["additional_output"]["queued_seconds"] >= 0.2


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_names(host: str) -> None:
    from autoagent.commands.serve import is_loopback

    assert is_loopback(host) and not is_loopback("0.0.0.0") and not is_loopback("10.0.0.1")


def test_tasks_on_a_remote_model_step_at_once() -> None:
    from .batch_fakes import adder
    from .fake_openai import FakeOpenAI, Hold

    held = Hold()
    with FakeOpenAI(responder=adder(lambda a, b: held if a == 1 else None)) as model:
        http = client(Settings(model="openai:fake", base_url=model.base_url, use_memory=False))
        slow = http.post(TASKS, json={"input": "What is 1 + 2?"}).json()["task_id"]
        fast = http.post(TASKS, json={"input": "What is 3 + 4?"}).json()["task_id"]
        results: list[dict[str, Any]] = []
        worker = threading.Thread(target=lambda: results.append(step(http, slow)))
        worker.start()
        assert held.arrived.wait(30)
        other = step(http, fast)  # while the first task's model call is held
        assert other["name"] == "calculator" and "observation: 7" in other["output"] and not results
        held.release()
        worker.join(timeout=30)

    assert "observation: 3" in results[0]["output"]


def test_a_stopped_task_continues_with_fresh_budgets(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7"), "about 42"])
    http = client(Settings(model="openai:gpt-4o-mini", use_memory=False, max_steps=1))
    task_id = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    stopped = step(http, task_id)
    assert stopped["is_last"] and stopped["name"] == "stopped" and stopped["output"].startswith("stopped: the step")
    assert stopped["additional_output"]["steps"][0]["observation"] == "42"  # the step and the end in one

    backend.replies[:] = [act("FINISH"), "42"]  # the continued run's model
    last = step(http, task_id)
    assert last["is_last"] and last["output"] == "42"
    assert last["additional_output"]["run"]["run_id"] == stopped["additional_output"]["run"]["run_id"]
