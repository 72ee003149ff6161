"""`--protocol code`: each step a Python program in a fenced block, run by the python tool; a Final Answer ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.errors import ConfigurationError
from autoagent.steps import StepKind, StopReason
from autoagent.tools import make_python_tool
from autoagent.transcripts.writer import step_from_record, step_record

from .scripted import ScriptedChatModel


def agent_with(tmp_path: Path, *replies: str, **kwargs: object) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    python = make_python_tool(tmp_path, sandbox="none")
    return AutoGPT(llm=llm, tools=[python], protocol="code", **kwargs), llm  # type: ignore[arg-type]


PROGRAM = "Thought: I add them with a program.\n```python\nprint(sum([3, 5, 11]))\n```"


def test_a_program_runs_and_its_output_is_shown_then_the_final_answer_stands(tmp_path: Path) -> None:
    agent, llm = agent_with(tmp_path, PROGRAM, "Thought: I know the answer.\nFinal Answer: The total is 19.")
    run = agent.execute("Add 3, 5 and 11.")
    assert run.finished and run.answer == "The total is 19."
    first = run.steps[0]
    assert first.action.name == "python" and first.action.args == {"code": "print(sum([3, 5, 11]))"}  # type: ignore[union-attr]
    assert first.observation == "19" and first.decision.thought.text == "I add them with a program."  # type: ignore[union-attr]
    assert "```python\nprint(sum([3, 5, 11]))\n```\nObservation: 19" in llm.prompts[1]
    assert "Final Answer: the answer to the task" in llm.prompts[0]
    assert llm.stops[0] == ["\nObservation:"]
    assert len(llm.calls) == 2  # no finish prompt: the answer is the model's own


def test_a_task_needing_no_program_finishes_at_once(tmp_path: Path) -> None:
    agent, llm = agent_with(tmp_path, "Thought: I know this.\nFinal Answer: Jupiter")
    run = agent.execute("Which planet is the largest?")
    assert run.finished and run.answer == "Jupiter" and len(llm.calls) == 1


def test_a_program_written_before_a_final_answer_runs_first_and_the_answer_waits(tmp_path: Path) -> None:
    agent, _ = agent_with(tmp_path, PROGRAM + "\nFinal Answer: 20", "Final Answer: 19")
    run = agent.execute("Add 3, 5 and 11.")
    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.FINISH]
    assert run.answer == "19"


def test_programs_change_workspace_files(tmp_path: Path) -> None:
    (tmp_path / "story.txt").write_text("a colour\n", encoding="utf-8")
    edit = ("```py\nfrom pathlib import Path\np = Path('story.txt')\n"
            "p.write_text(p.read_text().replace('colour', 'color'))\nprint(p.read_text())\n```")
    agent, _ = agent_with(tmp_path, edit, "Final Answer: Done: story.txt now says color.")
    run = agent.execute("Spell colour as color in story.txt.")
    assert run.finished and (tmp_path / "story.txt").read_text(encoding="utf-8") == "a color\n"
    assert run.steps[0].observation.startswith("a color")


def test_an_unreadable_reply_is_named_and_the_model_asked_again(tmp_path: Path) -> None:
    agent, llm = agent_with(tmp_path, "I will write some code now.", PROGRAM, "Final Answer: 19", max_thought_steps=5)
    run = agent.execute("Add 3, 5 and 11.")
    assert [step.kind for step in run.steps] == [StepKind.PARSE_ERROR, StepKind.ACTION, StepKind.FINISH]
    assert "no ```python program and no 'Final Answer:'" in run.steps[0].observation
    assert "Reply: I will write some code now." in llm.prompts[1]
    assert run.answer == "19"


def test_a_failing_program_shows_its_error_and_the_run_goes_on(tmp_path: Path) -> None:
    agent, llm = agent_with(tmp_path, "```python\nprint(open('missing.txt').read())\n```",
                            "Final Answer: missing.txt is not in the workspace.")
    run = agent.execute("Show missing.txt.")
    assert "FileNotFoundError" in run.steps[0].observation and "[exit code 1]" in run.steps[0].observation
    assert "FileNotFoundError" in llm.prompts[1]


def test_after_a_failing_program_the_model_is_asked_to_correct_it_and_a_repeat_is_told_it_fails(
        tmp_path: Path) -> None:
    broken = "Thought: I read it.\n```python\nprint(int('x'))\n```"
    agent, llm = agent_with(tmp_path, broken, broken, PROGRAM, "Final Answer: 19")
    run = agent.execute("Add 3, 5 and 11.")
    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.REPEATED, StepKind.ACTION,
                                                 StepKind.FINISH]
    assert "Your last program failed: the end of its output above says why." in llm.prompts[1]
    assert "already did this, and it failed: Traceback" in llm.prompts[2]
    assert "Your last program is one that already failed" in llm.prompts[2]
    assert "Your last program failed" not in llm.prompts[3] and run.answer == "19"


def test_unreadable_replies_use_up_the_steps(tmp_path: Path) -> None:
    agent, _ = agent_with(tmp_path, "hmm", "hmm", max_thought_steps=2)
    assert agent.execute("x").stop_reason is StopReason.MAX_STEPS


def test_the_prompts_are_chinese_with_lang_zh(tmp_path: Path) -> None:
    agent, llm = agent_with(tmp_path, PROGRAM, "Final Answer: 19", lang="zh")
    agent.execute("把 3、5 和 11 加起来。")
    assert "任务的完整答案" in llm.prompts[0] and "Observation: 19" in llm.prompts[1]


def test_without_the_python_tool_the_protocol_says_what_it_needs() -> None:
    llm = ScriptedChatModel(replies=[])
    with pytest.raises(ConfigurationError, match="--protocol code runs Python programs: it needs the python tool"):
        AutoGPT(llm=llm, tools=[], protocol="code")  # type: ignore[arg-type]


def test_a_program_that_exits_non_zero_is_a_failed_step(tmp_path: Path) -> None:
    agent, _ = agent_with(tmp_path, "```python\nimport sys\nprint('half')\nsys.exit(2)\n```", "Final Answer: done")
    step = agent.execute("Do it.").steps[0]
    assert not step.success and step.observation == "half\n[exit code 2]" and step.changed == ()


def test_the_step_keeps_the_files_its_program_changed(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    agent, _ = agent_with(tmp_path, "```python\nopen('a.txt', 'a').write('b')\nopen('c.txt', 'w').close()\n```",
                          "Final Answer: done")
    step = agent.execute("Do it.").steps[0]
    assert step.success and step.changed == ("a.txt", "c.txt")


def test_with_the_coach_a_program_that_changed_no_file_does_not_make_the_change_asked_for(tmp_path: Path) -> None:
    (tmp_path / "story.txt").write_text("old\n", encoding="utf-8")
    read_only = "```python\nprint(open('story.txt').read())\n```"
    agent, _ = agent_with(tmp_path, read_only, "Final Answer: story.txt now ends with a new line.",
                          "```python\nopen('story.txt', 'a').write('new\\n')\n```", "Final Answer: Done.",
                          advisors=[Coach()])
    run = agent.execute("Append the line 'new' to story.txt.")
    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.ACTION,
                                                 StepKind.FINISH]
    assert "no step has made one yet" in run.steps[1].observation
    assert run.finished and (tmp_path / "story.txt").read_text(encoding="utf-8") == "old\nnew\n"


def test_a_transcript_keeps_the_files_a_step_changed(tmp_path: Path) -> None:
    agent, _ = agent_with(tmp_path, "```python\nopen('c.txt', 'w').close()\n```", "Final Answer: done")
    run = agent.execute("Do it.")
    again = [step_from_record(json.loads(json.dumps(step_record(step)))) for step in run.steps]
    assert again[0].changed == ("c.txt",) and again[1].changed is None
    assert [step_record(step) for step in again] == [step_record(step) for step in run.steps]
