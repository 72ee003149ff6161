"""The whole loop on the real embedded model: the README's calculator task, in each protocol and in plan mode."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from autoagent import AutoGPT, PlanAndExecute
from autoagent.llm.local import ChatLocalLlama
from autoagent.steps import RunResult, StopReason
from autoagent.tools import default_tools

pytestmark = pytest.mark.slow

TASK = "What is 1234 * 5678 + 17?"


def _report(label: str, result: RunResult) -> None:
    seconds = [step.seconds for step in result.steps]
    print(f"\n[measure] {label}: {result.stop_reason.value}, {len(result.steps)} steps, "
          f"{statistics.median(seconds):.2f} s median per step, {result.seconds:.1f} s in all, "
          f"{result.usage.total_tokens} tokens over {result.usage.calls} calls")


@pytest.mark.parametrize("protocol", ["json", "tools", "react"])
def test_calculator_task_on_the_embedded_model(protocol: str, local_weights: Path, tmp_path: Path) -> None:
    llm = ChatLocalLlama(model_path=str(local_weights))
    llm.llama().reset()  # as in a fresh process: what an earlier test left in the shared KV cache shifts the batches
    agent = AutoGPT(llm=llm, tools=default_tools(tmp_path / "workspace"), compact_thoughts=True, protocol=protocol)

    result = agent.execute(TASK)

    _report(protocol, result)
    assert "7006669" in result.answer
    first = result.steps[0]
    assert first.action is not None and first.action.name == "calculator" and first.observation == "7006669"
    if protocol == "json":  # the default protocol finishes cleanly in two steps
        assert result.stop_reason is StopReason.FINISHED and len(result.steps) == 2


def test_plan_mode_starts_with_the_calculator(local_weights: Path, tmp_path: Path) -> None:
    llm = ChatLocalLlama(model_path=str(local_weights))
    llm.llama().reset()
    agent = PlanAndExecute(llm=llm, tools=default_tools(tmp_path / "workspace"))

    result = agent.execute(TASK)

    _report("plan", result)
    first = result.steps[0]
    assert first.action is not None and first.action.name == "calculator" and first.observation == "7006669"
