"""MCP tools: the test stdio server started from an mcpServers file, its tools called by a scripted model."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import BaseTool

from autoagent import AutoGPT
from autoagent.acting.approval import is_read_only
from autoagent.acting.mcp import close_mcp_servers, load_mcp_tools, read_mcp_config
from autoagent.errors import ConfigurationError

from .scripted import ScriptedChatModel, act, call

SERVER = str(Path(__file__).with_name("mcp_server.py"))


def server_entry(name: str = "test") -> dict[str, Any]:
    return {"command": sys.executable, "args": [SERVER, name]}


def config(tmp_path: Path, servers: Any) -> Path:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": servers}) if not isinstance(servers, str) else servers)
    return path


@pytest.fixture(autouse=True)
def stop_servers() -> Iterator[None]:
    yield
    close_mcp_servers()


@pytest.fixture
def mcp_tools(tmp_path: Path) -> dict[str, BaseTool]:
    return {tool.name: tool for tool in load_mcp_tools(config(tmp_path, {"test": server_entry()}))}


def test_the_servers_tools_are_loaded_with_their_schemas_and_approval_marks(mcp_tools: dict[str, BaseTool]) -> None:
    assert sorted(mcp_tools) == ["add", "count", "echo", "fail"]
    assert mcp_tools["add"].description == "Add two integers."
    assert mcp_tools["add"].tool_call_schema["required"] == ["a", "b"]  # type: ignore[index]
    assert is_read_only(mcp_tools["add"])  # the server's readOnlyHint
    assert not is_read_only(mcp_tools["echo"])  # no hint: side-effecting, so it asks


def test_the_tools_run_synchronously_from_any_thread_in_one_session(mcp_tools: dict[str, BaseTool]) -> None:
    assert mcp_tools["add"].invoke({"a": 2, "b": 40}) == "42"
    results: list[Any] = []
    worker = threading.Thread(target=lambda: results.append(mcp_tools["count"].invoke({})))
    worker.start()
    worker.join(30)
    assert results == ["1"]
    assert mcp_tools["count"].invoke({}) == "2"  # the same server process kept its state


def test_a_scripted_model_calls_the_mcp_tools_through_the_agent(mcp_tools: dict[str, BaseTool]) -> None:
    llm = ScriptedChatModel(replies=[
        act("add", a=19, b=23), act("echo", text="hello MCP"), act("fail", reason="out of paper"), act("FINISH"),
        act("FINISH"), "19 + 23 = 42",  # the first FINISH, right after the failure, is sent back once
    ])
    agent = AutoGPT(llm=llm, tools=list(mcp_tools.values()))

    run = agent.execute("add 19 and 23, then say hello")

    assert run.finished and run.answer == "19 + 23 = 42"
    assert [step.observation for step in run.steps[:2]] == ["42", "hello MCP"]
    assert not run.steps[2].success
    assert run.steps[2].observation.startswith("fail failed: ") and "out of paper" in run.steps[2].observation
    assert "add(a: integer, b: integer): Add two integers." in llm.prompts[0]


def test_native_tool_calling_sees_the_mcp_schemas(mcp_tools: dict[str, BaseTool]) -> None:
    llm = ScriptedChatModel(replies=[call("add", "c1", a=1, b=2), call("final_answer", "c2", answer="3")])
    agent = AutoGPT(llm=llm, tools=list(mcp_tools.values()), protocol="tools")

    run = agent.execute("1 + 2")

    assert run.answer == "3" and run.steps[0].observation == "3"
    bound = {schema["function"]["name"] for schema in llm.bound_tools}
    assert bound == {"add", "echo", "count", "fail", "final_answer"}


def test_names_two_servers_share_are_prefixed(tmp_path: Path) -> None:
    tools = load_mcp_tools(config(tmp_path, {"one": server_entry("one"), "two": server_entry("two")}))
    names = sorted(tool.name for tool in tools)
    assert names == sorted(f"{server}_{name}" for server in ("one", "two") for name in ("add", "count", "echo", "fail"))
    by_name = {tool.name: tool for tool in tools}
    assert [by_name["one_count"].invoke({}), by_name["one_count"].invoke({}), by_name["two_count"].invoke({})] == [
        "1", "2", "1"]


@pytest.mark.parametrize(
    ("servers", "expected"),
    [
        ("{not json", "MCP config {path}: not valid JSON ("),
        ('{"servers": {}}', 'MCP config {path}: expected {{"mcpServers": {{"<name>": {{"command": ..., '),
        ({"x": {"args": []}}, "MCP config {path}: server 'x' has neither a command (stdio) nor a url (HTTP)"),
        ({"x": {"command": "run", "args": "--flag"}}, "MCP config {path}: server 'x': args must be a list of strings"),
        ({"x": {"url": "http://127.0.0.1:1/mcp", "transport": "pigeon"}},
         "MCP config {path}: server 'x': unknown transport 'pigeon' (use http or sse)"),
    ],
)
def test_a_bad_config_is_one_line(tmp_path: Path, servers: Any, expected: str) -> None:
    path = config(tmp_path, servers)
    with pytest.raises(ConfigurationError) as caught:
        read_mcp_config(path)
    assert str(caught.value).startswith(expected.format(path=path))


def test_a_missing_config_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"^MCP config .*nowhere\.json: cannot be read \(No such file"):
        load_mcp_tools(tmp_path / "nowhere.json")


def test_http_entries_become_http_connections(tmp_path: Path) -> None:
    connections = read_mcp_config(config(tmp_path, {
        "web": {"url": "http://127.0.0.1:8931/mcp", "headers": {"Authorization": "Bearer x"}},
        "old": {"url": "http://127.0.0.1:8932/sse"},
    }))
    assert connections["web"] == {"transport": "streamable_http", "url": "http://127.0.0.1:8931/mcp",
                                  "headers": {"Authorization": "Bearer x"}}
    assert connections["old"]["transport"] == "sse"


def test_a_server_that_fails_to_start_is_named(tmp_path: Path) -> None:
    crash = {"command": sys.executable, "args": ["-c", "import sys; sys.exit(3)"]}
    with pytest.raises(ConfigurationError) as caught:
        load_mcp_tools(config(tmp_path, {"good": server_entry(), "crashy": crash}))
    message = str(caught.value)
    assert message.startswith("MCP server 'crashy' failed to start: ")
    assert message.endswith(f"(run it by hand to see why: {sys.executable} -c 'import sys; sys.exit(3)')")


def test_a_command_that_does_not_exist_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"^MCP server 'ghost' failed to start: FileNotFoundError"):
        load_mcp_tools(config(tmp_path, {"ghost": {"command": str(tmp_path / "no-such-server"), "args": []}}))
