"""The coach's self-consistency of what a run did to the files (autoagent/coach/replay.py): programs written anew for
the whole task run on a scratch copy of the workspace as the run began, and one must leave the files as the run did."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.checks import CheckContext, VerdictKind
from autoagent.coach.replay import describe, effect, files_in, replay_verdict, same_effect
from autoagent.steps import StopReason
from autoagent.tool_use.toolbox import Toolbox
from autoagent.tools import calculator, make_python_tool
from autoagent.tools.sandbox import bwrap_problem

from .test_coach_recompute import called
from .test_consistency import _Sampled

needs_bwrap = pytest.mark.skipif(bwrap_problem() is not None, reason="the python tool's sandbox (.ci/run installs it)")

BEFORE = {"notes.txt": b"teh cat sat\nteh dog ran\nthe end\n", "data/prices.csv": b"item,price\npen,2\ncup,5\n"}


@pytest.mark.parametrize(("one", "other", "same"), [
    ({}, {}, True),
    ({}, {"notes.txt": b"the cat sat\n"}, False),  # one printed its result, the other wrote it
    ({"notes.txt": None}, {"notes.txt": None}, True),  # both deleted it
    ({"notes.txt": None}, {"notes.txt": b""}, False),
    ({"total.txt": b"Total: 7\n"}, {"total.txt": b"7"}, True),  # one adds a word to the other
    ({"total.txt": b"Total: 7\n"}, {"total.txt": b"Total: 8\n"}, False),
    ({"notes.txt": b"the cat sat\nthe dog ran\nthe end\n"}, {"notes.txt": b"the cat sat\nteh dog ran\nthe end\n"},
     False),  # a change that missed a case
    ({"sorted.txt": b"cup\npen\n"}, {"sorted.txt": b"pen\ncup\n"}, False),  # the same lines in another order
    ({"ode.txt": b"Waves fold\ninto sand\nat dusk\n"}, {"ode.txt": b"Gulls call out\nover the bay\nthen rest\n"},
     True),  # made up: three lines each
    ({"ode.txt": b"Waves fold into sand at dusk\n"}, {"ode.txt": b"Gulls call out\nover the bay\nthen rest\n"},
     False),
    ({"a.txt": b"x"}, {"a.txt": b"x", "b.txt": b"y"}, False),  # another file too
])
def test_two_runs_did_the_same_to_the_files_when_each_file_ends_the_same(one: dict, other: dict, same: bool) -> None:
    assert same_effect(one, other, BEFORE) is same


def test_what_was_done_is_the_files_created_changed_and_deleted(tmp_path: Path) -> None:
    for path, content in BEFORE.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(content)
    assert files_in(tmp_path) == BEFORE
    (tmp_path / "notes.txt").unlink()
    (tmp_path / "out.txt").write_text("a\nb\n")
    done = effect(BEFORE, files_in(tmp_path) or {})
    assert done == {"notes.txt": None, "out.txt": b"a\nb\n"}
    assert describe(done) == "deleted notes.txt; wrote out.txt (2 lines)" and describe({}) == "no file changed"
    (tmp_path / "link").symlink_to(tmp_path / "out.txt")
    assert files_in(tmp_path) is None  # a link is not copied: no replay


TASK = "Take the repeated lines out of names.txt."
NAMES = "ann\nbo\nann\ncy\n"
PRINTS = "```python\nprint(''.join(dict.fromkeys(open('names.txt'))))\n```"
WRITES = ("```python\nlines = dict.fromkeys(open('names.txt'))\nopen('names.txt', 'w').write(''.join(lines))\n"
          "print('done')\n```")


def coached_run(tmp_path: Path, own: str, *drawn: str) -> tuple[object, _Sampled]:
    (tmp_path / "names.txt").write_text(NAMES)
    answer = "names.txt has no repeated line now."
    llm = _Sampled(replies=[f"Thought: de-duplicate\n{own}", f"Final Answer: {answer}", *drawn, answer, answer])
    run = AutoGPT(coach="on", protocol="code", llm=llm, tools=[make_python_tool(tmp_path)]).execute(TASK)
    return run, llm


@needs_bwrap
def test_a_run_that_printed_what_programs_written_anew_write_ends_unverified(tmp_path: Path) -> None:
    run, llm = coached_run(tmp_path, PRINTS, WRITES, WRITES.replace("done", "ok"))
    assert run.stop_reason is StopReason.UNVERIFIED  # type: ignore[attr-defined]
    assert "no file changed | wrote names.txt (3 lines) | wrote names.txt (3 lines)" in run.steps[-1].observation  # type: ignore[attr-defined]
    assert (tmp_path / "names.txt").read_text() == NAMES  # the programs drawn anew ran on a copy
    asked = [prompt for prompt in llm.prompts if "does the whole task" in prompt]
    assert len(asked) == 2 and all("dict.fromkeys" not in prompt for prompt in asked)  # not shown the run's own
    assert all("names.txt" in prompt and "ann" in prompt for prompt in asked)  # shown the workspace as it began


@needs_bwrap
def test_a_run_whose_change_a_program_written_anew_makes_again_finishes(tmp_path: Path) -> None:
    run, _ = coached_run(tmp_path, WRITES, "```python\nprint(open('names.txt').read())\n```", WRITES)
    assert run.finished and (tmp_path / "names.txt").read_text() == "ann\nbo\ncy\n"  # type: ignore[attr-defined]


@needs_bwrap
def test_programs_that_fail_confirm_nothing(tmp_path: Path) -> None:
    run, _ = coached_run(tmp_path, WRITES, "```python\nraise SystemExit(2)\n```", "```python\nopen('nope.txt')\n```")
    assert run.finished  # type: ignore[attr-defined]


@needs_bwrap
def test_a_run_without_a_program_that_worked_or_its_files_is_not_replayed(tmp_path: Path) -> None:
    tools = Toolbox([make_python_tool(tmp_path)])
    (tmp_path / "names.txt").write_text(NAMES)

    def attempts(tool: str, count: int) -> list[str]:
        raise AssertionError("no program is drawn")

    start = {"names.txt": NAMES.encode()}
    read = [called(1, "read_file", "ann", path="names.txt")]
    assert replay_verdict(CheckContext(TASK, read, lambda: "", sample_attempt=attempts), tools, start, "x") is None
    ran = [called(1, "python", "ann", code="print(1)")]
    assert replay_verdict(CheckContext(TASK, ran, lambda: "", sample_attempt=attempts), tools, None, "x") is None
    assert replay_verdict(CheckContext(TASK, ran, lambda: "", sample_attempt=attempts), Toolbox([calculator]), start,
                          "x") is None
    printed = [called(1, "python", "7", code="print(7)")]  # changed nothing, printed the answer's number: rerun's
    assert replay_verdict(CheckContext(TASK, printed, lambda: "", sample_attempt=attempts), tools, start, "7") is None
    stopped = replay_verdict(CheckContext(TASK, ran, lambda: "", sample_attempt=lambda tool, count: [WRITES] * count),
                             tools, start, "x")
    assert stopped is not None and stopped.kind is VerdictKind.STOP and stopped.reason is StopReason.UNVERIFIED
