"""Within a run, the python tool keeps the names its programs define, as smolagents' CodeAgent and a notebook do: a
later program finds the variables, functions, classes and imports of earlier ones. Outside a run, and for the
programs the coach writes anew to check an answer, each program starts afresh. And a program that fails shows how
the files it read begin, or, when a file was not there, what the workspace holds."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from autoagent.acting.effects import Session, read_only, session
from autoagent.acting.toolbox import Toolbox
from autoagent.agent import AutoGPT
from autoagent.reply import Action
from autoagent.tools import default_tools, make_python_tool
from autoagent.tools.sandbox import SANDBOXES, bwrap_problem

from .scripted import ScriptedChatModel

NO_BWRAP = bwrap_problem()
pytestmark = pytest.mark.timeout(60)
SANDBOX = [pytest.param(name, marks=pytest.mark.skipif(name == "bwrap" and NO_BWRAP is not None,
                                                       reason=f"{NO_BWRAP} (.ci/run installs it)"))
           for name in SANDBOXES]


def program(fenced: str) -> str:
    return f"Thought: a program.\n```python\n{fenced}\n```"


@pytest.mark.parametrize("sandbox", SANDBOX)
def test_a_later_program_of_the_run_finds_what_earlier_ones_defined(tmp_path: Path, sandbox: str) -> None:
    tool = make_python_tool(tmp_path, sandbox)
    first = ("import math as m\nfrom datetime import date\nrows = [3, 4]\ntotal = sum(rows)\n"
             "def twice(x):\n    return 2 * x\n"
             "class Box:\n    size = 5\n"
             "handle = open('/dev/null')\nsquares = (n * n for n in rows)\nprint(total)")
    with session(Session()):
        assert tool.invoke({"code": first}) == "7"
        # a generator and an open file do not pickle: left out, and nothing else is lost with them
        later = "print(twice(total), m.sqrt(16), date(2026, 1, 2), Box.size, rows)"
        assert tool.invoke({"code": later}) == "14 4.0 2026-01-02 5 [3, 4]"
        assert "NameError: name 'squares' is not defined" in tool.invoke({"code": "print(list(squares))"})
    with session(Session()):  # another run starts afresh
        assert "NameError: name 'total' is not defined" in tool.invoke({"code": "print(total)"})
    assert "NameError: name 'total' is not defined" in tool.invoke({"code": "print(total)"})  # and so outside a run


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
def test_what_a_failed_program_bound_before_its_error_is_kept(tmp_path: Path) -> None:
    tool = make_python_tool(tmp_path)
    with session(Session()):
        assert "ZeroDivisionError" in tool.invoke({"code": "found = 41\nfound / 0"})
        assert tool.invoke({"code": "found + 1"}) == "42"
        assert tool.invoke({"code": "found = 'redefined'\nfound"}) == "'redefined'"
        tool.invoke({"code": "def twice(x):\n    return 2 * x\ndef gone():\n    pass"})
        assert tool.invoke({"code": "del gone\ntwice = twice(21)"}) == "twice = 42"  # a function's name bound anew
        assert tool.invoke({"code": "print(twice, 'gone' in globals())"}) == "42 False"


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
def test_names_survive_a_read_only_try_and_a_refused_write_is_not_kept(tmp_path: Path) -> None:
    tool = make_python_tool(tmp_path)
    toolbox = Toolbox([tool])
    with session(Session()):
        assert toolbox.run(Action(name="python", args={"code": "n = 6\nn"})).content == "6"
        with read_only():  # the try before anyone is asked: it stops at its write, before its names are saved
            assert "not run" in tool.invoke({"code": "n = 100\nopen('out.txt', 'w').write('x')"})
            assert tool.invoke({"code": "n * 7"}) == "42"  # one that only reads is the real run
        assert tool.invoke({"code": "n"}) == "6"


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
def test_a_run_s_names_are_kept_nowhere_on_disk_and_go_with_the_run(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    temporary, workspace = tmp_path / "tmp", tmp_path / "workspace"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    tool, run = make_python_tool(workspace), Session()

    def unnamed() -> list[str]:  # this process's open files in the temporary folder, which have no name there
        return [target for target in (os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
                                      if os.path.exists(f"/proc/self/fd/{fd}")) if target.startswith(str(temporary))]

    with session(run):
        tool.invoke({"code": "kept = 1"})
        assert tool.invoke({"code": "kept"}) == "1"
        assert len(unnamed()) == 1 and unnamed()[0].endswith("(deleted)")
    assert not any(temporary.iterdir()) and not any(workspace.iterdir())  # no folder, nothing in the workspace
    del run
    gc.collect()
    assert unnamed() == []  # the run's unnamed file is closed with it


HOLDER = r"""
import sys, time
from pathlib import Path
from autoagent.acting.effects import Session, session
from autoagent.tools import make_python_tool

