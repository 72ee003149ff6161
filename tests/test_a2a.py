"""A2A on `autoagent serve`, driven by the official a2a-sdk client against a real server process: it reads the card,
streams a scripted run to its answer, answers an approval (INPUT_REQUIRED, then the next message), shows an unsure
answer as unsure, gets and lists tasks, and cancels a task with its transcript kept."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.client import ClientConfig, create_client
from a2a.helpers import get_message_text
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    StreamResponse,
    Task,
    TaskState,
)
from google.protobuf.json_format import MessageToDict

from autoagent.transcripts.reader import load_transcript

from .docs_blocks import ROOT, blocks
from .fake_openai import FakeOpenAI, Hold, Text
from .scripted import act
from .test_serve_client import free_port, wait_until_serving

pytestmark = pytest.mark.timeout(120)
TOKEN = "a2a-test-token-0123456789abcdef"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    yield server
    server.close()


@contextlib.contextmanager
def serving(model: FakeOpenAI, home: Path, *more: str) -> Iterator[str]:
    """A real `autoagent serve` on the scripted model; its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "AUTOAGENT_HOME": str(home), "AUTOAGENT_SERVE_TOKEN": TOKEN, "OPENAI_API_KEY": "sk-test"}
    server = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--port", str(port), "--model",
                               "openai:gpt-4o-mini", "--base-url", model.base_url, "--no-memory", "--max-steps", "4",
                               *more], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_serving(url, TOKEN, server)
        yield url
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    assert "Warning" not in errors, errors  # nothing of the SDKs' reaches the user


@pytest.fixture
def served(model: FakeOpenAI, tmp_path: Path) -> Iterator[str]:
    with serving(model, tmp_path) as url:
        yield url


def message(text: str, task_id: str = "") -> SendMessageRequest:
    return SendMessageRequest(message=Message(role=Role.ROLE_USER, parts=[Part(text=text)],
                                              message_id=str(uuid.uuid4()), task_id=task_id or None))


async def talk(url: str, *requests: SendMessageRequest, streaming: bool = True) -> list[list[StreamResponse]]:
    """Each request's responses, sent one after another (a request without a task id goes on the last task)."""
    async with httpx.AsyncClient(headers=BEARER, timeout=60) as http:
        client = await create_client(url, ClientConfig(httpx_client=http, streaming=streaming))
        heard: list[list[StreamResponse]] = []
        task_id = ""
        for request in requests:
            if heard and not request.message.task_id:
                request.message.task_id = task_id
            heard.append([response async for response in client.send_message(request)])
            task_id = last_task(heard[-1]).id
        await client.close()
        return heard


def last_task(responses: list[StreamResponse]) -> Task:
    """The task as the last response that carries it tells it."""
    return [response.task for response in responses if response.HasField("task")][-1] if any(
        response.HasField("task") for response in responses) else Task(id=responses[-1].status_update.task_id)


def states(responses: list[StreamResponse]) -> list[str]:
    return [TaskState.Name(response.status_update.status.state).removeprefix("TASK_STATE_")
            for response in responses if response.HasField("status_update")]


def artifacts(responses: list[StreamResponse]) -> dict[str, Any]:
    return {response.artifact_update.artifact.name: response.artifact_update.artifact for response in responses
            if response.HasField("artifact_update")}


