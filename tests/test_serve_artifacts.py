"""`autoagent serve`'s artifacts through the file tools' access (issue 27): a link is refused before any folder is
made, a hard-linked file is neither read nor written, a bad name is a 400 with its reason, and the server's files
are the user's alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .cli_backend import FakeBackend
from .scripted import act
from .test_serve import TASKS, client, step


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def new_task(http: TestClient) -> tuple[str, Path]:
    task_id = http.post(TASKS, json={"input": "a task"}).json()["task_id"]
    return task_id, http.app.state.service.workspace(task_id)  # type: ignore[attr-defined]


def upload(http: TestClient, task_id: str, name: str, data: bytes, folder: str | None = None) -> dict[str, object]:
    """A multipart upload written out by hand, so that a name may hold any byte (httpx would escape a NUL)."""
    parts = [b'--b\r\nContent-Disposition: form-data; name="file"; filename="' + name.encode() + b'"\r\n'
             b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n"]
    if folder is not None:
        parts.append(b'--b\r\nContent-Disposition: form-data; name="relative_path"\r\n\r\n' + folder.encode() + b"\r\n")
    response = http.post(f"{TASKS}/{task_id}/artifacts", content=b"".join(parts) + b"--b--\r\n",
                         headers={"Content-Type": "multipart/form-data; boundary=b"})
    return {"status": response.status_code, **response.json()}


def test_a_linked_folder_is_refused_before_any_folder_is_made(backend: FakeBackend, tmp_path: Path) -> None:
    http = client()
    task_id, workspace = new_task(http)
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "link").symlink_to(outside)
    sent = upload(http, task_id, "x.txt", b"x", "link/made/here")
    assert list(outside.iterdir()) == []  # nothing was made out there
    assert sent["status"] == 400 and "outside the workspace" in str(sent["message"])


def test_a_hard_linked_file_is_neither_read_nor_written(backend: FakeBackend, tmp_path: Path) -> None:
    http = client()
    task_id, workspace = new_task(http)
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's own")
    os.link(secret, workspace / "notes.txt")
    [listed] = http.get(f"{TASKS}/{task_id}/artifacts").json()["artifacts"]
    download = http.get(f"{TASKS}/{task_id}/artifacts/{listed['artifact_id']}")
    assert download.status_code == 400 and "other hard links" in download.json()["message"]
    sent = upload(http, task_id, "notes.txt", b"overwritten")
    assert sent["status"] == 400 and "other hard links" in str(sent["message"])
    assert secret.read_text() == "the user's own"


@pytest.mark.parametrize(("name", "folder", "reason"), [
    ("a\x00b.txt", None, "NUL"),
    ("x.txt", "in\x00side", "NUL"),
    ("n" * 300 + ".txt", None, "too long"),
    ("x.txt", "d" * 5000, "too long"),
    ("b.txt", "a.txt", "'a.txt' is a file, not a folder"),
    ("b.txt", "a.txt/deeper", "'a.txt' is a file, not a folder"),
    ("sub", None, "is a folder"),
])
def test_a_bad_name_is_a_400_with_its_reason(backend: FakeBackend, name: str, folder: str | None, reason: str) -> None:
    http = client()
    task_id, workspace = new_task(http)
    (workspace / "a.txt").write_text("a")
    (workspace / "sub").mkdir()
    sent = upload(http, task_id, name, b"x", folder)
    assert sent["status"] == 400 and reason in str(sent["message"]), sent


@pytest.fixture
def usual_umask() -> object:
    old = os.umask(0o022)  # what most accounts have: new files 0644 unless made private
    yield
    os.umask(old)


@pytest.mark.usefixtures("usual_umask")
def test_the_servers_files_are_the_users_alone(backend: FakeBackend, isolated_home: Path) -> None:
    backend.replies.extend([act("calculator", expression="6*7")])
    http = client()
    task_id, workspace = new_task(http)
    step(http, task_id)
    upload(http, task_id, "data.txt", b"1,2", "in")
    serve = isolated_home / "serve"
    folders = [serve, serve / "tasks", serve / "tasks" / task_id, workspace]
    assert {str(path): oct(stat.S_IMODE(path.stat().st_mode)) for path in folders} == {
        str(path): "0o700" for path in folders}
    task = serve / "tasks" / task_id
    made = [serve / "tasks" / "index", task / "task.json", task / "steps.jsonl", workspace / "in" / "data.txt"]
    assert {str(path): oct(stat.S_IMODE(path.stat().st_mode)) for path in made} == {str(path): "0o600" for path in made}
