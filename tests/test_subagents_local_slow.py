"""A router and a math agent on the real embedded model, both on one loaded model.

The same weights give different tokens on different CPUs, so this checks what every such run has (the sub-agent's
run is kept whole in the step that called it, and its usage is the router's), never one trajectory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.llm.local import ChatLocalLlama
from autoagent.loop.budget import Budget
from autoagent.tools import calculator

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def test_a_router_hands_arithmetic_to_a_math_agent_on_the_embedded_model(local_weights: Path) -> None:
    llm = ChatLocalLlama(model_path=str(local_weights))
    llm.llama().reset()
    math = AutoGPT(llm, tools=[calculator], agent_name="math", compact_thoughts=True, max_thought_steps=3)
    router = AutoGPT(llm, tools=[math.as_tool("math", "does arithmetic: give it the whole calculation")],
                     agent_name="router", agent_role="an assistant that hands arithmetic to the math agent",
                     compact_thoughts=True, max_thought_steps=4, budget=Budget(max_seconds=900))

    run = router.execute("What is 1234 * 5678 + 17?")

    print(f"\n[measure] {run.stop_reason.value}, {len(run.steps)} steps, {run.seconds:.1f} s, answer {run.answer!r}")
    calls = [step for step in run.steps if step.sub_run is not None]
    assert calls, "the router never called the math agent"
    assert all(step.sub_run.agent == "math" and step.sub_run.run.steps for step in calls)  # type: ignore[union-attr]
    below = sum(step.sub_run.run.usage.calls for step in calls)  # type: ignore[union-attr]
    assert run.usage.calls > below >= len(calls)  # the router's own calls, and every call of the math agent
