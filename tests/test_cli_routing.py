"""How `autoagent` reads its first arguments: a command, a typo of one, options before one, `help`, or a task."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner, Result

from autoagent.cli import cli, edit_distance, near_command
from autoagent.commands import exit_codes

from .cli_backend import FakeBackend, invoke
from .scripted import act

SOLVED = [act("calculator", expression="6*7"), act("FINISH"), "42"]


def autoagent(*args: str) -> Result:
    """The command as the shell runs it (so messages name `autoagent`)."""
    return CliRunner().invoke(cli, list(args), prog_name="autoagent")


@pytest.mark.parametrize("args", [
    ["--model", "openai:x", "--base-url", "http://127.0.0.1:9/v1", "memory", "list"],
    ["--quiet", "runs", "list"],
    ["--max-steps", "3", "doctor"],
])
def test_options_before_a_command_it_lacks_are_a_usage_error(backend: FakeBackend, args: list[str]) -> None:
    result = autoagent(*args)
    assert result.exit_code == exit_codes.USAGE, result.output
    command = args[-2] if args[-1] == "list" else args[-1]
    assert re.search(rf"(is not an option|are not options) of `autoagent {command}`", result.stderr)
    assert backend.models == []  # no model was made, let alone called


def test_options_before_a_command_that_has_them_apply_to_it(backend: FakeBackend) -> None:
    result = autoagent("--model", "openai:fake", "doctor", "--no-memory")
    assert result.stdout.startswith("Checking autoagent with --model openai:fake\n")
    assert backend.models == []


def test_options_before_run_apply_to_it(backend: FakeBackend) -> None:
    result = invoke(["--quiet", "run", "6*7?"], SOLVED, backend)
    assert result.exit_code == 0 and result.stdout == "42\n"


def test_an_option_value_is_not_taken_for_a_command(backend: FakeBackend) -> None:
    result = invoke(["--quiet", "--name", "memory", "6*7?"], SOLVED, backend)
    assert result.exit_code == 0 and backend.prompts[0].startswith("You are memory,")


@pytest.mark.parametrize("word, meant", [("memroy", "memory"), ("Memory", "memory"), ("rnus", "runs"),
                                         ("doctr", "doctor"), ("hepl", "help")])
def test_a_typo_of_a_command_is_a_usage_error(backend: FakeBackend, word: str, meant: str) -> None:
    result = autoagent(word, "list")
    assert result.exit_code == exit_codes.USAGE
    assert f"no command {word!r}; did you mean {meant!r}?" in result.stderr
    assert f"(to run it as a task: autoagent run {word} list)" in result.stderr
    assert backend.models == []


def test_run_takes_any_text_as_the_task(backend: FakeBackend) -> None:
    result = invoke(["run", "--quiet", "memroy list"], SOLVED, backend)
    assert result.exit_code == 0 and "Task: memroy list" in backend.prompts[0]
    backend.replies[:] = SOLVED
    result = invoke(["--quiet", "--", "memory"], [], backend)
    assert result.exit_code == 0 and "Task: memory\n" in backend.models[1].prompts[0]


@pytest.mark.parametrize("task", ["hello", "memory list please", "hi"])
def test_other_words_are_the_task(backend: FakeBackend, task: str) -> None:
    result = invoke(["--quiet", task], SOLVED, backend)
    assert result.exit_code == 0 and f"Task: {task}\n" in backend.prompts[0]


def test_near_command_and_edit_distance() -> None:
    names = ["run", "memory", "runs", "doctor", "help"]
    assert edit_distance("memroy", "memory") == 1 and edit_distance("kitten", "sitting") == 3
    assert near_command("hello", names) is None and near_command("memo", names) == "memory"
    assert near_command("two words", names) is None


@pytest.mark.parametrize("args", [["help"], ["--help"], ["-h"], ["--quiet", "--help"]])
def test_help_shows_the_whole_program(backend: FakeBackend, args: list[str]) -> None:
    result = autoagent(*args)
    assert result.exit_code == 0 and backend.models == []
    assert result.stdout.startswith("Usage: autoagent [OPTIONS] [TASK]...\n       autoagent COMMAND [ARGS]...\n")
    assert "--max-steps" in result.stdout and "How the first argument is read" in result.stdout
    commands = result.stdout.split("\nCommands:\n")[1]
    assert "summaries of past runs, kept in\n          $AUTOAGENT_HOME/memory." in commands  # whole, not cut
    for name in ("run", "memory", "runs", "doctor", "help"):
        assert f"\n  {name} " in "\n" + commands


def test_help_of_one_command(backend: FakeBackend) -> None:
    assert autoagent("help", "memory", "search").stdout.startswith("Usage: autoagent memory search [OPTIONS] QUERY...")
    assert autoagent("--help", "runs").stdout.startswith("Usage: autoagent runs [OPTIONS] COMMAND")
    result = autoagent("help", "me", "write", "a", "poem")
    assert result.exit_code == exit_codes.USAGE and "autoagent run help me write a poem" in result.stderr
    assert backend.models == []