def test_the_card_names_the_interface_the_token_and_the_tools(served: str) -> None:
    assert httpx.get(f"{served}/.well-known/agent-card.json").status_code == 401
    card = httpx.get(f"{served}/.well-known/agent-card.json", headers=BEARER).json()
    assert card["supportedInterfaces"] == [{"url": f"{served}/a2a", "protocolBinding": "JSONRPC",
                                            "protocolVersion": "1.0"}]
    assert card["capabilities"]["streaming"] is True
    assert card["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["scheme"] == "bearer"
    skills = {skill["id"] for skill in card["skills"]}
    assert {"task", "calculator", "write_file"} <= skills


def test_a_streamed_run_reaches_its_answer(model: FakeOpenAI, served: str, tmp_path: Path) -> None:
    model.script(act("calculator", expression="6*7"), act("FINISH"), "42")
    [responses] = asyncio.run(talk(served, message("What is 6 * 7?")))

    assert responses[0].task.status.state == TaskState.TASK_STATE_SUBMITTED
    assert states(responses) == ["WORKING", "WORKING", "WORKING", "COMPLETED"]  # started, one per step, the end
    steps = [response.status_update.status.message for response in responses if response.HasField("status_update")
             and response.status_update.status.message.parts]
    assert get_message_text(steps[0]).startswith("step 1: calculator")  # a step's line, then its event as data
    assert MessageToDict(steps[0].parts[1].data)["type"] == "step_completed"
    answer = artifacts(responses)["answer"]
    assert answer.parts[0].text == "42"
    meta = MessageToDict(answer.metadata)
    assert meta["status"] == "finished" and meta["unsure"] is False
    assert load_transcript(meta["run_id"], tmp_path / "runs").status == "finished"

    async def read_back() -> tuple[Task, Any]:
        async with httpx.AsyncClient(headers=BEARER, timeout=60) as http:
            client = await create_client(served, ClientConfig(httpx_client=http))
            task_id = responses[-1].status_update.task_id
            return await client.get_task(GetTaskRequest(id=task_id)), await client.list_tasks(ListTasksRequest())

    task, listed = asyncio.run(read_back())
    assert task.status.state == TaskState.TASK_STATE_COMPLETED and task.artifacts[0].parts[0].text == "42"
    assert [found.id for found in listed.tasks] == [task.id]
    # the same task through the Agent Protocol, with its steps
    server_task = meta["task_id"]
    steps_ap = httpx.get(f"{served}/ap/v1/agent/tasks/{server_task}/steps", headers=BEARER).json()["steps"]
    assert steps_ap[-1]["is_last"] and steps_ap[-1]["output"] == "42"


def test_an_approval_is_input_required_and_the_next_message_answers_it(model: FakeOpenAI, served: str) -> None:
    model.script(act("write_file", path="answer.txt", content="42"), act("FINISH"), "I wrote 42 to answer.txt")
    asked, answered = asyncio.run(talk(served, message("Write 42 to answer.txt"), message("y")))

    assert states(asked)[-1] == "INPUT_REQUIRED"
    question = get_message_text(asked[-1].status_update.status.message)
    assert "write_file" in question and "y = yes" in question
    assert states(answered)[-1] == "COMPLETED"
    found = artifacts(answered)
    assert found["answer"].parts[0].text == "I wrote 42 to answer.txt"
    assert found["answer.txt"].parts[0].raw == b"42" and found["answer.txt"].parts[0].filename == "answer.txt"


def test_a_refusal_is_read_by_the_model(model: FakeOpenAI, served: str) -> None:
    model.script(act("write_file", path="answer.txt", content="42"), act("FINISH"), "I did not write it")
    _, answered = asyncio.run(talk(served, message("Write 42 to answer.txt"), message("no, do not write files")))

    assert states(answered)[-1] == "COMPLETED" and "answer.txt" not in artifacts(answered)
    assert "do not write files" in json.dumps(model.chat_requests[1].body)  # the feedback reached the model


def test_a_run_stopped_unsure_is_shown_unsure(model: FakeOpenAI, served: str) -> None:
    model.script(*[act("calculator", expression=f"{n}*7") for n in range(1, 5)], "partly: 28")
    [responses] = asyncio.run(talk(served, message("Multiply until done"), streaming=False))

    task = last_task(responses)
    assert task.status.state == TaskState.TASK_STATE_FAILED  # the step limit: not finished
    answer = task.artifacts[0]
    meta = MessageToDict(answer.metadata)
    assert meta["unsure"] is True and meta["status"] == "stopped" and meta["stop_reason"] == "max_steps"
    assert "step limit" in get_message_text(task.status.message)


def test_an_unverified_answer_is_completed_and_marked_unsure(model: FakeOpenAI, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "integer"}', encoding="utf-8")
    model.script(act("FINISH"), "forty-two", act("FINISH"), "still forty-two")  # twice not of the schema
    with serving(model, tmp_path, "--output-schema", str(schema)) as url:
        [responses] = asyncio.run(talk(url, message("What is 6 * 7?")))

    assert states(responses)[-1] == "COMPLETED"  # unverified is not a failure, and it is not hidden either
    answer = artifacts(responses)["answer"]
    assert answer.parts[0].text == "still forty-two"
    meta = MessageToDict(answer.metadata)
    assert meta["status"] == "unverified" and meta["unsure"] is True and meta["stop_reason"] == "unverified"


def test_a_cancelled_task_stops_its_run_and_keeps_its_transcript(model: FakeOpenAI, served: str,
                                                                 tmp_path: Path) -> None:
    hold = Hold(then=Text(act("calculator", expression="1+1")))
    model.script(act("calculator", expression="6*7"), hold, act("FINISH"), "42")

    async def cancel() -> Task:
        async with httpx.AsyncClient(headers=BEARER, timeout=60) as http:
            client = await create_client(served, ClientConfig(httpx_client=http, streaming=False))
            sent = message("What is 6 * 7?")
            sent.configuration.CopyFrom(SendMessageConfiguration(return_immediately=True))
            [response] = [response async for response in client.send_message(sent)]
            await asyncio.to_thread(hold.arrived.wait, 30)  # the run is in its second model call
            cancelled = await client.cancel_task(CancelTaskRequest(id=response.task.id))
            hold.release()
            return cancelled

    task = asyncio.run(cancel())
    assert task.status.state == TaskState.TASK_STATE_CANCELED
    [path] = (tmp_path / "runs").glob("*.jsonl")
    for _ in range(100):  # the step under way ends, then the run stops at its next model call
        transcript = load_transcript(path.stem, tmp_path / "runs")
        if transcript.status == "interrupted":
            break
        asyncio.run(asyncio.sleep(0.1))
    assert transcript.status == "interrupted" and transcript.resumable
    assert [step.observation for step in transcript.steps] == ["42", "2"]
    assert len(model.chat_requests) == 2


def test_the_python_example_of_the_docs_runs(model: FakeOpenAI, served: str, tmp_path: Path) -> None:
    [block] = [block for block in blocks(ROOT / "docs" / "a2a.md") if block.run_by == "tests/test_a2a.py"]
    model.script(act("calculator", expression="1234*5678+17"), act("FINISH"), "7006669")
    (tmp_path / "client.py").write_text(block.code, encoding="utf-8")
    port = served.rsplit(":", 1)[1]
    done = subprocess.run([sys.executable, str(tmp_path / "client.py"), port], capture_output=True, text=True,
                          env={**os.environ, "AUTOAGENT_SERVE_TOKEN": TOKEN}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("step 1: calculator")
    assert done.stdout.splitlines()[-1] == "answer: 7006669"


def test_a_message_too_long_is_refused_as_serve_refuses_it(served: str) -> None:
    from a2a.utils.errors import InvalidParamsError

    with pytest.raises(InvalidParamsError, match="100,000"):
        asyncio.run(talk(served, message("x" * 100_001)))
