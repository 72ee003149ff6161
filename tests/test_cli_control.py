"""Issue 6 through the command line: approvals, budgets, the shell, transcripts, Ctrl-C, kill -9 and --resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autoagent.commands import exit_codes as codes
from autoagent.steps import StopReason
from autoagent.transcripts.reader import list_transcripts, load_transcript

from .cli_backend import FakeBackend, invoke
from .fake_openai import FakeOpenAI, Hold
from .scripted import act

REPO = Path(__file__).resolve().parent.parent


def test_without_a_terminal_a_side_effecting_tool_is_refused(backend: FakeBackend, tmp_path: Path) -> None:
    replies = [act("write_file", path="note.txt", content="hi"), act("list_files", path="."), act("FINISH"),
               "could not write"]
    result = invoke(["--workspace", str(tmp_path), "write a note"], replies, backend)

    assert result.exit_code == codes.OK and result.stdout == "could not write\n"  # the refusal did not end the run
    assert not (tmp_path / "note.txt").exists()
    assert "needs the user's approval, but there is no terminal to ask" in backend.prompts[1]


def test_yes_runs_side_effecting_tools_without_asking(backend: FakeBackend, tmp_path: Path) -> None:
    replies = [act("write_file", path="note.txt", content="hi"), act("FINISH"), "written"]
    result = invoke(["--yes", "--workspace", str(tmp_path), "write a note"], replies, backend)

    assert result.exit_code == codes.OK and result.stdout == "written\n"
    assert (tmp_path / "note.txt").read_text() == "hi"


def test_the_shell_is_not_offered_by_default(backend: FakeBackend, tmp_path: Path) -> None:
    invoke(["--workspace", str(tmp_path), "hi"], [act("FINISH"), "hello"], backend)
    assert "calculator(" in backend.prompts[0] and "shell(" not in backend.prompts[0]


def test_allow_shell_offers_the_shell_in_the_workspace(backend: FakeBackend, tmp_path: Path) -> None:
    replies = [act("shell", command="echo made > out.txt"), act("FINISH"), "done"]
    result = invoke(["--allow-shell", "--yes", "--workspace", str(tmp_path), "make a file"], replies, backend)
    assert result.exit_code == codes.OK
    assert "shell(" in backend.prompts[0]
    assert (tmp_path / "out.txt").read_text() == "made\n"


def test_a_token_budget_stops_the_run_with_the_best_answer_and_exit_code_3(backend: FakeBackend) -> None:
    replies = [act("calculator", expression="6*7"), act("calculator", expression="6*8")]
    result = invoke(["--max-tokens", "50", "what is 6*7?"], replies, backend)

    assert result.exit_code == codes.NOT_FINISHED
    assert result.stdout == "42\n"
    assert "stopped: a budget was spent: --max-tokens 50 tokens reached" in result.stderr
    assert "autoagent --resume " in result.stderr


def test_every_run_leaves_a_transcript_that_runs_show_prints(backend: FakeBackend) -> None:
    result = invoke(["what is 6*7?"], [act("calculator", expression="6*7"), act("FINISH"), "42"], backend)
    assert result.exit_code == codes.OK

    [summary] = list_transcripts()
    transcript = load_transcript(summary.run_id)
    assert transcript.task == "what is 6*7?" and transcript.answer == "42"
    assert [step.observation for step in transcript.steps] == ["42", ""]
    assert transcript.settings["max_steps"] == 10 and transcript.settings["yes"] is False


def test_json_output_is_one_object_with_the_steps(backend: FakeBackend) -> None:
    result = invoke(["--json", "what is 6*7?"], [act("calculator", expression="6*7"), act("FINISH"), "42"], backend)

    data = json.loads(result.stdout)
    assert data["answer"] == "42" and data["finished"] and data["stop_reason"] == "finished"
    assert data["steps"][0]["action"] == {"name": "calculator", "args": {"expression": "6*7"}}
    assert data["run_id"] == list_transcripts()[0].run_id


def test_resume_refuses_a_finished_run_and_an_unknown_id(backend: FakeBackend) -> None:
    invoke(["hi"], [act("FINISH"), act("FINISH"), "hello"], backend)
    run_id = list_transcripts()[0].run_id

    finished = invoke(["--resume", run_id], [], backend)
    assert finished.exit_code == 1 and f"run {run_id} finished its task" in finished.stderr
    unknown = invoke(["--resume", "nope"], [], backend)
    assert unknown.exit_code == 1 and unknown.stderr.startswith("Error: ")


def _start(server: FakeOpenAI, home: Path, *args: str) -> subprocess.Popen[str]:
    """A real `autoagent` process against the fake server, with its own home."""
    env = {**os.environ, "AUTOAGENT_HOME": str(home), "OPENAI_API_KEY": "sk-test-secret-123456",
           "AUTOAGENT_RETRY_BASE_DELAY": "0.01"}
    command = [sys.executable, "-m", "autoagent", "--model", "openai:gpt-4o-mini", "--base-url", server.base_url,
               "--no-memory", "--workspace", str(home / "workspace"), *args]
    return subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["kill -9", "ctrl-c"])
def test_a_killed_or_interrupted_run_resumes_from_its_last_step(
    fake_openai: FakeOpenAI, tmp_path: Path, stop: signal.Signals, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold = Hold()
    fake_openai.script(act("calculator", expression="1234*5678"), hold)
    process = _start(fake_openai, tmp_path, "--quiet", "What is 1234*5678 + 17?")
    try:
        assert hold.arrived.wait(60), "the second model call never came"
        process.send_signal(stop)
        process.communicate(timeout=30)
    finally:
        hold.release()
        process.kill()
    assert process.returncode == (-signal.SIGKILL if stop is signal.SIGKILL else codes.INTERRUPTED)
    monkeypatch.setenv("AUTOAGENT_HOME", str(tmp_path))
    [summary] = list_transcripts()
    stopped = load_transcript(summary.run_id)
    assert [step.observation for step in stopped.steps] == ["7006652"]
    assert stopped.stop_reason is (None if stop is signal.SIGKILL else StopReason.INTERRUPTED)
    assert "sk-test-secret-123456" not in stopped.path.read_text()

    fake_openai.script(act("calculator", expression="7006652 + 17"), act("FINISH"), "7006669")
    resumed = _start(fake_openai, tmp_path, "--quiet", "--resume", summary.run_id[:15])
    out, err = resumed.communicate(timeout=120)

    assert resumed.returncode == codes.OK, err
    assert out == "7006669\n"
    first_resumed_prompt = fake_openai.chat_requests[-3].body["messages"][0]["content"]
    assert "Step 1." in first_resumed_prompt and "-> 7006652" in first_resumed_prompt  # memory rebuilt
    final = load_transcript(summary.run_id)
    assert [step.number for step in final.steps] == [1, 2, 3] and final.answer == "7006669"


def test_approvals_on_a_real_terminal_take_y_n_and_feedback(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    import pty
    import select
    import time

    writes = [act("write_file", path=f"{name}.txt", content=name) for name in ("a", "b", "c")]
    fake_openai.script(*writes, act("FINISH"), act("FINISH"), "wrote a and b")  # the first FINISH: c was not run
    master, slave = pty.openpty()
    env = {**os.environ, "OPENAI_API_KEY": "test", "AUTOAGENT_RETRY_BASE_DELAY": "0.01", "TERM": "dumb"}
    command = [sys.executable, "-m", "autoagent", "--model", "openai:gpt-4o-mini", "--base-url", fake_openai.base_url,
               "--no-memory", "--workspace", str(tmp_path), "write three notes"]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    answers, seen = ["y -1", "please call it d.txt"], ""
    try:
        deadline = time.monotonic() + 90
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 4096).decode(errors="replace")
                except OSError:
                    break
            if answers and seen.count("Allow?") > 2 - len(answers):
                os.write(master, (answers.pop(0) + "\n").encode())
        process.wait(timeout=10)
    finally:
        process.kill()
        os.close(master)

    assert process.returncode == codes.OK, seen
    assert seen.count("Allow?") == 2  # y -1 covered the second write
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    last_prompt = fake_openai.chat_requests[3].body["messages"][0]["content"]
    assert "The user did not run this action and says: please call it d.txt" in last_prompt
    assert "wrote a and b" in seen


def test_permissions_belong_to_the_invocation_not_the_run(backend: FakeBackend, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    write = act("write_file", path="note.txt", content="hi")
    first = invoke(["--yes", "--max-steps", "1", "--workspace", str(tmp_path), "write a note"],
                   [act("calculator", expression="1+1"), "2"], backend)
    assert first.exit_code == codes.NOT_FINISHED
    run_id = list_transcripts()[0].run_id

    monkeypatch.setenv("AUTOAGENT_YES", "false")
    backend.replies.clear()  # each model made follows the script from its start
    resumed = invoke(["--resume", run_id, "--max-steps", "3"], [write, act("FINISH"), act("FINISH"), "not written"],
                     backend)
    assert resumed.exit_code == codes.OK and resumed.stdout.endswith("not written\n")
    transcript = load_transcript(run_id)
    assert transcript.settings["yes"] is False and not (tmp_path / "note.txt").exists()
    assert "there is no terminal to ask" in transcript.steps[1].observation

    monkeypatch.setenv("AUTOAGENT_YES", "true")
    backend.replies.clear()
    replies = [write, act("list_files", path="."), act("FINISH"), "no"]
    refused = invoke(["--no-yes", "--workspace", str(tmp_path), "write a note"], replies, backend)
    assert refused.exit_code == codes.OK and not (tmp_path / "note.txt").exists()


def test_a_run_resumed_elsewhere_is_refused_in_one_line(backend: FakeBackend) -> None:
    from autoagent.transcripts.writer import run_lock

    invoke(["--max-steps", "1", "what is 1+1?"], [act("calculator", expression="1+1"), "2"], backend)
    run_id = list_transcripts()[0].run_id
    with run_lock(run_id):  # as another `autoagent --resume` holds it
        second = invoke(["--resume", run_id[:15], "--max-steps", "3"], [act("FINISH"), "2"], backend)
    assert second.exit_code == 1
    assert second.stderr == (f"Error: run {run_id} is already running in another autoagent process (a run or a "
                             "--resume); wait until it stops, then resume it\n")
    assert len(load_transcript(run_id).steps) == 1


def test_a_task_argument_that_is_not_utf8_runs(backend: FakeBackend) -> None:
    result = invoke(["caf\udce9 menu?"], [act("calculator", expression="1+1"), act("FINISH"), "2"], backend)
    assert result.exit_code == codes.OK and load_transcript(list_transcripts()[0].run_id).task == "caf\ufffd menu?"
