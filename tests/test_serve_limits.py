"""`autoagent serve`'s limits (issue 27): body, input and upload sizes (413), uploads copied in pieces, a cap on the
runs held live (an idle one closed and resumed from its transcript), and a task list paged without reading every
task."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.serve.limits import MIB, Limits
from autoagent.serve.service import TaskService
from autoagent.serve.store import TaskRecord, TaskStore

from .cli_backend import FakeBackend
from .test_serve import BASE_URL, SETTINGS, TASKS, TOKEN, client


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def limited(limits: Limits) -> TestClient:
    service = TaskService(SETTINGS, limits=limits)
    return TestClient(create_app(SETTINGS, Access(token=TOKEN), service=service, limits=limits), base_url=BASE_URL,
                      headers={"Authorization": f"Bearer {TOKEN}"})


def test_a_body_over_the_limit_is_refused(backend: FakeBackend, isolated_home: Path) -> None:
    http = client()
    big = http.post(TASKS, json={"input": "x", "additional_input": {"pad": "y" * (2 * MIB)}})
    assert big.status_code == 413 and "over this server's limit of 1,048,576 bytes" in big.json()["message"]
    streamed = http.post(TASKS, content=(b"y" * 65536 for _ in range(40)),  # no Content-Length: counted as it comes
                         headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413
    assert http.get(TASKS).json()["tasks"] == []


def test_an_input_over_the_limit_is_refused(backend: FakeBackend) -> None:
    http = client()
    long = http.post(TASKS, json={"input": "x" * 100_001})
    assert long.status_code == 413 and "at most 100,000" in long.json()["message"]
    task_id = http.post(TASKS, json={"input": "a task"}).json()["task_id"]
    answer = http.post(f"{TASKS}/{task_id}/steps", json={"input": "y" * 100_001})
    assert answer.status_code == 413 and "step's input" in answer.json()["message"]
    assert not backend.models  # nothing ran


def test_an_upload_over_the_limit_is_refused_and_one_under_it_arrives_whole(backend: FakeBackend) -> None:
    http = limited(Limits(artifact_bytes=3 * MIB))
    task_id = http.post(TASKS, json={"input": "read data.bin"}).json()["task_id"]
    workspace = http.app.state.service.workspace(task_id)  # type: ignore[attr-defined]
    data = bytes(range(256)) * (11 * 1024)  # 2.75 MiB, copied in pieces
    assert http.post(f"{TASKS}/{task_id}/artifacts", files={"file": ("data.bin", data)}).status_code == 200
    assert (workspace / "data.bin").read_bytes() == data
    big = http.post(f"{TASKS}/{task_id}/artifacts", files={"file": ("big.bin", b"z" * (4 * MIB))})
    assert big.status_code == 413 and "limit of 3,145,728 bytes a file (3.0 MiB" in big.json()["message"]
    just_over = http.post(f"{TASKS}/{task_id}/artifacts", files={"file": ("over.bin", b"z" * (3 * MIB + 1))})
    assert just_over.status_code == 413 and "at most 3,145,728 bytes" in just_over.json()["message"]
    assert not (workspace / "big.bin").exists() and not (workspace / "over.bin").exists()


def test_the_task_list_reads_only_its_page(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    http = client()
    made = [http.post(TASKS, json={"input": f"task {number}"}).json()["task_id"] for number in range(25)]
    reads: list[str] = []
    real_get = TaskStore.get

    def counted_get(self: TaskStore, task_id: str) -> TaskRecord:
        reads.append(task_id)
        return real_get(self, task_id)

    monkeypatch.setattr(TaskStore, "get", counted_get)
    second = http.get(TASKS, params={"current_page": 2, "page_size": 10}).json()
    assert [task["task_id"] for task in second["tasks"]] == made[10:20]  # oldest first
    assert second["pagination"] == {"total_items": 25, "total_pages": 3, "current_page": 2, "page_size": 10}
    assert sorted(reads) == sorted(made[10:20])


def test_a_store_without_an_index_lists_its_tasks_in_order(backend: FakeBackend, isolated_home: Path) -> None:
    http = client()
    made = [http.post(TASKS, json={"input": f"task {number}"}).json()["task_id"] for number in range(3)]
    (isolated_home / "serve" / "tasks" / "index").unlink()  # as an older server left it
    assert [task["task_id"] for task in http.get(TASKS).json()["tasks"]] == made
    newer = http.post(TASKS, json={"input": "task 3"}).json()["task_id"]
    assert [task["task_id"] for task in http.get(TASKS).json()["tasks"]] == [*made, newer]
