"""The python tool (issue 26): a snippet in a fresh interpreter in the workspace, under bubblewrap, with limits on
its time, memory and output; offered by --allow-python, under approval, through every way in."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from autoagent.acting.approval import is_read_only
from autoagent.acting.toolbox import Toolbox
from autoagent.agent import AutoGPT
from autoagent.cli import cli
from autoagent.commands import exit_codes as codes
from autoagent.commands.doctor import check_python_sandbox
from autoagent.reply import Action
from autoagent.tools import default_tools, make_python_tool
from autoagent.tools.sandbox import SandboxUnavailableError, bwrap_problem
from autoagent.tools.shell import TOOLBOX_MARGIN_SECONDS
from autoagent.transcripts.reader import list_transcripts, load_transcript

from .cli_backend import FakeBackend, invoke
from .fake_openai import FakeOpenAI
from .scripted import ScriptedChatModel, act

pytestmark = pytest.mark.timeout(60)
REPO = Path(__file__).resolve().parent.parent
NO_BWRAP = bwrap_problem()
needs_bwrap = pytest.mark.skipif(NO_BWRAP is not None, reason=f"{NO_BWRAP} (.ci/run installs it)")
MISSING = "bubblewrap (bwrap) is not installed (sudo apt-get install bubblewrap)"


def run(workspace: Path, code: str, sandbox: str = "bwrap", **options: float) -> str:
    result = make_python_tool(workspace, sandbox, **options).invoke({"code": code})  # type: ignore[arg-type]
    assert isinstance(result, str)
    return result


def running(token: str) -> list[int]:
    """The processes whose command line holds `token` (those inside a sandbox too: this is the host's /proc)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            if name.isdigit() and token.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                found.append(int(name))
        except OSError:  # ended meanwhile
            continue
    return found


def gone_soon(token: str) -> bool:
    deadline = time.monotonic() + 3
    while running(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(token)


@pytest.fixture
def listener() -> Iterator[int]:
    """A port on this machine's 127.0.0.1 that accepts connections."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


@needs_bwrap
def test_a_computation_the_calculator_cannot_do(tmp_path: Path) -> None:
    (tmp_path / "words.txt").write_text("the cat sat on the mat\nthe end\n")
    code = "words = open('words.txt').read().split()\nsorted(set(words))"
    assert run(tmp_path, code) == "['cat', 'end', 'mat', 'on', 'sat', 'the']"


@needs_bwrap
def test_a_file_is_written_in_the_workspace_and_what_it_prints_comes_back(tmp_path: Path) -> None:
    code = "import os\nos.makedirs('out', exist_ok=True)\nprint(os.getcwd())\nopen('out/total.txt', 'w').write('42')"
    assert run(tmp_path / "ws", code) == "/workspace\n2\n[workspace files: created out/total.txt]"
    assert (tmp_path / "ws" / "out" / "total.txt").read_text() == "42"
    failing = run(tmp_path, "import sys\nprint('before')\nprint('to stderr', file=sys.stderr)\n1 / 0")
    assert failing.startswith("before\nto stderr\nTraceback (most recent call last):\n")
    assert '  File "<snippet>", line 4, in <module>\n    1 / 0' in failing and "runner" not in failing
    assert failing.endswith("ZeroDivisionError: division by zero\n[exit code 1]")
    assert run(tmp_path, "x = 1") == "x = 1" and run(tmp_path, "None") == "(no output)"
    assert run(tmp_path, "import sys; sys.exit(3)") == "(no output)\n[exit code 3]"
    assert run(tmp_path, "def f(:").endswith("SyntaxError: invalid syntax\n[exit code 1]")


@needs_bwrap
def test_the_files_a_program_changed_are_named_after_its_output(tmp_path: Path) -> None:
    for name in ("keep.txt", "edit.txt", "old.txt", "gone.txt"):
        (tmp_path / name).write_text(name)
    code = ("open('edit.txt', 'a').write('!')\nimport os\nos.rename('old.txt', 'new.txt')\nos.remove('gone.txt')\n"
            "open('made.txt', 'w').close()")
    assert run(tmp_path, code) == ("(no output)\n[workspace files: created made.txt; changed edit.txt; "
                                   "moved old.txt to new.txt; deleted gone.txt]")
    assert run(tmp_path, "print(open('keep.txt').read())") == "keep.txt"  # reading changes nothing


@needs_bwrap
def test_a_last_assignment_shows_the_value_it_bound(tmp_path: Path) -> None:
    assert run(tmp_path, "share = 84.6 * 1.18 / 3\nshare = round(share, 2)") == "share = 33.28"
    assert run(tmp_path, "total = 0\nfor v in [1, 2, 3]:\n    total += v") == "total = 6"
    assert run(tmp_path, "print('hi')\nwords: list = ['a']") == "hi\nwords = ['a']"
    assert run(tmp_path, "a, b = 1, 2") == "(no output)"  # no one name to show
    assert run(tmp_path, "for v in []:\n    seen = v") == "(no output)"  # never bound


@needs_bwrap
def test_statements_joined_on_one_line_run_as_the_program_they_spell(tmp_path: Path) -> None:
    (tmp_path / "grades.csv").write_text("name,class,score\nann,B,80\nbob,A,70\ncy,B,90\n")
    code = ("with open('grades.csv') as f: rows = [l.strip().split(',') for l in f.readlines()[1:]] "
            "scores = [int(r[2]) for r in rows if r[1] == 'B'] print(sum(scores) / len(scores))")
    result = run(tmp_path, code)
    assert result == ("[its statements were joined on one line; it ran as:]\n"
                      "with open('grades.csv') as f:\n"
                      "    rows = [l.strip().split(',') for l in f.readlines()[1:]]\n"
                      "    scores = [int(r[2]) for r in rows if r[1] == 'B']\n"
                      "    print(sum(scores) / len(scores))\n[output:]\n85.0")
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "a.md").write_text("a")
    (tmp_path / "drafts" / "b.txt").write_text("b")
    nested = ("import os\nfor name in os.listdir('drafts'): if name.endswith('.md'): "
              "os.rename('drafts/' + name, 'drafts/old_' + name) print('renamed', name)")
    assert run(tmp_path, nested).endswith("[output:]\nrenamed a.md\n[workspace files: moved drafts/a.md to "
                                          "drafts/old_a.md]")
    assert sorted(os.listdir(tmp_path / "drafts")) == ["b.txt", "old_a.md"]
    semicolons = run(tmp_path, "import os; n = 0; for name in sorted(os.listdir('drafts')): n += 1; print(n, name)")
    assert semicolons.endswith("for name in sorted(os.listdir('drafts')):\n    n += 1; print(n, name)\n"
                               "[output:]\n1 b.txt\n2 old_a.md")
    # a lambda's colon opens no body, inside brackets or not
    lambdas = run(tmp_path, "x = sorted([3, 1], key=lambda s: -s) for v in x: if v > 1: print(v)")
    assert lambdas.endswith("for v in x:\n    if v > 1:\n        print(v)\n[output:]\n3")
    # what follows a body on its line belongs to that body, as after a `;`
    clauses = run(tmp_path, "x = 1 if x > 2: size = 'big' else: size = 'small' print(size, 'ok' if x else 'no')")
    assert clauses.endswith("x = 1\nif x > 2:\n    size = 'big'\nelse:\n    size = 'small'\n"
                            "    print(size, 'ok' if x else 'no')\n[output:]\nsmall ok")


@needs_bwrap
def test_code_that_parses_runs_as_given_and_code_no_reading_mends_keeps_its_own_error(tmp_path: Path) -> None:
    assert run(tmp_path, "x = 1 if True else 2\nx") == "1"  # a conditional expression is no joined statement
    assert run(tmp_path, "f = lambda s: s * 2\nf(4)") == "8"
    broken = run(tmp_path, "print(1) print(2")  # joined, and still broken once split
    assert "joined" not in broken and broken.endswith("[exit code 1]") and "SyntaxError" in broken
    assert run(tmp_path, "2 ^ 10") == "[note: ^ is bitwise exclusive or in Python; a power is written **]\n8"


@needs_bwrap
def test_a_long_output_keeps_its_start_and_its_end_through_the_toolbox(tmp_path: Path) -> None:
    code = "for n in range(100_000):\n    print(n)\nraise ValueError('at the end')"
    result = Toolbox([make_python_tool(tmp_path)]).run(Action(name="python", args={"code": code}))
    assert result.content.startswith("0\n1\n2\n") and "bytes of output cut ...]" in result.content
    assert result.content.endswith("ValueError: at the end\n[exit code 1]") and len(result.content) < 2000


@needs_bwrap
def test_an_endless_loop_is_stopped_at_the_limit_and_nothing_is_left_running(tmp_path: Path) -> None:
    token = f"endless-{os.getpid()}-{time.monotonic_ns()}"
    started = time.monotonic()
    result = run(tmp_path, f"# {token}\nprint('started')\nwhile True:\n    pass", timeout=1)
    assert time.monotonic() - started < 5
    assert result == "started\n[timed out after 1 s; the code and everything it started were stopped]"
    assert gone_soon(token)


@needs_bwrap
def test_ten_gigabytes_are_refused(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run(tmp_path, "data = bytearray(10 * 1024**3)\nlen(data)")
    assert time.monotonic() - started < 5
    assert result.endswith("MemoryError\n[exit code 1]")
    assert run(tmp_path, "len(bytearray(100 * 1024**2))") == "104857600"  # what fits under the limit works


@needs_bwrap
@pytest.mark.parametrize("session", [False, True], ids=["child", "child in a session of its own"])
def test_a_child_is_reaped_when_the_code_ends(tmp_path: Path, session: bool) -> None:
    token = f"child-{os.getpid()}-{time.monotonic_ns()}"
    code = ("import subprocess, sys\n"
            f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', '{token}'], "
            f"start_new_session={session})\nprint('started', child.pid > 0)")
    assert run(tmp_path, code) == "started True"
    assert gone_soon(token)


@needs_bwrap
def test_secrets_outside_the_workspace_are_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-26")
    monkeypatch.delenv("TZ", raising=False)  # the one setting of ours it gets
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("the secret")
    paths = [str(secret), str(Path.home() / ".ssh"), "/etc/shadow", "/etc/passwd", "/root", "/home", str(REPO)]
    code = (f"import os\npaths = {paths!r}\n"
            "print([path for path in paths if os.path.exists(path)])\n"
            "print(sorted(os.environ))\n"
            "print(sorted(set(os.listdir('/')) - {'usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'}))")
    assert Path("/etc/shadow").exists() and secret.exists()  # on this machine they are there
    result = run(tmp_path / "ws", code)
    assert result.splitlines() == ["[]", "['HOME', 'LANG', 'PATH', 'PWD']",
                                   "['dev', 'etc', 'proc', 'tmp', 'workspace']"]
    assert "sk-test-secret-26" not in run(tmp_path / "ws", "import os\nprint(dict(os.environ))")
    unsandboxed = run(tmp_path / "ws", code, "none")  # the same probe sees them without the sandbox
    assert str(secret) in unsandboxed.splitlines()[0] and "/etc/shadow" in unsandboxed.splitlines()[0]
    assert "OPENAI_API_KEY" not in unsandboxed  # its environment is a clean one still


@needs_bwrap
def test_a_socket_to_this_machine_is_refused(tmp_path: Path, listener: int) -> None:
    code = ("import socket\ntry:\n"
            f"    socket.create_connection(('127.0.0.1', {listener}), timeout=2)\n"
            "except OSError as err:\n    print(type(err).__name__)\nelse:\n    print('connected')")
    assert run(tmp_path, code) == "ConnectionRefusedError"
    assert run(tmp_path, code, "none") == "connected"  # the port is open: only the sandbox stops it


@needs_bwrap
def test_nothing_but_the_workspace_and_the_small_tmp_can_be_written(tmp_path: Path) -> None:
    code = ("import errno\nfor folder in ['/', '/etc', '/dev', '/usr', '/tmp', '/dev/shm', '.']:\n"
            "    try:\n        open(folder + '/x', 'wb').write(b'0' * 70 * 1024**2)\n        print(folder, 'written')\n"
            "    except OSError as err:\n        print(folder, errno.errorcode[err.errno])")
    assert run(tmp_path, code).splitlines() == ["/ EROFS", "/etc EROFS", "/dev EROFS", "/usr EROFS", "/tmp ENOSPC",
                                                "/dev/shm ENOSPC", ". written",
                                                "[workspace files: created x]"]


def test_marked_side_effecting_with_a_toolbox_limit_past_its_own(tmp_path: Path) -> None:
    python = make_python_tool(tmp_path, "none", timeout=12)
    assert python.name == "python" and list(python.args) == ["code"]
    assert "stopped after 12 s" in python.description and "unsandboxed" in python.description
    assert not is_read_only(python)
    assert Toolbox([python], timeout=1).timeout_for(python) == 12 + TOOLBOX_MARGIN_SECONDS
    with pytest.raises(ValueError, match="the code is empty"):
        python.invoke({"code": " \n"})
    with pytest.raises(ValueError, match="unknown sandbox 'docker'"):
        make_python_tool(tmp_path, "docker")
    with pytest.raises(ValueError, match="positive"):
        make_python_tool(tmp_path, "none", timeout=0)


def test_without_bubblewrap_it_is_not_offered_unless_unsandboxed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    import autoagent.tools
    import autoagent.tools.python

    assert "python" not in [made.name for made in default_tools(tmp_path)]
    monkeypatch.setattr(autoagent.tools, "bwrap_problem", lambda: MISSING)
    monkeypatch.setattr(autoagent.tools.python, "bwrap_problem", lambda: MISSING)
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        assert "python" not in [made.name for made in default_tools(tmp_path, allow_python=True)]
    assert caplog.messages == [f"the python tool is not offered: {MISSING}; --python-sandbox none runs code "
                               "unsandboxed"]
    with pytest.raises(SandboxUnavailableError, match="not installed"):
        make_python_tool(tmp_path)
    tools = {made.name: made for made in default_tools(tmp_path, allow_python=True, python_sandbox="none")}
    assert tools["python"].invoke({"code": "6 * 7"}) == "42"


def test_doctor_says_which_sandbox_is_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.tools.sandbox

    none = check_python_sandbox("none")
    assert (none.status, none.detail) == ("warn", "none: --allow-python runs code unsandboxed, as you")
    monkeypatch.setattr(autoagent.tools.sandbox, "bwrap_problem", lambda: MISSING)
    monkeypatch.setattr(autoagent.tools.sandbox, "bwrap_path", lambda: None)
    missing = check_python_sandbox("bwrap")
    assert missing.status == "warn" and missing.detail == f"{MISSING}: no python tool (--protocol auto picks json)"
    assert missing.fix == "sudo apt-get install bubblewrap"
    monkeypatch.setattr(autoagent.tools.sandbox, "bwrap_problem", lambda: None)
    monkeypatch.setattr(autoagent.tools.sandbox, "bwrap_path", lambda: "/usr/bin/bwrap")
    assert check_python_sandbox("bwrap").lines() == [
        "ok    python sandbox: bubblewrap (/usr/bin/bwrap): python runs code sandboxed (--protocol auto picks code "
        "for the local model)"]


@needs_bwrap
def test_through_the_python_api(tmp_path: Path) -> None:
    replies = [act("python", code="sum(range(1, 101))"), act("FINISH"), "5050"]
    llm = ScriptedChatModel(replies=replies)
    agent = AutoGPT(llm=llm, tools=default_tools(tmp_path, allow_python=True))
    result = agent.execute("What is 1 + 2 + ... + 100?")
    assert result.finished and result.answer == "5050"
    assert result.steps[0].observation == "5050"
    assert "python(" in llm.prompts[0] and "-> 5050" in llm.prompts[1]


@needs_bwrap
def test_allow_python_offers_it_through_the_cli_with_json_and_a_transcript(backend: FakeBackend,
                                                                            tmp_path: Path) -> None:
    invoke(["--workspace", str(tmp_path), "hi"], [act("FINISH"), "hello"], backend)
    assert "python(" not in backend.prompts[0]  # not offered by default

    backend.models.clear()
    backend.replies.clear()
    code = "import statistics\nstatistics.mean([3, 4, 8])"
    replies = [act("python", code=code), act("FINISH"), "5"]
    result = invoke(["--allow-python", "--yes", "--json", "--workspace", str(tmp_path), "the mean of 3, 4, 8"],
                    replies, backend)
    assert result.exit_code == codes.OK, result.output
    data = json.loads(result.stdout)
    assert data["answer"] == "5" and data["steps"][0]["action"] == {"name": "python", "args": {"code": code}}
    assert data["steps"][0]["observation"] == "5"
    transcript = load_transcript(data["run_id"])
    assert transcript.steps[0].observation == "5" and transcript.settings["allow_python"] is True

    backend.models.clear()
    backend.replies.clear()
    writes = "open('mean.txt', 'w').write('5')"
    refused = invoke(["--allow-python", "--workspace", str(tmp_path), "the mean, into mean.txt"],
                     [act("python", code=code), act("python", code=writes), act("FINISH"), "not run"], backend)
    assert refused.exit_code == codes.OK  # no terminal to ask on: a program that only reads runs all the same,
    assert "-> 5" in backend.prompts[1]
    assert "needs the user's approval, but there is no terminal to ask" in backend.prompts[2]  # one that writes not
    assert not (tmp_path / "mean.txt").exists()


def test_a_missing_bubblewrap_is_a_warning_line(backend: FakeBackend, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.tools

    monkeypatch.setattr(autoagent.tools, "bwrap_problem", lambda: MISSING)
    result = invoke(["--allow-python", "--workspace", str(tmp_path), "hi"], [act("FINISH"), "hello"], backend)
    assert result.exit_code == codes.OK and "python(" not in backend.prompts[0]
    assert (f"warning: the python tool is not offered: {MISSING}; --python-sandbox none runs code unsandboxed"
            in result.stderr.splitlines())


def test_permissions_belong_to_the_invocation(backend: FakeBackend, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    first = invoke(["--allow-python", "--python-sandbox", "none", "--max-steps", "1", "--workspace", str(tmp_path),
                    "count"], [act("calculator", expression="1+1"), "2"], backend)
    assert first.exit_code == codes.NOT_FINISHED
    run_id = list_transcripts()[0].run_id
    backend.models.clear()
    backend.replies.clear()
    invoke(["--resume", run_id, "--max-steps", "3"], [act("FINISH"), "2"], backend)
    resumed = load_transcript(run_id)
    assert resumed.settings["allow_python"] is None and resumed.settings["python_sandbox"] == "bwrap"
    assert "python(" not in backend.prompts[0]


@needs_bwrap
def test_batch_runs_it_with_the_command_line_s_permission(backend: FakeBackend, tmp_path: Path) -> None:
    backend.replies.extend([act("python", code="len(open('n.txt').read().split())"), act("FINISH"), "3"])
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({"id": "w", "task": "count the words", "files": {"n.txt": "a b c"}}) + "\n")
    result = CliRunner().invoke(cli, ["batch", str(tasks), "--out", str(tmp_path / "out.jsonl"), "--allow-python",
                                      "--yes"], catch_exceptions=False)
    assert result.exit_code == codes.OK, result.output
    [record] = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert record["answer"] == "3" and "-> 3" in backend.models[0].prompts[1]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "w", "task": "t", "settings": {"allow_python": True}}) + "\n")
    refused = CliRunner().invoke(cli, ["batch", str(bad), "--out", str(tmp_path / "bad-out.jsonl")])
    assert refused.exit_code == 2 and "allow_python" in refused.stderr  # a tasks file grants no permission


@needs_bwrap
def test_serve_asks_before_it_runs(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from autoagent.serve.access import Access
    from autoagent.serve.app import create_app
    from autoagent.settings import Settings

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # the web tools' embeddings are built (never used)
    code = "open('made.txt', 'w').write('made')"
    backend.replies.extend([act("python", "write it", code=code), act("FINISH"), "made it"])
    http = TestClient(create_app(Settings(model="openai:gpt-4o-mini", use_memory=False, allow_python=True),
                                 Access(token="t0ken")), base_url="http://127.0.0.1:8000",
                      headers={"Authorization": "Bearer t0ken"})
    tasks = "/ap/v1/agent/tasks"
    task_id = http.post(tasks, json={"input": "make a file"}).json()["task_id"]
    workspace = http.app.state.service.workspace(task_id)  # type: ignore[attr-defined]
    asked = http.post(f"{tasks}/{task_id}/steps", json={}).json()
    assert asked["name"] == "approval: python" and asked["additional_output"]["awaiting_approval"]["args"] == {
        "code": code}
    assert not (workspace / "made.txt").exists()
    done = http.post(f"{tasks}/{task_id}/steps", json={"input": "y"}).json()
    assert "observation: 4" in done["output"] and (workspace / "made.txt").read_text() == "made"


@needs_bwrap
def test_the_approval_on_a_terminal_shows_the_code(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    import pty
    import select

    code = "import pathlib\npathlib.Path('approved.txt').write_text('yes')"
    fake_openai.script(act("python", code=code), act("FINISH"), "wrote approved.txt")
    master, slave = pty.openpty()
    env = {**os.environ, "OPENAI_API_KEY": "test", "AUTOAGENT_RETRY_BASE_DELAY": "0.01", "TERM": "dumb"}
    command = [sys.executable, "-m", "autoagent", "--model", "openai:gpt-4o-mini", "--base-url", fake_openai.base_url,
               "--no-memory", "--allow-python", "--workspace", str(tmp_path), "write approved.txt"]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen, answered = "", False
    try:
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 4096).decode(errors="replace")
                except OSError:
                    break
            if not answered and "Allow?" in seen:
                os.write(master, b"y\n")
                answered = True
        process.wait(timeout=10)
    finally:
        process.kill()
        os.close(master)

    assert process.returncode == codes.OK, seen
    assert f"The agent wants to run python with:\r\n{{\r\n  \"code\": {json.dumps(code)}\r\n}}" in seen
    assert (tmp_path / "approved.txt").read_text() == "yes" and "wrote approved.txt" in seen

