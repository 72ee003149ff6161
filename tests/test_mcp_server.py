"""`autoagent mcp`, driven by the official `mcp` client: over stdio and streamable HTTP it lists its tools, runs a
scripted task with a progress notification per step, asks for an approval through elicitation (and refuses a side
effect where the client cannot be asked), and a cancelled call stops the run with its transcript kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError

from autoagent.transcripts.reader import load_transcript

from .fake_openai import FakeOpenAI, Hold, Text
from .scripted import act
from .test_serve_client import free_port

pytestmark = pytest.mark.timeout(120)
TOKEN = "mcp-test-token-0123456789abcdef"
SOLVED = [act("calculator", expression="6*7"), act("FINISH"), "42"]
Run = Callable[[ClientSession], Awaitable[Any]]


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    yield server
    server.close()


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "AUTOAGENT_HOME": str(home), "OPENAI_API_KEY": "sk-test", "AUTOAGENT_MEMORY": "false"}


def server_args(model: FakeOpenAI, workspace: Path, *more: str) -> list[str]:
    return ["-m", "autoagent", "mcp", "--model", "openai:gpt-4o-mini", "--base-url", model.base_url,
            "--workspace", str(workspace), "--max-steps", "4", *more]


def over_stdio(home: Path, args: list[str], run: Run, elicitation: Any = None) -> Any:
    async def main() -> Any:
        parameters = StdioServerParameters(command=sys.executable, args=args, env=environment(home))
        async with stdio_client(parameters) as (read, write), \
                ClientSession(read, write, elicitation_callback=elicitation) as session:
            await session.initialize()
            return await run(session)

    return anyio.run(main)


async def solve(session: ClientSession) -> tuple[types.ListToolsResult, types.CallToolResult, list[Any]]:
    progress: list[tuple[float, float | None, str | None]] = []

    async def heard(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    tools = await session.list_tools()
    result = await session.call_tool("run_task", {"task": "What is 6 * 7?"}, progress_callback=heard)
    return tools, result, progress


def test_over_stdio_a_task_runs_with_a_progress_note_per_step(model: FakeOpenAI, tmp_path: Path) -> None:
    model.script(*SOLVED)
    tools, result, progress = over_stdio(tmp_path, server_args(model, tmp_path / "ws"), solve)

    by_name = {tool.name: tool for tool in tools.tools}
    assert sorted(by_name) == ["list_runs", "recall_memory", "run_task", "show_run"]
    assert by_name["run_task"].annotations.readOnlyHint is False and by_name["show_run"].annotations.readOnlyHint
    assert not result.isError and [block.text for block in result.content] == ["42"]
    report = result.structuredContent
    assert report["finished"] and report["answer"] == "42" and len(report["steps"]) == 2
    assert [(done, total) for done, total, _ in progress] == [(1, 4), (2, 4)]
    assert progress[0][2] == 'step 1: calculator {"expression": "6*7"} -> 42'

    async def read_back(session: ClientSession) -> tuple[Any, Any]:
        runs = await session.call_tool("list_runs", {})
        shown = await session.call_tool("show_run", {"run_id": report["run_id"]})
        return runs.structuredContent, shown.structuredContent

    runs, shown = over_stdio(tmp_path, server_args(model, tmp_path / "ws"), read_back)
    assert [run["run_id"] for run in runs["runs"]] == [report["run_id"]] and runs["runs"][0]["status"] == "finished"
    assert shown["task"] == "What is 6 * 7?" and [step["observation"] for step in shown["steps"]] == ["42", ""]


WRITE = [act("write_file", path="note.txt", content="hello"), act("FINISH"), "Wrote note.txt."]


def test_a_side_effect_is_asked_through_elicitation(model: FakeOpenAI, tmp_path: Path) -> None:
    asked: list[str] = []

    async def elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"allow": True, "feedback": ""})

    model.script(*WRITE)
    _, result, _ = over_stdio(tmp_path, server_args(model, tmp_path / "ws"), solve, elicitation=elicit)
    assert not result.isError and (tmp_path / "ws" / "note.txt").read_text() == "hello"
    assert len(asked) == 1 and "write_file" in asked[0] and "note.txt" in asked[0]


def test_a_client_that_cannot_be_asked_gets_side_effects_refused_unless_yes(model: FakeOpenAI,
                                                                             tmp_path: Path) -> None:
    model.script(*WRITE)
    _, result, _ = over_stdio(tmp_path, server_args(model, tmp_path / "ws"), solve)
    refused = result.structuredContent["steps"][0]
    assert not refused["success"] and "cannot be asked" in refused["observation"] and "--yes" in refused["observation"]
    assert not (tmp_path / "ws" / "note.txt").exists()

    model.script(*WRITE)
    _, allowed, _ = over_stdio(tmp_path, server_args(model, tmp_path / "ws2", "--yes"), solve)
    assert not allowed.isError and (tmp_path / "ws2" / "note.txt").read_text() == "hello"


def test_a_cancelled_call_stops_the_run_and_keeps_its_transcript(model: FakeOpenAI, tmp_path: Path) -> None:
    hold = Hold(then=Text(act("calculator", expression="1+1")))
    model.script(act("calculator", expression="6*7"), hold, act("FINISH"), "42")

    answers: list[str] = []

    async def call(session: ClientSession) -> None:
        try:
            await session.call_tool("run_task", {"task": "What is 6 * 7?"})
        except McpError as err:
            answers.append(err.error.message)

    async def cancel(session: ClientSession) -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(call, session)
            await anyio.to_thread.run_sync(hold.arrived.wait, 30)  # the run is in its second model call
            request_id = session._request_id - 1  # the call's id: the last one sent
            await session.send_notification(types.ClientNotification(types.CancelledNotification(
                params=types.CancelledNotificationParams(requestId=request_id, reason="the user stopped it"))))
            hold.release()
            await anyio.sleep(1)

    over_stdio(tmp_path, server_args(model, tmp_path / "ws"), cancel)
    assert answers == ["Request cancelled"]
    [path] = (tmp_path / "runs").glob("*.jsonl")
    transcript = load_transcript(path.stem, tmp_path / "runs")
    assert transcript.status == "interrupted" and transcript.resumable
    assert [step.observation for step in transcript.steps] == ["42", "2"]  # the step under way ended, no more
    assert len(model.chat_requests) == 2


def test_over_http_with_the_token_as_serve_has_it(model: FakeOpenAI, tmp_path: Path) -> None:
    model.script(*SOLVED)
    port = free_port()
    server = subprocess.Popen([sys.executable, *server_args(model, tmp_path / "ws", "--http", "--port", str(port))],
                              env={**environment(tmp_path), "AUTOAGENT_SERVE_TOKEN": TOKEN}, stderr=subprocess.PIPE,
                              text=True)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                refused = httpx.post(url, json={})
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
                time.sleep(0.2)
        assert refused.status_code == 401
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.post(url, json={}, headers={**bearer, "Host": "evil.example"}).status_code == 400
        assert httpx.post(url, json={}, headers={**bearer, "Origin": "http://evil.example"}).status_code == 403
        assert httpx.post(url, content=b"{" + b" " * (2 << 20) + b"}", headers={**bearer, "Content-Type":
                                                                              "application/json"}).status_code == 413

        async def main() -> Any:
            client = httpx.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
            async with client, streamable_http_client(url, http_client=client) as (read, write, _), \
                    ClientSession(read, write) as session:
                await session.initialize()
                return await solve(session)

        _, result, progress = anyio.run(main)
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert not result.isError and result.content[0].text == "42" and len(progress) == 2
    assert json.loads(json.dumps(result.structuredContent))["finished"]


def test_a_task_too_long_is_refused_as_serve_refuses_it(model: FakeOpenAI, tmp_path: Path) -> None:
    async def too_long(session: ClientSession) -> types.CallToolResult:
        return await session.call_tool("run_task", {"task": "x" * 100_001})

    result = over_stdio(tmp_path, server_args(model, tmp_path / "ws"), too_long)
    assert result.isError and "at most 100,000 are taken" in result.content[0].text
    assert model.chat_requests == []  # nothing ran
