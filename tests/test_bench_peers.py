"""bench/peers: result lines in autoagent batch's shape, the runner's time limit and crash handling with a scripted
worker process, and (where smolagents is installed, as in bench/.venvs/peers) the tool adapter and step counting
with a scripted smolagents model."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bench.peers.process import WorkerProcess
from bench.peers.records import answer_text, task_record
from bench.peers.runner import Layout, Limits, folder_name, prepare_workspace, read_tasks, run_tasks, settled_ids

BATCH_FIELDS = ["id", "task", "run_id", "finished", "stop_reason", "stop_detail", "answer", "steps", "usage", "seconds",
                "workspace", "wall_seconds", "warnings"]

# A worker speaking the protocol, steered by the task text: "hang" never answers, "crash" exits mid-job.
SCRIPTED_WORKER = textwrap.dedent("""
    import json, sys, time
    def emit(event, **fields):
        print(json.dumps({"event": event, **fields}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        emit("started")
        emit("step", steps=1)
        if job["task"] == "hang":
            time.sleep(60)
        if job["task"] == "crash":
            sys.exit(3)
        record = {"id": job["id"], "task": job["task"], "run_id": "", "finished": True, "stop_reason": "finished",
                  "stop_detail": "", "answer": job["task"].upper(), "steps": 1, "usage": {}, "seconds": 0.1,
                  "workspace": job["workspace"], "wall_seconds": 0.1, "warnings": [], "agent": job["agent"],
                  "model": job["model"]}
        emit("result", record=record)
""")


def job(**fields: Any) -> dict[str, Any]:
    """A worker's job as the runner makes one."""
    return {"id": "t1", "task": "What is 2+2?", "workspace": "/tmp/w/t1", "agent": "smolagents-tools",
            "model": "m.gguf", **fields}


def test_a_record_has_the_batch_fields_in_order_then_agent_and_model() -> None:
    record = task_record(job(), stop_reason="finished", answer="4", steps=2, seconds=1.23456)
    assert list(record) == [*BATCH_FIELDS, "agent", "model"]
    assert record["finished"] is True and record["run_id"] == "" and record["seconds"] == 1.235
    assert record["usage"]["total_tokens"] == 0 and record["usage"]["estimated"] is False


@pytest.mark.parametrize("reason", ["max_steps", "timeout", "error"])
def test_only_a_finished_run_is_finished(reason: str) -> None:
    assert task_record(job(), stop_reason=reason, answer="4")["finished"] is False


def test_an_unknown_stop_reason_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown stop reason"):
        task_record(job(), stop_reason="done")


def test_answers_become_text() -> None:
    assert [answer_text(value) for value in (None, "x", 42, [1, 2])] == ["", "x", "42", "[1, 2]"]


def test_task_lines_are_read_with_their_ids(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "a", "task": "x"}\n\n{"task": "乘法"}\n', encoding="utf-8")
    assert [(t["id"], t["task"]) for t in read_tasks(tasks)] == [("a", "x"), ("3", "乘法")]
    tasks.write_text('{"id": "a", "task": "x"}\n{"id": "a", "task": "y"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="repeat"):
        read_tasks(tasks)


def test_a_workspace_is_fresh_and_keeps_its_files_inside(tmp_path: Path) -> None:
    workspace = tmp_path / "w" / folder_name("a/b c")
    prepare_workspace(workspace, {"notes/a.txt": "one"})
    (workspace / "left.txt").write_text("from a killed attempt")
    prepare_workspace(workspace, {"notes/a.txt": "two"})
    assert sorted(p.name for p in workspace.rglob("*")) == ["a.txt", "notes"]
    assert (workspace / "notes/a.txt").read_text() == "two" and workspace.name == "a_b_c"
    with pytest.raises(ValueError, match="outside"):
        prepare_workspace(workspace, {"../escape.txt": "x"})


def run_scripted(tmp_path: Path, texts: list[str], task_seconds: float = 30.0) -> list[dict[str, Any]]:
    """Run tasks through the runner with SCRIPTED_WORKER; the records, as written to the results file."""
    layout = Layout(tmp_path / "out" / "results.jsonl")
    layout.out.parent.mkdir()
    tasks: list[dict[str, Any]] = [{"id": f"t{n}", "task": text, "files": {"in.txt": text}}
                                   for n, text in enumerate(texts, 1)]
    started: list[WorkerProcess] = []

    def start() -> WorkerProcess:
        started.append(WorkerProcess([sys.executable, "-c", SCRIPTED_WORKER], log=sys.stderr.buffer))
        return started[-1]

    records = run_tasks(tasks, start, agent="smolagents-tools", model="m.gguf", layout=layout,
                        limits=Limits(task_seconds=task_seconds, ready_seconds=30.0))
    assert all(worker.process.poll() is not None for worker in started), "a worker was left running"
    written = [json.loads(line) for line in layout.out.read_text(encoding="utf-8").splitlines()]
    assert written == records and settled_ids(layout.out) == {t["id"] for t in tasks}
    assert all((layout.workspaces / t["id"] / "in.txt").read_text() == t["task"] for t in tasks)
    return records


def test_results_come_back_in_order_from_one_worker(tmp_path: Path) -> None:
    records = run_scripted(tmp_path, ["one", "two"])
    assert [(r["answer"], r["stop_reason"], r["agent"]) for r in records] == [
        ("ONE", "finished", "smolagents-tools"), ("TWO", "finished", "smolagents-tools")]
    assert records[0]["workspace"] == str((tmp_path / "out" / "results.workspaces" / "t1").resolve())


def test_a_task_past_its_time_is_stopped_and_the_next_gets_a_fresh_worker(tmp_path: Path) -> None:
    records = run_scripted(tmp_path, ["hang", "after"], task_seconds=1.0)
    assert [r["stop_reason"] for r in records] == ["timeout", "finished"]
    assert records[0]["finished"] is False and records[0]["steps"] == 1 and records[0]["seconds"] >= 1.0
    assert records[1]["answer"] == "AFTER"


def test_a_worker_that_dies_is_an_error_record_and_the_batch_goes_on(tmp_path: Path) -> None:
    records = run_scripted(tmp_path, ["crash", "after"])
    assert records[0]["stop_reason"] == "error" and "exited with 3" in records[0]["stop_detail"]
    assert records[1]["stop_reason"] == "finished"


def test_the_command_line_says_what_it_runs() -> None:
    from bench.peers.__main__ import parser

    text = parser().parse_args(["run", "--agent", "smolagents-code", "--tasks", "t", "--out", "o"])
    assert (text.max_steps, text.task_timeout, text.threads, text.model_path) == (8, 300.0, 2, None)
    with pytest.raises(SystemExit):
        parser().parse_args(["run", "--agent", "langchain", "--tasks", "t", "--out", "o"])


# smolagents itself: only where it is installed (bench/.venvs/peers), never in the project's venv.


def scripted_model(replies: list[tuple[str, dict[str, Any]]]) -> Any:
    """A smolagents model that calls the given tools in order, whatever it is sent."""
    smolagents_models = pytest.importorskip("smolagents.models")
    from smolagents.monitoring import TokenUsage

    model_base: Any = smolagents_models.Model

    class Scripted(model_base):
        def generate(self, messages: Any, stop_sequences: Any = None, response_format: Any = None,
                     tools_to_call_from: Any = None, **kwargs: Any) -> Any:
            name, arguments = replies.pop(0)
            call = smolagents_models.ChatMessageToolCall(
                function=smolagents_models.ChatMessageToolCallFunction(name=name, arguments=arguments),
                id=f"call_{len(replies)}", type="function")
            return smolagents_models.ChatMessage(role=smolagents_models.MessageRole.ASSISTANT, content="",
                                                 tool_calls=[call], token_usage=TokenUsage(10, 2))

    return Scripted(model_id="scripted")


def test_autoagents_tools_run_under_smolagents_tool_calling_agent(tmp_path: Path) -> None:
    pytest.importorskip("smolagents")
    from bench.peers.adapters import build_agent, peer_tools
    from bench.peers.worker import count_steps, usage

    (tmp_path / "n.txt").write_text("7")
    model = scripted_model([("list_files", {}), ("read_file", {"path": "n.txt"}),
                            ("write_file", {"path": "out.txt", "content": "14"}), ("final_answer", {"answer": 14})])
    agent = build_agent("smolagents-tools", peer_tools(tmp_path), model, max_steps=8)
    result = agent.run("Double n.txt into out.txt", return_full_result=True)
    assert (result.state, result.output, (tmp_path / "out.txt").read_text()) == ("success", 14, "14")
    assert count_steps(agent) == 4 and usage(agent)["calls"] == 4 and usage(agent)["input_tokens"] == 40


def test_a_forced_answer_after_the_step_limit_is_no_step(tmp_path: Path) -> None:
    pytest.importorskip("smolagents")
    from bench.peers.adapters import build_agent, peer_tools
    from bench.peers.worker import count_steps

    model = scripted_model([("calculator", {"expression": "1+1"})] * 2 + [("final_answer", {"answer": "2"})])
    agent = build_agent("smolagents-tools", peer_tools(tmp_path), model, max_steps=2)
    result = agent.run("1+1?", return_full_result=True)
    assert result.state == "max_steps_error" and count_steps(agent) == 2


def test_a_code_agents_positional_call_reaches_every_argument(tmp_path: Path) -> None:
    pytest.importorskip("smolagents")
    from bench.peers.adapters import peer_tools

    tools = {tool.name: tool for tool in peer_tools(tmp_path)}
    tools["write_file"]("a.txt", "hi")
    assert (tmp_path / "a.txt").read_text() == "hi"
    assert "a.txt" in tools["list_files"]()  # its path has a default: left out, it is the workspace


def test_the_worker_turns_a_run_into_a_record_events_and_a_transcript(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("smolagents")
    import io

    from bench.peers import worker

    model = scripted_model([("calculator", {"expression": "2+2"})] * 2 + [("final_answer", {"answer": "4"})])
    monkeypatch.setattr(worker, "server_model", lambda *args, **kwargs: model)
    monkeypatch.setattr(worker, "warm_up", lambda *args: None)  # no server here
    stream = io.StringIO()
    transcript = tmp_path / "steps" / "t1.json"
    record = worker.run_job(job(workspace=str(tmp_path), transcript=str(transcript)), "http://127.0.0.1:9/v1", "m",
                            max_steps=2, events=worker.Events(stream))
    assert (record["stop_reason"], record["finished"], record["steps"], record["usage"]["calls"]) == (
        "max_steps", False, 2, 3)
    assert "step limit" in record["stop_detail"] and list(record) == [*BATCH_FIELDS, "agent", "model"]
    events = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(e["event"], e.get("steps")) for e in events] == [("started", None), ("step", 1), ("step", 2),
                                                               ("step", 2)]
    steps = json.loads(transcript.read_text(encoding="utf-8"))
    assert [step["observations"] for step in steps[:2]] == ["4", "4"] and len(steps) == 3
