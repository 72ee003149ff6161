"""The web page of `autoagent serve`, without a browser: opened with the token it sets a session cookie (HttpOnly,
SameSite=Strict, named for the server, its value not the token) that then stands for the token on every route;
without either the page and every route answer 401; a form posted from another origin gets 403; every asset the
page names ships in the package; its routes stop a run, list runs and memories and forget one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.serve.page import ASSETS, asset

from .cli_backend import FakeBackend
from .scripted import act
from .test_serve import BASE_URL, SETTINGS, TASKS

TOKEN = "page-token-0123456789abcdef"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def browser(access: Access | None = None) -> TestClient:
    """A client that holds cookies, as a browser does, and sends no token of its own."""
    return TestClient(create_app(SETTINGS, access or Access(token=TOKEN, cookie="autoagent-8000")), base_url=BASE_URL,
                      follow_redirects=False)


def test_the_token_once_makes_a_session_cookie_with_safe_flags() -> None:
    http = browser()
    assert http.get("/").status_code == 401 and http.get(TASKS).status_code == 401
    assert http.get("/?token=wrong-token-0123456789").status_code == 401

    opened = http.get(f"/?token={TOKEN}")
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    cookie = opened.headers["set-cookie"]
    name, value = cookie.split(";")[0].split("=", 1)
    assert name == "autoagent-8000" and value != TOKEN and len(value) >= 32
    flags = {flag.strip().lower() for flag in cookie.split(";")[1:]}
    assert {"httponly", "samesite=strict", "path=/"} <= flags

    page = http.get("/")  # the cookie stands for the token from now on, on the page and the API alike
    assert page.status_code == 200 and "<title>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert http.get(TASKS).status_code == 200
    assert TestClient(http.app, base_url=BASE_URL, cookies={name: "x" * 43}).get(TASKS).status_code == 401


def test_a_cookie_of_another_server_is_refused() -> None:
    first, second = browser(), browser()  # two servers: each makes its own session value
    first.get(f"/?token={TOKEN}")
    value = first.cookies["autoagent-8000"]
    stolen = TestClient(second.app, base_url=BASE_URL, cookies={"autoagent-8000": value})
    assert stolen.get(TASKS).status_code == 401


def test_a_form_posted_from_another_origin_changes_nothing(backend: FakeBackend) -> None:
    http = browser()
    http.get(f"/?token={TOKEN}")
    posted = http.post(TASKS, data={"input": "delete everything"}, headers={"Origin": "http://attacker.example"})
    assert posted.status_code == 403
    assert http.get(TASKS).json()["tasks"] == []


def test_every_asset_the_page_names_ships_and_nothing_comes_from_elsewhere() -> None:
    http = browser()
    http.get(f"/?token={TOKEN}")
    page = http.get("/").text
    named = [link for link in re.findall(r'(?:src|href)="([^"]+)"', page) if link != "data:,"]  # data: the icon
    assert named and all(link.startswith("/") and not link.startswith("//") for link in named)
    for link in named:
        assert http.get(link).status_code == 200, link
    assert set(ASSETS) == {"page.js", "page.css"}
    script = asset("page.js")
    assert not re.search(r"https?://", script) and "import(" not in script  # no address of another host
    assert http.get("/page/../access.py").status_code == 404


def test_a_task_starts_with_the_settings_it_chose_within_the_servers(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7"), act("FINISH"), "42"])
    http = browser()
    http.get(f"/?token={TOKEN}")
    bad = http.post(TASKS, json={"input": "x", "additional_input": {"settings": {"yes": True}}})
    assert bad.status_code == 400 and "'yes' cannot be set per task" in bad.json()["message"]
    task = http.post(TASKS, json={"input": "What is 6 * 7?",
                                  "additional_input": {"settings": {"max_steps": 1}}}).json()
    first = http.post(f"{TASKS}/{task['task_id']}/steps", json={}).json()
    assert first["is_last"] and first["additional_output"]["run"]["stop_reason"] == "max_steps"


def test_a_run_stopped_from_the_page_is_kept_and_resumes(backend: FakeBackend, isolated_home: Path) -> None:
    backend.replies.extend([act("calculator", expression="6*7"), act("FINISH"), "42"])
    http = browser()
    http.get(f"/?token={TOKEN}")
    task_id = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()["task_id"]
    http.post(f"{TASKS}/{task_id}/steps", json={})
    assert http.post(f"/ui/tasks/{task_id}/stop").status_code == 204
    [run] = http.get("/ui/runs").json()["runs"]
    assert run["status"] == "interrupted" and run["steps"] == 1
    shown = http.get(f"/ui/runs/{run['run_id']}").json()
    assert shown["steps"][0]["observation"] == "42" and "calculator" in shown["text"]
    resumed = http.post(f"{TASKS}/{task_id}/steps", json={}).json()  # the next step resumes the run: step 2
    assert resumed["output"].startswith("[step 2/10]")
    assert http.get("/ui/runs/no-such-run").status_code == 404
    assert http.post("/ui/tasks/no-such-task/stop").status_code == 404


def test_memories_are_listed_and_forgotten(isolated_home: Path) -> None:
    from autoagent.memory.entries import MemoryEntry
    from autoagent.memory.store import MemoryStore

    store = MemoryStore()
    entry_id = store.add(MemoryEntry(task="a task", summary="what it found", outcome="finished", model="m",
                                     run_id="r"), [0.1, 0.2, 0.3], "m")
    http = browser()
    http.get(f"/?token={TOKEN}")
    listed = http.get("/ui/memory").json()
    assert listed["total"] == 1 and listed["memories"][0]["summary"] == "what it found"
    assert http.delete(f"/ui/memory/{entry_id}").status_code == 204
    assert http.get("/ui/memory").json()["total"] == 0
    assert http.delete(f"/ui/memory/{entry_id}").status_code == 404
    assert http.get("/ui/memory/search", params={"q": "x"}).json()["note"].startswith("long-term memory is off")


def test_a_followed_batch_shows_its_tasks_and_results_as_they_come(tmp_path: Path) -> None:
    from autoagent.batch.results import ResultsWriter, hold_results
    from autoagent.serve.page import BatchFiles

    tasks, results = tmp_path / "tasks.jsonl", tmp_path / "results.jsonl"
    tasks.write_text('{"id": "a", "task": "first"}\n{"id": "b", "task": "second"}\n', encoding="utf-8")
    app = create_app(SETTINGS, Access(token=TOKEN), batch=BatchFiles(results, tasks))
    http = TestClient(app, base_url=BASE_URL, headers={"Authorization": f"Bearer {TOKEN}"})
    assert 'id="batch" aria-labelledby="batch-heading">' in http.get("/").text  # shown, not hidden
    waiting = http.get("/ui/batch").json()
    assert [(task["id"], task["state"]) for task in waiting["tasks"]] == [("a", "waiting"), ("b", "waiting")]
    assert waiting["done"] == 0 and not waiting["running"]

    results.touch()
    with hold_results(results):  # a batch is running on it, and one result came in
        writer = ResultsWriter(results)
        writer.write({"id": "b", "task": "second", "finished": True, "stop_reason": "finished", "answer": "2"})
        writer.close()
        running = http.get("/ui/batch").json()
    assert running["running"] and running["done"] == 1
    assert running["tasks"][1] == {"id": "b", "task": "second", "state": "finished", "answer": "2", "done": True}
    assert not http.get("/ui/batch").json()["running"]

    plain = TestClient(create_app(SETTINGS, Access(token=TOKEN)), base_url=BASE_URL,
                       headers={"Authorization": f"Bearer {TOKEN}"})
    assert 'aria-labelledby="batch-heading" hidden' in plain.get("/").text and plain.get("/ui/batch").status_code == 404
