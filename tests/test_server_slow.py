"""The CLI against a real OpenAI-compatible server: llama-cpp-python's `llama_cpp.server` serving the bundled weights
on a free loopback port (tests/llama_server.py), in each protocol on a small task set. Same weights give different
tokens on different CPUs, so the checks are rates and properties, never one trajectory."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from autoagent.commands import exit_codes
from autoagent.llm.call import invoke_model
from autoagent.steps import Usage

from .llama_server import LlamaServer, server_installed

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not server_installed(), reason="needs llama-cpp-python[server]")]

TASKS = [("What is 1234 * 5678 + 17?", "7006669"), ("What is 15% of 240?", "36")]
PROTOCOLS = ["json", "tools", "react"]
RUN_LIMIT = 600.0  # seconds a run may take: 4 steps of at most 256 tokens, at ~2 tokens/s on 2 overloaded cores


@pytest.fixture(scope="module")
def server(local_weights: Path) -> Iterator[LlamaServer]:
    """One server for the module, stopped by its pid afterwards."""
    with LlamaServer.start(local_weights) as running:
        yield running
    assert running.process.poll() is not None


def run_cli(server: LlamaServer, task: str, protocol: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str],
                                                                                      float]:
    """`autoagent --json` as a user runs it against the server; the process and its wall time."""
    command = [sys.executable, "-m", "autoagent", "--model", f"openai:{server.alias}", "--base-url", server.base_url,
               "--no-memory", "--yes", "--json", "--protocol", protocol, "--max-steps", "4",
               "--max-reply-tokens", "256", "--workspace", str(tmp_path / protocol), task]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=RUN_LIMIT + 60,
                            env={**_environment(), "AUTOAGENT_HOME": str(tmp_path / "home")})
    return result, time.monotonic() - started


def _environment() -> dict[str, str]:
    import os

    return {name: value for name, value in os.environ.items() if not name.startswith(("AUTOAGENT_", "OPENAI_"))}


@pytest.mark.timeout(2 * RUN_LIMIT + 120)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_each_protocol_runs_the_task_set_through_the_server(server: LlamaServer, protocol: str,
                                                           tmp_path: Path) -> None:
    answers = []
    for task, expected in TASKS:
        result, seconds = run_cli(server, task, protocol, tmp_path)
        assert result.returncode in (exit_codes.OK, exit_codes.NOT_FINISHED), result.stderr[-2000:]
        assert "Traceback" not in result.stderr
        record = json.loads(result.stdout)
        steps = record["steps"]
        assert steps and seconds < RUN_LIMIT, f"{len(steps)} steps in {seconds:.0f} s"
        print(f"\n[measure] {protocol}: {task!r} -> {record['answer'][:60]!r} ({record['stop_reason']}), "
              f"{len(steps)} steps, {seconds:.1f} s, {seconds / len(steps):.1f} s a step")
        answers.append(expected in record["answer"].replace(",", ""))
    assert any(answers), f"{protocol}: no task of {len(TASKS)} answered right"


def test_the_server_stops_a_capped_reply_at_the_cap(server: LlamaServer) -> None:
    from autoagent.llm import load_chat_model

    model = load_chat_model(f"openai:{server.alias}", base_url=server.base_url)
    started = time.monotonic()
    reply = invoke_model(model, [HumanMessage("Count from 1 to 500, one number a line.")], Usage(), reply_tokens=8)
    assert reply.response_metadata["finish_reason"] == "length"
    assert len(reply.text.split()) <= 8 and time.monotonic() - started < 120  # 30 s measured on 2 busy cores


def test_a_schema_held_reply_is_valid_json_in_llama_cpp_pythons_form(server: LlamaServer) -> None:
    from autoagent.llm import load_chat_model

    model = load_chat_model(f"openai:{server.alias}", base_url=server.base_url)
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}
    reply = invoke_model(model.held_to_json_schema(schema),  # type: ignore[attr-defined]
                         [HumanMessage("What is 6 * 7? Reply in JSON.")], Usage(), reply_tokens=40)
    assert isinstance(json.loads(reply.text)["answer"], int)
    assert model._schema_form == "json_object"  # type: ignore[attr-defined]  # its server refused json_schema


def test_long_term_memory_embeds_through_the_servers_openai_endpoint(local_weights: Path, tmp_path: Path) -> None:
    from autoagent.memory.long_term import LongTermMemory
    from autoagent.steps import RunResult, StopReason

    from .scripted import ScriptedChatModel

    past = [("What is 1234 * 5678 + 17?", "Multiplied 1234 by 5678 and added 17 with the calculator: 7006669."),
            ("What is the weather in Paris today?", "Searched the web for the weather in Paris: sunny, 21 C.")]
    with LlamaServer.start(local_weights, embedding=True) as server:  # a second server: mean-pooled embeddings
        memory = LongTermMemory.open(f"openai:{server.alias}", base_url=server.base_url, directory=tmp_path / "m")
        for task, summary in past:
            result = RunResult(task=task, answer=summary.rsplit(": ", 1)[-1], stop_reason=StopReason.FINISHED)
            assert memory.remember(result, ScriptedChatModel(replies=[summary]), "qwen") is not None
        recalled = memory.recall("What is 99 * 12 + 5?")
    assert recalled and "1234" in recalled[0].page_content  # the arithmetic run first, by the server's vectors
