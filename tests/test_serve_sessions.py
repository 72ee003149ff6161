"""The runs `autoagent serve` holds (issue 27): at most --max-live-tasks live, an idle one closed and resumed from its
transcript on its next step; and two servers on one $AUTOAGENT_HOME never run the same task."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.serve.limits import Limits
from autoagent.serve.service import TaskService
from autoagent.serve.store import TaskStore

from .cli_backend import FakeBackend
from .scripted import act
from .test_serve import BASE_URL, SETTINGS, TASKS, TOKEN, client, step


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def capped(live_tasks: int) -> TestClient:
    limits = Limits(live_tasks=live_tasks)
    service = TaskService(SETTINGS, limits=limits)
    return TestClient(create_app(SETTINGS, Access(token=TOKEN), service=service, limits=limits), base_url=BASE_URL,
                      headers={"Authorization": f"Bearer {TOKEN}"})


def run_threads() -> int:
    return sum(thread.name == "autoagent-task" for thread in threading.enumerate())


def test_past_the_cap_an_idle_run_is_closed_and_resumed_later(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7")])  # each model built follows the script from the top
    http = capped(1)
    service: TaskService = http.app.state.service  # type: ignore[attr-defined]
    first = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    other = http.post(TASKS, json={"input": "What is 3 + 4?"}).json()["task_id"]
    threads = run_threads()
    assert "observation: 42" in step(http, first)["output"]
    assert "observation: 42" in step(http, other)["output"]  # the first task's idle run was closed for this one
    assert service.sessions.live() == 1 and run_threads() == threads + 1

    backend.replies[:] = [act("FINISH"), "42"]
    last = step(http, first)  # resumed from its transcript
    assert last["is_last"] and last["output"] == "42"
    assert "-> 42" in backend.models[-1].prompts[0]  # the resumed run remembers its first step
    assert service.sessions.live() == 0 and run_threads() == threads  # both closed: one evicted, one finished


def test_when_every_live_run_is_mid_step_a_new_one_waits(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7")])
    http = capped(1)
    service: TaskService = http.app.state.service  # type: ignore[attr-defined]
    busy = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    other = http.post(TASKS, json={"input": "What is 3 + 4?"}).json()["task_id"]
    step(http, busy)
    with service.sessions.get(busy).lock:  # its next step is under way
        refused = http.post(f"{TASKS}/{other}/steps", json={})
    assert refused.status_code == 503 and "--max-live-tasks" in refused.json()["message"]
    service.close()


def test_a_second_server_is_refused_while_the_first_runs_the_task(backend: FakeBackend, isolated_home: Path) -> None:
    backend.replies.extend([act("calculator", expression="6*7")])
    first, second = client(), client()  # two servers on one $AUTOAGENT_HOME
    task_id = first.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    step(first, task_id)  # its run is paused, held by the first server
    models = len(backend.models)

    refused = second.post(f"{TASKS}/{task_id}/steps", json={})
    assert refused.status_code == 409 and "another autoagent serve process" in refused.json()["message"]
    assert len(backend.models) == models  # the second built no agent and asked nothing
    assert TaskStore().get(task_id).state == "running"  # and did not mark it stopped
    assert len(second.get(f"{TASKS}/{task_id}/steps").json()["steps"]) == 1

    first.app.state.service.close()  # type: ignore[attr-defined]  # the first server stops: the run is free
    backend.replies[:] = [act("FINISH"), "42"]
    last = step(second, task_id)
    assert last["is_last"] and last["output"] == "42"
