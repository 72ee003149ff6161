"""The `autoagent` command end to end: one-shot runs, the REPL, flags, errors and exit codes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from autoagent.cli import cli
from autoagent.commands import exit_codes

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act

REPO = Path(__file__).resolve().parent.parent




def test_one_shot_answer_on_stdout_trace_on_stderr(backend: FakeBackend, tmp_path: Path) -> None:
    replies = [act("calculator", "compute it", expression="1234 * 5678 + 17"), act("FINISH"), "7006669"]
    result = invoke(["--workspace", str(tmp_path), "What is 1234 * 5678 + 17?"], replies, backend)
    assert result.exit_code == 0, result.output
    assert result.stdout == "7006669\n"
    assert "[step 1/10]" in result.stderr and "thought: compute it" in result.stderr
    assert 'action: calculator {"expression": "1234 * 5678 + 17"}' in result.stderr
    assert "observation: 7006669" in result.stderr


def test_quiet_prints_the_answer_and_only_a_summary_line(backend: FakeBackend) -> None:
    result = invoke(["--quiet", "hi"], [act("FINISH"), "hello"], backend)
    assert result.exit_code == 0 and result.stdout == "hello\n"
    assert re.fullmatch(r"finished · 1 step · \d+\.\d s · [\d,]+ in / [\d,]+ out tokens\n", result.stderr)


def test_words_of_the_task_are_joined(backend: FakeBackend) -> None:
    invoke(["--quiet", "what", "is", "2+2?"], [act("FINISH"), act("FINISH"), "4"], backend)
    assert "Task: what is 2+2?" in backend.prompts[0]


def test_step_limit_exits_non_zero_with_the_reason(backend: FakeBackend) -> None:
    replies = [act("calculator", expression="1+1"), act("calculator", expression="2+2"), "partial: 4"]
    result = invoke(["--max-steps", "2", "count"], replies, backend)
    assert result.exit_code == exit_codes.NOT_FINISHED
    assert result.stdout == "partial: 4\n"
    assert "stopped: the step limit was reached" in result.stderr


def test_settings_from_environment(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_MAX_STEPS", "1")
    monkeypatch.setenv("AUTOAGENT_NAME", "Robo")
    monkeypatch.setenv("AUTOAGENT_MODEL", "openai:some-model")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    result = invoke(["--quiet", "count"], [act("calculator", expression="1+1"), "2"], backend)
    assert result.exit_code == exit_codes.NOT_FINISHED
    assert backend.prompts[0].startswith("You are Robo,")
    assert backend.specs[0] == ("openai:some-model", "http://127.0.0.1:9/v1")


def test_base_url_from_environment_is_ignored_for_the_local_model(
    backend: FakeBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    invoke(["--quiet", "--model", "local", "hi"], [act("FINISH"), act("FINISH"), "hi"], backend)
    assert backend.specs[0] == ("local", None)


def test_chinese_prompts_and_custom_role(backend: FakeBackend) -> None:
    invoke(["--quiet", "--lang", "zh", "--role", "一个计算助手。", "hi"], [act("FINISH"), act("FINISH"), "好"], backend)
    assert backend.prompts[0].startswith("你是AutoAgent，一个计算助手。")


def test_prompts_dir_overrides_a_template(backend: FakeBackend, tmp_path: Path) -> None:
    (tmp_path / "constraints.templ").write_text("Only ever use the calculator.\n")
    invoke(["--quiet", "--prompts-dir", str(tmp_path), "hi"], [act("FINISH"), act("FINISH"), "ok"], backend)
    assert "Only ever use the calculator." in backend.prompts[0]


def test_repl_runs_each_line_and_quits(backend: FakeBackend) -> None:
    replies = [act("calculator", expression="6*7"), act("FINISH"), "42", act("FINISH"), act("FINISH"), "bye"]
    result = invoke(["--quiet"], replies, backend, stdin="What is 6*7?\n\nsay bye\nquit\nnever run\n")
    assert result.exit_code == 0
    assert result.stdout == "42\nbye\n"  # the prompts go to stderr
    assert result.stderr.count("autoagent> ") == 4
    assert len(backend.prompts) == 6


def test_repl_leaves_on_end_of_input(backend: FakeBackend) -> None:
    result = invoke(["--quiet"], [act("FINISH"), act("FINISH"), "done"], backend, stdin="task one\n")
    assert result.exit_code == 0 and result.stdout == "done\n"


def test_repl_survives_a_model_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(ScriptedChatModel):
        def _generate(self, *args: object, **kwargs: object):  # type: ignore[override]
            raise TimeoutError("server timed out")

    import autoagent.llm

    monkeypatch.setattr(autoagent.llm, "load_chat_model", lambda *a, **k: Broken(replies=[]))
    result = CliRunner().invoke(cli, ["--quiet"], input="one\nexit\n")
    assert result.exit_code == 0
    assert "Error: the model call failed: TimeoutError: server timed out" in result.stderr


def test_configuration_error_is_one_line_and_exit_1() -> None:
    result = CliRunner().invoke(cli, ["--model", "openai:gpt-4o-mini", "hi"])
    assert result.exit_code == exit_codes.ERROR
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and "OPENAI_API_KEY" in lines[0]


def test_unknown_model_spec() -> None:
    result = CliRunner().invoke(cli, ["--model", "gemini:pro", "hi"])
    assert result.exit_code == exit_codes.ERROR and "unknown model spec 'gemini:pro'" in result.stderr


def test_help_explains_every_flag() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for flag in ("--model", "--base-url", "--max-steps", "--memory-window", "--workspace", "--prompts-dir",
                 "--lang", "--name", "--role", "--verbose / --quiet", "--version", "--help"):
        assert flag in result.output, flag
    for variable in ("AUTOAGENT_MODEL", "OPENAI_BASE_URL", "AUTOAGENT_MAX_STEPS", "AUTOAGENT_WORKSPACE"):
        assert variable in result.output
    assert "Exit codes" in result.output


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or {})}
    environment.pop("OPENAI_API_KEY", None)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=REPO, env=environment,
                          timeout=120)


def test_python_dash_m_and_version() -> None:
    result = _run("-m", "autoagent", "--version")
    assert result.returncode == 0 and result.stdout.startswith("autoagent, version ")


def test_main_py_reports_a_bad_flag_as_usage_error() -> None:
    result = _run("main.py", "--max-steps", "0", "task")
    assert result.returncode == 2 and "--max-steps" in result.stderr


def test_settings_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "api_keys.env").write_text("AUTOAGENT_MODEL=nonsense:model\n")
    result = _run("-m", "autoagent", "hi", env={"AUTOAGENT_HOME": str(tmp_path)})
    assert result.returncode == exit_codes.ERROR and "unknown model spec 'nonsense:model'" in result.stderr


def test_unreachable_server_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a loopback port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = _run("-m", "autoagent", "--model", "openai:some-model", "--base-url", f"http://127.0.0.1:{port}/v1",
                  "hi", env={"AUTOAGENT_HOME": str(tmp_path)})
    assert result.returncode == exit_codes.ERROR
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("Error: the model call failed: connection refused at http://127.0.0.1:")
    assert "is the server running? check --base-url / OPENAI_BASE_URL" in lines[-1]
    assert "Traceback" not in result.stderr and "retrying" not in result.stderr  # refused: said at once


def test_sub_commands_beside_the_default_task_command(backend: FakeBackend) -> None:
    from autoagent.cli import DefaultCommandGroup
    from autoagent.commands.run import run

    @click.command("hello")
    def hello() -> None:
        """Say hello."""
        click.echo("hello there")

    group = DefaultCommandGroup(commands={"run": run, "hello": hello})
    assert CliRunner().invoke(group, ["hello"]).output == "hello there\n"
    backend.replies.extend([act("FINISH"), act("FINISH"), "a task"])
    assert CliRunner().invoke(group, ["--quiet", "hello world"]).stdout == "a task\n"
    backend.replies[:] = [act("FINISH"), act("FINISH"), "explicit"]  # each model made gets a fresh copy of the script
    assert CliRunner().invoke(group, ["run", "--quiet", "hello"]).stdout == "explicit\n"  # `run` frees the name
    help_text = CliRunner().invoke(group, ["--help"]).output
    assert "--max-steps" in help_text and "Commands:" in help_text and "Say hello." in help_text


def test_protocol_flag_selects_native_tool_calling(backend: FakeBackend) -> None:
    from .scripted import call

    backend.replies.extend([call("calculator", "c1", expression="6*7"), call("final_answer", "c2", answer="42")])
    result = invoke(["--quiet", "--protocol", "tools", "6*7?"], [], backend)
    assert result.exit_code == 0 and result.stdout == "42\n"
    assert [schema["function"]["name"] for schema in backend.models[0].bound_tools][-1] == "final_answer"


def test_protocol_flag_selects_react(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_PROTOCOL", "react")
    replies = ["Thought: compute\nAction: calculator\nAction Input: 6*7", "Final Answer: 42"]
    result = invoke(["--quiet", "6*7?"], replies, backend)
    assert result.exit_code == 0 and result.stdout == "42\n"


def test_protocol_flag_selects_code_which_offers_the_python_tool_itself(backend: FakeBackend, tmp_path: Path) -> None:
    refused = invoke(["--quiet", "--protocol", "code", "--no-allow-python", "6*7?"], [], backend)
    assert refused.exit_code == exit_codes.ERROR and "Error: --protocol code runs Python programs: it needs the " \
        "python tool" in refused.stderr and "Traceback" not in refused.stderr
    replies = ["Thought: compute\n```python\nprint(6*7)\n```", "Final Answer: 42"]
    result = invoke(["--quiet", "--protocol", "code", "--python-sandbox", "none", "--yes",
                     "--workspace", str(tmp_path), "6*7?"], replies, backend)
    assert result.exit_code == 0 and result.stdout == "42\n"


def test_mode_plan_shows_the_plan_and_pipes_the_tools(backend: FakeBackend) -> None:
    result = invoke(["--mode", "plan", "2*21"], ['["calculator"]', '{"expression": "2*21"}'], backend)
    assert result.exit_code == 0 and result.stdout == "42\n"
    assert "[plan]\n  1. calculator\n" in result.stderr


def test_mode_plan_failing_step_exits_non_zero_with_the_report(backend: FakeBackend) -> None:
    result = invoke(["--quiet", "--mode", "plan", "two plus"], ['["calculator"]', '{"expression": "2+"}'], backend)
    assert result.exit_code == exit_codes.NOT_FINISHED
    assert "\nstopped: a step failed: step 1 (calculator): calculator failed:" in result.stderr
    assert "--resume" not in result.stderr  # a plan-mode run starts over


def test_memory_is_remembered_then_recalled_by_a_later_run(
    backend: FakeBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    import autoagent.llm.embeddings

    from .test_memory_support import HashingEmbeddings

    monkeypatch.setattr(autoagent.llm.embeddings, "load_embeddings", lambda *a, **k: HashingEmbeddings())
    monkeypatch.setenv("AUTOAGENT_MEMORY", "true")
    summary = "Converted 100 USD to EUR at rate 0.92 with the calculator: 92 EUR."
    first = invoke(["--quiet", "convert 100 USD to EUR at rate 0.92"],
                   [act("calculator", expression="100*0.92"), act("FINISH"), "92 EUR", summary], backend)
    assert first.exit_code == 0 and first.stdout == "92 EUR\n"
    listed = CliRunner().invoke(cli, ["memory", "list"])
    assert listed.exit_code == 0 and "convert 100 USD to EUR at rate 0.92" in listed.output

    backend.replies[:] = [act("calculator", expression="200*0.92"), act("FINISH"), "184 EUR", "Converted 200 USD."]
    second = invoke(["--quiet", "convert 200 USD to EUR at rate 0.92"], [], backend)
    assert second.exit_code == 0 and second.stdout == "184 EUR\n"
    assert summary in backend.models[1].prompts[0]  # yesterday's run, recalled into today's prompt

    backend.replies[:] = [act("calculator", expression="300*0.92"), act("FINISH"), "276 EUR"]
    invoke(["--quiet", "--no-memory", "convert 300 USD to EUR at rate 0.92"], [], backend)
    assert summary not in backend.models[2].prompts[0]


def test_choices_match_what_the_code_accepts() -> None:
    from autoagent.commands.run import run
    from autoagent.prompts import LANGUAGES
    from autoagent.protocols import PROTOCOLS

    choices = {param.name: list(param.type.choices) for param in run.params if isinstance(param.type, click.Choice)}
    assert choices["protocol"] == ["auto", *PROTOCOLS] and choices["lang"] == list(LANGUAGES)


def test_ctrl_c_in_a_one_shot_run_exits_130(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.agent import AutoGPT

    def interrupted(self: AutoGPT, task: str, verbose: bool = False, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(AutoGPT, "execute", interrupted)
    result = invoke(["--quiet", "long task"], [], backend)
    assert result.exit_code == exit_codes.INTERRUPTED and "stopped: the run was interrupted" in result.stderr


def test_ctrl_c_in_the_repl_stops_the_run_and_returns_to_the_prompt(
    backend: FakeBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autoagent.agent import AutoGPT

    real_execute = AutoGPT.execute
    calls = []

    def first_interrupted(self: AutoGPT, task: str, verbose: bool = False, **options):  # type: ignore[no-untyped-def]
        calls.append(task)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real_execute(self, task, verbose, **options)

    monkeypatch.setattr(AutoGPT, "execute", first_interrupted)
    replies = [act("FINISH"), act("FINISH"), "second answer"]
    result = invoke(["--quiet"], replies, backend, stdin="first\nsecond\nquit\n")
    assert result.exit_code == 0 and calls == ["first", "second"]
    assert "stopped: the run was interrupted" in result.stderr and "second answer" in result.stdout


def test_a_base_url_given_for_the_local_model_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    result = _run("-m", "autoagent", "--model", "local", "--base-url", "http://127.0.0.1:8000/v1", "hi",
                  env={"AUTOAGENT_HOME": str(tmp_path)})
    assert result.returncode == exit_codes.ERROR
    assert result.stderr.strip().splitlines() == [
        "Error: a base URL applies only to openai:<model> specs, not to 'local'; "
        "e.g. --model openai:qwen2.5-coder --base-url http://127.0.0.1:8000/v1"]
