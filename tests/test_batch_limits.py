"""`autoagent batch` and an untrusted tasks file: budgets at most the command line's, models the command line
allows, values the command line would accept, and workspaces and results readable by the user alone."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from autoagent.cli import cli
from autoagent.commands import exit_codes as codes

from .batch_fakes import read_lines
from .cli_backend import FakeBackend
from .scripted import act

SUM = [act("calculator", expression="6*7"), act("FINISH"), "42"]


def batch(*args: str) -> tuple[int, str]:
    """`autoagent batch ...` in this process: the exit code and stderr."""
    result = CliRunner().invoke(cli, ["batch", *args], catch_exceptions=False)
    return result.exit_code, result.stderr


def write_tasks(path: Path, *settings: dict[str, object]) -> Path:
    """A tasks file of one task per settings object, ids t1, t2, ..."""
    path.write_text("".join(json.dumps({"id": f"t{number}", "task": "What is 6 * 7?", "settings": values}) + "\n"
                            for number, values in enumerate(settings, start=1)))
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_workspaces_and_results_are_the_users_alone(backend: FakeBackend, tmp_path: Path,
                                                    isolated_home: Path) -> None:
    backend.replies.extend(SUM)
    tasks = write_tasks(tmp_path / "tasks.jsonl", {})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.OK, err
    [record] = read_lines(tmp_path / "out.jsonl")
    workspace = Path(record["workspace"])
    assert [mode(folder) for folder in (isolated_home / "batch", workspace.parent, workspace)] == [0o700] * 3
    assert mode(tmp_path / "out.jsonl") == 0o600


def test_a_task_may_lower_a_budget_but_not_raise_it(backend: FakeBackend, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"max_steps": 8}, {"max_tokens": None}, {"max_seconds": 100},
                        {"tool_timeout": 0}, {"max_steps": 1, "max_tokens": 50, "tool_timeout": 5})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--max-steps", "2", "--max-tokens", "100",
                      "--max-seconds", "60")

    assert code == codes.USAGE
    assert err.splitlines() == [
        f"error: {tasks}:1: task t1: max_steps 8 is above the command line's 2 (--max-steps): a task may lower a "
        "budget, not raise it",
        f"error: {tasks}:2: task t2: max_tokens null (no limit) is above the command line's 100 (--max-tokens): a "
        "task may lower a budget, not raise it",
        f"error: {tasks}:3: task t3: max_seconds 100 is above the command line's 60.0 (--max-seconds): a task may "
        "lower a budget, not raise it",
        f"error: {tasks}:4: task t4: tool_timeout 0 (no limit) is above the command line's 60.0 (--tool-timeout): a "
        "task may lower a budget, not raise it",
    ]
    assert not backend.models and not (tmp_path / "out.jsonl").exists()

    backend.replies.extend([act("calculator", expression="6*7"), "42"])
    write_tasks(tasks, {"max_steps": 1, "max_tokens": 5000})  # lowered: it holds
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--max-steps", "2")
    assert code == codes.NOT_FINISHED, err
    [record] = read_lines(tmp_path / "out.jsonl")
    assert record["stop_reason"] == "max_steps" and record["steps"] == 1


def test_a_task_picks_only_a_model_the_command_line_allows(backend: FakeBackend, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"model": "local:~/x.gguf"}, {"model": "openai:gpt-4o"},
                        {"model": "openai:fake"})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--model", "openai:fake")

    assert code == codes.USAGE
    assert err.splitlines() == [
        f"error: {tasks}:1: task t1: the model 'local:~/x.gguf' is not one the command line allows (openai:fake; "
        "--allow-model adds others)",
        f"error: {tasks}:2: task t2: the model 'openai:gpt-4o' is not one the command line allows (openai:fake; "
        "--allow-model adds others)",
    ]
    backend.replies.extend(SUM)
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--model", "openai:fake",
                      "--allow-model", "openai:*", "--allow-model", "local:/models/*.gguf")
    assert code == codes.USAGE and err.splitlines() == [
        f"error: {tasks}:1: task t1: the model 'local:~/x.gguf' is not one the command line allows (openai:fake, "
        "openai:*, local:/models/*.gguf; --allow-model adds others)"]
    tasks.write_text("\n".join(tasks.read_text().splitlines()[1:]) + "\n")
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--model", "openai:fake",
                      "--allow-model", "openai:*")
    assert code == codes.OK, err
    assert [spec for spec, _ in backend.specs] == ["openai:gpt-4o", "openai:fake"]


def test_values_the_command_line_would_refuse_are_refused_at_validation(backend: FakeBackend, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"max_steps": -1}, {"max_steps": 0}, {"max_steps": None},
                        {"context_window": 1}, {"max_cost": 0}, {"memory_window": None})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.USAGE
    assert err.splitlines() == [
        f"error: {tasks}:1: task t1: the setting 'max_steps': -1 is not in the range x>=1 (as --max-steps)",
        f"error: {tasks}:2: task t2: the setting 'max_steps': 0 is not in the range x>=1 (as --max-steps)",
        f"error: {tasks}:3: task t3: the setting 'max_steps' cannot be null",
        f"error: {tasks}:4: task t4: the setting 'context_window': 1 is not in the range x>=512 (as --context-window)",
        f"error: {tasks}:5: task t5: the setting 'max_cost': 0.0 is not in the range x>0 (as --max-cost)",
        f"error: {tasks}:6: task t6: the setting 'memory_window' cannot be null",
    ]
    assert not backend.models


WRITES = "Thought: I write it.\n```python\nopen('pwned.txt', 'w').write('x')\n```"


def test_a_task_cannot_turn_the_python_tool_on(backend: FakeBackend, tmp_path: Path) -> None:
    # The attack: a tasks file picks the code protocol, whose only tool is python, on a batch without --allow-python.
    backend.replies.extend([WRITES, "Final Answer: done"])
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"protocol": "code"}, {"protocol": "auto"})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--yes", "--python-sandbox", "none")

    assert code == codes.USAGE
    assert err.splitlines() == [
        f"error: {tasks}:1: task t1: the protocol 'code' runs programs with the python tool, which the command line "
        "does not grant (--allow-python or --protocol code)"]
    assert not backend.models and not list(tmp_path.rglob("pwned.txt"))


def test_each_task_gets_the_command_lines_permissions_whatever_its_protocol(tmp_path: Path) -> None:
    from autoagent.batch.tasks import BatchTask
    from autoagent.commands.batch import make_job
    from autoagent.settings import Settings

    def job(invocation: Settings, **settings: object) -> dict[str, object]:
        return make_job(BatchTask("t1", "task", dict(settings)), invocation, tmp_path).settings

    assert job(Settings(), protocol="auto")["allow_python"] is False  # auto finds no python tool to pick
    assert job(Settings(protocol="code"), protocol="json")["allow_python"] is True  # granted by --protocol code
    assert job(Settings(protocol="auto"), protocol="auto")["allow_python"] is None  # auto decides, as it would
    assert job(Settings(protocol="auto"), protocol="code")["allow_python"] is False
    assert job(Settings(allow_python=False, protocol="code"), protocol="code")["allow_python"] is False
    assert job(Settings(yes=False, allow_shell=False), yes=True)["yes"] is False


def test_a_task_cannot_turn_memory_on(backend: FakeBackend, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", {"use_memory": True}, {"use_memory": False})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"), "--no-memory")

    assert code == codes.USAGE
    assert err.splitlines() == [
        f"error: {tasks}:1: task t1: use_memory true, but the command line says --no-memory: a task may turn memory "
        "off, not on"]


def test_a_deeply_nested_line_is_named_and_nothing_runs(backend: FakeBackend, tmp_path: Path) -> None:
    # The attack: a line nested past the recursion limit ended the batch in a traceback.
    tasks = tmp_path / "tasks.jsonl"
    for depth in (150, 100_000):
        tasks.write_text('{"id": "t1", "task": "x", "settings": {"tools": ' + "[" * depth + "]" * depth + "}}\n")
        code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"))
        assert code == codes.USAGE and err == f"error: {tasks}:1: not JSON (nested more than 100 levels deep)\n"
    assert not backend.models


def test_a_huge_tasks_file_starts_its_first_task_at_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The attack: 100,000 lines took 0.85-1.6 GB and 25 s before the first task: every job was built first.
    import time

    import autoagent.commands.batch as batch_command
    from autoagent.batch.worker import Job

    from .scripted import ScriptedChatModel

    made: list[int] = []
    seen: dict[str, float] = {}
    original = batch_command.make_job

    def counted(*args: object, **kwargs: object) -> Job:
        made.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    class Interrupting(ScriptedChatModel):
        def _generate(self, *args: object, **kwargs: object) -> object:
            seen.setdefault("first", time.monotonic())
            seen.setdefault("jobs", len(made))
            raise KeyboardInterrupt  # Ctrl-C once the first task asks its model

    monkeypatch.setattr(batch_command, "make_job", counted)
    monkeypatch.setattr("autoagent.llm.load_chat_model", lambda *a, **k: Interrupting(replies=[]))
    monkeypatch.setenv("AUTOAGENT_MEMORY", "false")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": f"t{n}", "task": f"What is {n} + 1?"}) + "\n" for n in range(100_000)))
    started = time.monotonic()
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.INTERRUPTED, err
    assert seen["jobs"] <= 2 and seen["first"] - started < 15  # the file read and checked (about 1 s), one job made
