"""The whole loop on the real embedded model, in each protocol and in plan mode.

The same weights give different tokens on different CPUs, so these check rates over a few tasks and properties
every good run has (a finished run rests on a tool that worked; the answer is not format JSON), never one
trajectory. Each agent has the coach, as the CLI gives the embedded model (`--coach auto`).
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from autoagent import AutoGPT, PlanAndExecute
from autoagent.coach import Coach
from autoagent.llm.local import ChatLocalLlama
from autoagent.loop.answers import is_format_json
from autoagent.steps import RunResult, StepKind
from autoagent.tools import default_tools

# Several whole runs a test: minutes on 2 busy cores, so more than the suite's default 600 s.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

TASKS = [  # (task, a number the right answer states, which the task does not contain)
    ("What is 1234 * 5678 + 17?", "7006669"),
    ("What is 15% of 2480?", "372"),
    ("How many seconds are there in 9 days?", "777600"),
]


def _report(label: str, result: RunResult) -> None:
    seconds = [step.seconds for step in result.steps] or [0.0]
    print(f"\n[measure] {label}: {result.stop_reason.value}, {len(result.steps)} steps, "
          f"{statistics.median(seconds):.2f} s median per step, {result.seconds:.1f} s in all, "
          f"answer {result.answer[:60]!r}")


def _fresh_model(local_weights: Path) -> ChatLocalLlama:
    llm = ChatLocalLlama(model_path=str(local_weights))
    llm.llama().reset()  # as in a fresh process: what an earlier test left in the shared KV cache shifts the batches
    return llm


def _right(result: RunResult, expected: str) -> bool:
    return expected in result.answer.replace(",", "")


def _earned(result: RunResult) -> bool:
    """A finished run rests on a tool that worked, and its answer is prose, not the reply format."""
    worked = any(step.kind is StepKind.ACTION and step.success for step in result.steps)
    return not result.finished or (worked and not is_format_json(result.answer))


@pytest.mark.parametrize(("protocol", "at_least"), [("json", 2), ("tools", 1), ("react", 1)])
def test_arithmetic_tasks_on_the_embedded_model(protocol: str, at_least: int, local_weights: Path,
                                                 tmp_path: Path) -> None:
    agent = AutoGPT(llm=_fresh_model(local_weights), tools=default_tools(tmp_path / "workspace"),
                    compact_thoughts=True, protocol=protocol, max_thought_steps=5, advisors=[Coach()])
    results = []
    for task, expected in TASKS:
        result = agent.execute(task)
        _report(f"{protocol}: {task}", result)
        results.append((result, expected))

    assert sum(_right(result, expected) for result, expected in results) >= at_least
    assert all(_earned(result) for result, _ in results)


def test_writing_a_file_on_the_embedded_model(local_weights: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    agent = AutoGPT(llm=_fresh_model(local_weights), tools=default_tools(workspace), compact_thoughts=True,
                    max_thought_steps=5, advisors=[Coach()])

    result = agent.execute("Write the word hello into a file named hi.txt.")

    _report("write", result)
    written = workspace / "hi.txt"
    assert _earned(result)
    assert not result.finished or (written.is_file() and "hello" in written.read_text().lower())


def test_plan_mode_on_the_embedded_model(local_weights: Path, tmp_path: Path) -> None:
    agent = PlanAndExecute(llm=_fresh_model(local_weights), tools=default_tools(tmp_path / "workspace"),
                           advisors=[Coach()])
    results = []
    for task, expected in TASKS:
        result = agent.execute(task)
        _report(f"plan: {task}", result)
        results.append((result, expected))

    # The 0.5B model often plans a needless step after the right one (calculator, then read_file of its result),
    # which fails the run: what any good plan shows is a step that computed the value.
    computed = [any(step.success and expected in step.observation.replace(",", "") for step in result.steps)
                for result, expected in results]
    assert sum(computed) >= 1
    assert all(not is_format_json(result.answer) for result, _ in results)
