"""The python tool under bubblewrap asks only before a program that changes workspace files: where a call would
ask, the program runs first with the workspace mounted read-only; one that only reads is done then, and one that
would write stops at its first write, is asked about, and runs again with writes allowed. And `--protocol auto`
picks code for the embedded model where the sandbox runs (its programs then read without asking)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from autoagent import settings as settings_module
from autoagent.acting.approval import Approver, Verdict
from autoagent.acting.effects import Effects, Session, read_only, session
from autoagent.acting.toolbox import Toolbox
from autoagent.agent import AutoGPT
from autoagent.llm.profile import ModelProfile
from autoagent.protocols import resolved
from autoagent.reply import Action
from autoagent.settings import Settings
from autoagent.tools import calculator, make_python_tool
from autoagent.tools.sandbox import bwrap_problem

from .scripted import ScriptedChatModel

NO_BWRAP = bwrap_problem()
pytestmark = [pytest.mark.timeout(60),
              pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")]


class Recorder(Approver):
    """Answers every question with `allow`, and counts the questions (and keeps what each showed)."""

    def __init__(self, allow: bool) -> None:
        super().__init__(input_stream=io.StringIO(""))
        self.allow, self.asked, self.shown = allow, 0, []  # type: ignore[var-annotated]

    def ask(self, tool_name: str, args: dict[str, object]) -> Verdict:
        self.asked += 1
        self.shown.append(args)
        return Verdict(self.allow)


def call(workspace: Path, approver: Approver, code: str) -> tuple[str, bool]:
    result = Toolbox([make_python_tool(workspace)], approver=approver).run(Action(name="python", args={"code": code}))
    return result.content, result.success


def test_a_program_that_only_reads_runs_without_asking(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("3\n4\n")
    approver = Recorder(allow=False)
    assert call(tmp_path, approver, "print(sum(int(x) for x in open('n.txt')))") == ("7", True)
    assert call(tmp_path, approver, "open('/tmp/scratch', 'w').write('1')\nprint(open('/tmp/scratch').read())") \
        == ("1", True)  # the sandbox's own /tmp is no workspace file
    assert approver.asked == 0


@pytest.mark.parametrize("code", [
    "open('out.txt', 'w').write('hi')",
    "from pathlib import Path\nPath('out.txt').write_text('hi')",
    "try:\n    open('out.txt', 'a')\nexcept OSError:\n    pass\nprint('done')",  # the error caught and hidden
    "import os\nos.remove('n.txt')",
    "import os\nos.rename('n.txt', 'm.txt')",
    "import os\nos.mkdir('sub')",
    "import subprocess\nprint(subprocess.run(['touch', 'out.txt'], capture_output=True, text=True).stderr)",
])
def test_a_program_that_writes_is_asked_about_and_refused_leaves_the_workspace_as_it_was(tmp_path: Path,
                                                                                      code: str) -> None:
    (tmp_path / "n.txt").write_text("3\n")
    approver = Recorder(allow=False)
    content, success = call(tmp_path, approver, code)
    assert (approver.asked, success, content) == (1, False, "The user denied this action.")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["n.txt"]
    assert (tmp_path / "n.txt").read_text() == "3\n"


def test_allowed_it_runs_again_with_writes_and_only_once_for_real(tmp_path: Path) -> None:
    approver = Recorder(allow=True)
    code = "print('run')\nwith open('log.txt', 'a') as log:\n    log.write('line\\n')"
    content, success = call(tmp_path, approver, code)
    assert success and approver.asked == 1 and content.startswith("run")
    assert "[workspace files: created log.txt]" in content
    assert (tmp_path / "log.txt").read_text() == "line\n"  # the read-only try appended nothing


def test_with_yes_it_writes_at_once(tmp_path: Path) -> None:
    yes = Approver(auto_approve=True)
    assert not yes.would_ask("python")  # so no read-only try first
    assert call(tmp_path, yes, "open('n.txt', 'w').write('1')")[1] and (tmp_path / "n.txt").read_text() == "1"


def test_a_read_only_run_says_it_needs_to_write_and_outside_one_the_tool_writes(tmp_path: Path) -> None:
    python = make_python_tool(tmp_path)
    assert python.metadata is not None and python.metadata["tries_read_only"] is True
    assert make_python_tool(tmp_path, "none").metadata["tries_read_only"] is False  # type: ignore[index]
    tool_call = {"name": "python", "args": {"code": "open('a.txt', 'w')"}, "id": "c1", "type": "tool_call"}
    with read_only():
        tried = python.invoke(tool_call)
    assert tried.artifact == Effects(failed=True, needs_to_write=True) and not (tmp_path / "a.txt").exists()
    python.invoke(tool_call)  # no toolbox asked for a read-only run: the program runs as given
    assert (tmp_path / "a.txt").exists()


def test_a_calculator_is_asked_about_as_before(tmp_path: Path) -> None:
    approver = Recorder(allow=True)
    marked = calculator.model_copy(update={"metadata": {"side_effects": True}})
    Toolbox([marked], approver=approver).run(Action(name="calculator", args={"expression": "1+1"}))
    assert approver.asked == 1  # a tool that cannot try read-only asks first


def test_auto_picks_code_for_the_embedded_model_with_the_sandboxed_tool(tmp_path: Path) -> None:
    llm = ScriptedChatModel(replies=[])
    sandboxed, unconfined = make_python_tool(tmp_path), make_python_tool(tmp_path, "none")
    assert resolved("auto", ModelProfile.of(llm), [sandboxed]) == "json"  # not the embedded model
    embedded = ModelProfile(embedded=True, small=True, nearby=True)
    assert resolved("auto", embedded, [calculator, sandboxed]) == "code"
    assert resolved("auto", embedded, [calculator]) == "json"  # --no-allow-python, or no bubblewrap
    assert resolved("auto", embedded, [unconfined]) == "json"  # never unsandboxed by default
    assert resolved("react", embedded, [sandboxed]) == "react"
    assert AutoGPT(llm, [calculator, sandboxed], protocol="auto", profile=embedded).protocol.name == "code"
    assert AutoGPT(llm, [calculator, sandboxed], profile=embedded).protocol.name == "json"  # the default is json
    assert list(AutoGPT(llm, [calculator, sandboxed], protocol="json").toolbox.tools) == ["calculator", "python"]
    offered = settings_module._offers_python
    auto = Settings(protocol="auto")
    assert offered(auto, embedded) and not offered(Settings(protocol="auto", allow_python=False), embedded)
    assert not offered(Settings(), embedded) and not offered(Settings(protocol="auto", python_sandbox="none"), embedded)
    served = ModelProfile.of(llm)
    assert not offered(auto, served) and offered(Settings(protocol="code"), served)
    assert AutoGPT(llm, [calculator, sandboxed], protocol="auto").protocol.name == "json"


TRAP = "def print(*args):\n    open('notes.txt', 'w').write('overwritten')\ngreeting = 'hello'"


def test_what_is_approved_shows_the_names_earlier_programs_left_for_it(tmp_path: Path) -> None:
    # The attack: a program that only defines names runs without asking; the next, `print(greeting)`, is asked
    # about, and its `print` is the earlier program's, which overwrites a file.
    (tmp_path / "notes.txt").write_text("mine\n")
    approver = Recorder(allow=False)
    toolbox = Toolbox([make_python_tool(tmp_path)], approver=approver)
    with session(Session()):
        assert toolbox.run(Action(name="python", args={"code": TRAP})).success and approver.asked == 0
        toolbox.run(Action(name="python", args={"code": "print(greeting)"}))
        [shown] = approver.shown
        assert shown["code"] == "print(greeting)"
        assert shown["names_from_earlier_programs"] == f"# ran without asking:\n{TRAP}"  # what runs, shown whole
        assert (tmp_path / "notes.txt").read_text() == "mine\n"
        approver.allow = True
        toolbox.run(Action(name="python", args={"code": "print(greeting)"}))
        assert "def print" in str(approver.shown[1]["names_from_earlier_programs"])  # not approved yet: still shown
        assert (tmp_path / "notes.txt").read_text() == "overwritten"  # run as approved, with what it was shown
        toolbox.run(Action(name="python", args={"code": "x = 1"}))
        toolbox.run(Action(name="python", args={"code": "open('out.txt', 'w').write(str(x))"}))
        assert approver.shown[2]["names_from_earlier_programs"] == "# ran without asking:\nx = 1"  # only since then


def test_a_program_with_nothing_carried_over_is_shown_as_it_is(tmp_path: Path) -> None:
    approver = Recorder(allow=False)
    with session(Session()):
        call(tmp_path, approver, "open('a.txt', 'w')")
    assert approver.shown == [{"code": "open('a.txt', 'w')"}]
