"""The Agent Protocol's steps streamed: POST .../steps/stream runs the next step as POST .../steps does, its run's
events arriving as Server-Sent Events while it works, then the step itself; an approval pauses the stream's step
as it pauses the plain one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from autoagent.run_events import event_from_json

from .cli_backend import FakeBackend
from .scripted import act
from .test_serve import TASKS, client

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def streamed(http: Any, task_id: str, answer: str | None = None) -> list[tuple[str, Any]]:
    """The (event, data) pairs of one streamed step."""
    body = {"input": answer} if answer is not None else {}
    with http.stream("POST", f"{TASKS}/{task_id}/steps/stream", json=body) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    pairs = []
    for block in text.strip().split("\n\n"):
        kind, data = block.split("\n", 1)
        pairs.append((kind.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return pairs


def test_a_streamed_step_sends_its_events_then_the_step(backend: FakeBackend) -> None:
    backend.replies.extend([act("calculator", expression="6*7"), act("FINISH"), "42"])
    http = client()
    task = http.post(TASKS, json={"input": "What is 6 * 7?"}).json()

    first = streamed(http, task["task_id"])
    kinds = [kind for kind, _ in first]
    assert kinds == ["run_started", "model_call_started", "model_call_ended", "tool_started", "tool_ended",
                     "step_completed", "step"]
    for kind, data in first[:-1]:
        assert event_from_json(json.dumps(data)).type == kind  # each one an event of the documented form
    step = first[-1][1]
    assert step["name"] == "calculator" and not step["is_last"] and "observation: 42" in step["output"]
    assert http.get(f"{TASKS}/{task['task_id']}/steps/{step['step_id']}").json() == step  # stored as a plain one

    last = streamed(http, task["task_id"])
    assert [kind for kind, _ in last][-3:] == ["answer", "run_ended", "step"]
    assert last[-1][1]["is_last"] and last[-1][1]["output"] == "42"
    assert http.post(f"{TASKS}/{task['task_id']}/steps/stream", json={}).status_code == 409


def test_a_streamed_step_that_asks_for_approval_ends_at_the_question(backend: FakeBackend) -> None:
    backend.replies.extend([act("write_file", path="n.txt", content="hi"), act("FINISH"), "done"])
    http = client()
    task = http.post(TASKS, json={"input": "Write hi to n.txt"}).json()
    asking = streamed(http, task["task_id"])
    assert asking[-1][0] == "step" and asking[-1][1]["status"] == "running"
    assert [kind for kind, _ in asking][-2] == "approval_asked"
    answered = streamed(http, task["task_id"], "y")
    assert [kind for kind, _ in answered][:3] == ["approval_answered", "tool_ended", "step_completed"]
    assert answered[0][1]["allowed"] is True
