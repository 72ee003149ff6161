"""The coach puts right a failed program the model sends again (`Coach.repair`): the model is shown the program and
what it gave, once a program, and the mended program runs as the step."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.steps import RunResult, StepKind, StopReason
from autoagent.tools import make_python_tool
from autoagent.tools.sandbox import bwrap_problem

from .scripted import ScriptedChatModel

needs_bwrap = pytest.mark.skipif(bwrap_problem() is not None, reason="the python tool's sandbox (.ci/run installs it)")

FAILS = "Thought: multiply\n```python\nprint(six * 7)\n```"


def repaired_run(tmp_path: Path, coach: str, *replies: str) -> tuple[RunResult, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=[FAILS, FAILS, *replies])
    run = AutoGPT(coach=coach, protocol="code", llm=llm, tools=[make_python_tool(tmp_path)]).execute(
        "Work out 6 times 7 with a program.")
    return run, llm


@needs_bwrap
def test_a_failed_program_sent_again_is_put_right_once_shown_with_what_it_gave(tmp_path: Path) -> None:
    run, llm = repaired_run(tmp_path, "on", "```python\nprint(6 * 7)\n```", "Final Answer: 42")
    mended = run.steps[1]
    assert mended.check == "coach" and mended.success and mended.observation == "42"
    assert mended.action is not None and mended.action.args["code"] == "print(6 * 7)"
    asked = llm.prompts[2]
    assert "print(six * 7)" in asked and "NameError" in asked and "6 times 7" in asked
    assert run.finished and run.answer == "42"


@needs_bwrap
def test_a_program_is_put_right_only_once_and_not_without_the_coach(tmp_path: Path) -> None:
    again, _ = repaired_run(tmp_path, "on", "```python\nprint(seven * 6)\n```", FAILS, FAILS, FAILS)
    kinds = [step.kind for step in again.steps]
    assert kinds[:3] == [StepKind.ACTION, StepKind.ACTION, StepKind.REPEATED]  # the second time: the rethink note
    assert again.stop_reason is StopReason.LOOP_DETECTED
    same, _ = repaired_run(tmp_path, "on", "```python\nprint(six * 7)\n```", FAILS, "It failed.")  # given back
    assert [step.kind for step in same.steps][:2] == [StepKind.ACTION, StepKind.REPEATED]
    off, llm = repaired_run(tmp_path, "off", FAILS, "It failed.")
    assert [step.kind for step in off.steps] == [StepKind.ACTION, StepKind.REPEATED, StepKind.REPEATED]
    assert not any("failed:" in prompt and "```python block" in prompt for prompt in llm.prompts)  # nothing asked