tool = make_python_tool(Path(sys.argv[1]))
with session(Session()):
    tool.invoke({"code": "rows = list(range(1000))"})
    print("ready", flush=True)
    tool.invoke({"code": "import time\ntime.sleep(60)"})
"""


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_nothing_of_a_run_s_names_is_left_when_the_process_is_killed(tmp_path: Path, stop: signal.Signals) -> None:
    # The attack's finding: state folders (up to 51 MB) left in /tmp after SIGTERM or a killed batch worker.
    temporary, workspace = tmp_path / "tmp", tmp_path / "workspace"
    temporary.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(workspace)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "TMPDIR": str(temporary)})
    assert holder.stdout is not None and holder.stdout.readline() == "ready\n"
    time.sleep(0.5)  # the second program runs
    holder.send_signal(stop)
    holder.wait(timeout=30)
    assert list(temporary.iterdir()) == []


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
def test_a_failed_program_shows_how_the_files_it_read_begin(tmp_path: Path) -> None:
    (tmp_path / "prices.csv").write_text("item,price\napple,1.50 USD\npear,2\n")
    (tmp_path / "long.txt").write_text("".join(f"line {n}\n" for n in range(1, 51)))
    (tmp_path / "third.txt").write_text("never shown\n")
    code = ("import csv\ntext = open('long.txt').read()\nnever = open('third.txt').read()\n"
            "rows = list(csv.DictReader(open('prices.csv')))\nprint(sum(float(r['price']) for r in rows))")
    shown = make_python_tool(tmp_path).invoke({"code": code})
    assert "ValueError: could not convert string to float: '1.50 USD'" in shown
    tail = shown.split("[the files it read begin:]\n", 1)[1]
    assert tail.startswith("long.txt (50 lines, the first 5):\n  line 1\n  line 2\n  line 3\n  line 4\n  line 5\n")
    assert "third.txt (1 line, all of them):\n  never shown" in tail  # the first two files it read
    assert "prices.csv" not in tail and shown.endswith("[exit code 1]")
    assert "[the files it read begin" not in make_python_tool(tmp_path).invoke({"code": "open('long.txt').read(3)"})


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
def test_a_file_not_found_shows_what_the_workspace_holds(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "sales.csv").write_text("a,b\n")
    (tmp_path / "notes.txt").write_text("x\n")
    (tmp_path / ".hidden").write_text("x\n")
    shown = make_python_tool(tmp_path).invoke({"code": "open('sales.csv').read()"})
    assert "FileNotFoundError" in shown
    assert "[the workspace holds: notes.txt, data/sales.csv]" in shown


@pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
def test_the_code_protocol_s_programs_share_names_within_a_run_and_not_across_runs(tmp_path: Path) -> None:
    replies = [program("result = 25 * 16\nprint(result)"),
               program("with open('answer.txt', 'w') as f:\n    f.write(str(result))"),
               "Thought: I know the answer.\nFinal Answer: 400, written to answer.txt.",
               program("print(result)"),
               "Thought: done.\nFinal Answer: result was not defined."]
    agent = AutoGPT(llm=ScriptedChatModel(replies=replies), tools=default_tools(tmp_path, allow_python=True),
                    protocol="code")
    first = agent.execute("Multiply 25 by 16 and write the result to answer.txt.")
    assert first.finished and (tmp_path / "answer.txt").read_text() == "400"
    second = agent.execute("Print result.")
    assert "NameError: name 'result' is not defined" in second.steps[0].observation
