"""The whole loop on the real embedded model: the README's calculator task."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.llm.local import ChatLocalLlama
from autoagent.steps import StopReason
from autoagent.tools import default_tools

pytestmark = pytest.mark.slow


def test_calculator_task_on_the_embedded_model(local_weights: Path, tmp_path: Path) -> None:
    llm = ChatLocalLlama(model_path=str(local_weights))
    agent = AutoGPT(llm=llm, tools=default_tools(tmp_path / "workspace"), compact_thoughts=True)

    result = agent.execute("What is 1234 * 5678 + 17?")

    assert "7006669" in result.answer
    assert result.stop_reason is StopReason.FINISHED
    calls = [step.action.name for step in result.steps if step.action]
    assert calls[0] == "calculator" and result.steps[0].observation == "7006669"
    seconds = [step.seconds for step in result.steps]
    print(f"\n[measure] {len(result.steps)} steps, {statistics.median(seconds):.2f} s median per step, "
          f"{result.seconds:.1f} s in all, {result.usage.total_tokens} tokens over {result.usage.calls} calls")
