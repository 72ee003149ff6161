"""The REPL end to end: slash commands, the conversation carried between tasks, Ctrl-C, and a real terminal."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.commands.conversation import Conversation
from autoagent.commands.repl import EXIT_HINT, run_repl
from autoagent.prompts import PromptTemplateBuilder

from .scripted import ScriptedChatModel, act

REPO = Path(__file__).resolve().parent.parent

HELP = """\
Commands:
  /help           this list (also help)
  /tools          the tools the agent may call
  /memory [ARGS]  long-term memory: list, search TEXT, show ID, forget ID, ...
  /runs [ARGS]    recorded runs
  /model          the model in use
  /speak          say each step and the answer aloud, or stop (also /speak on, off)
  /clear          forget this conversation's earlier exchanges
  /quit           leave (also quit, exit, Ctrl-D)
Keys:
  Enter           run the entry
  Esc-Enter       start a new line (Alt-Enter too, or end the line with \\)
  Up, Down        earlier entries (saved in $AUTOAGENT_HOME/repl_history)
  Ctrl-C          stop a run, or clear the line; twice on an empty line to leave
  Ctrl-D          leave
Anything else is a task; it sees the last few exchanges of this conversation.
"""
BANNER = ("autoagent with local (ScriptedChatModel): type a task. Enter runs it; Esc-Enter or a trailing \\ "
          "starts a new line; /help lists commands; Ctrl-D leaves.")


@tool
def multiply(a: int, b: int) -> str:
    """Multiply two integers."""
    return str(a * b)


multiply.metadata = {"read_only": True}  # it only computes: it runs without a terminal to approve it


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedChatModel]:
    """Every model the CLI builds, scripted by `script`; the agent gets only the multiply tool."""
    import autoagent.llm
    import autoagent.tools

    made = [ScriptedChatModel(replies=[])]  # made[0] only holds the script; the CLI's model is made[1]

    def load(*args: object, **kwargs: object) -> ScriptedChatModel:
        made.append(ScriptedChatModel(replies=list(made[0].replies)))
        return made[-1]

    monkeypatch.setattr(autoagent.llm, "load_chat_model", load)
    monkeypatch.setattr(autoagent.tools, "default_tools", lambda *a, **k: [multiply])
    monkeypatch.setenv("AUTOAGENT_MEMORY", "false")
    return made


def repl(models: list[ScriptedChatModel], stdin: str, *replies: str) -> tuple[Result, ScriptedChatModel | None]:
    """Run `autoagent --quiet` on `stdin`; the model the REPL used, if it was built."""
    models[0].replies.extend(replies)
    result = CliRunner().invoke(cli, ["--quiet"], input=stdin, catch_exceptions=False)
    return result, models[1] if len(models) > 1 else None


def test_help_lists_the_commands_and_keys(models: list[ScriptedChatModel]) -> None:
    result, _ = repl(models, "/help\n/quit\n")
    assert result.exit_code == 0
    assert result.stdout == HELP


def test_tools_model_and_unknown_command(models: list[ScriptedChatModel]) -> None:
    result, model = repl(models, "/TOOLS\n/model\n/frobnicate now\nQUIT\n")
    assert result.exit_code == 0 and model is not None and model.prompts == []
    assert result.stdout == "multiply: Multiply two integers.\nModel: local (ScriptedChatModel)\n"
    prompts = "autoagent> " * 3
    assert result.stderr == f"{BANNER}\n{prompts}Unknown command /frobnicate; /help lists them.\nautoagent> "


def test_the_next_task_carries_the_conversation(models: list[ScriptedChatModel]) -> None:
    result, model = repl(models, "What is six times seven?\nand doubled?\n",
                         act("multiply", a=6, b=7), act("FINISH"), "42", act("multiply", a=42, b=2), act("FINISH"),
                         "84")
    assert result.exit_code == 0 and model is not None
    assert result.stdout == "42\n84\n"
    assert "Task: What is six times seven?\n\nMemories" in model.prompts[0]
    assert ("Task: and doubled?\n\n(Earlier in this conversation, oldest first; the request may refer to it:\n"
            "Request: What is six times seven?\nAnswer: 42)\n\nMemories") in model.prompts[3]


@tool
def record(note: str) -> str:
    """Record a note."""
    return f"recorded {note}"


def test_always_allow_holds_for_later_tasks_of_the_session_only(models: list[ScriptedChatModel],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.acting.approval
    import autoagent.tools

    monkeypatch.setattr(autoagent.tools, "default_tools", lambda *a, **k: [record])  # side-effecting: it asks
    monkeypatch.setattr(autoagent.acting.approval, "_is_terminal", lambda stream: True)  # answers come from stdin
    result, _ = repl(models, "note one\na\nnote two\n", act("record", note="one"), act("FINISH"), "done one",
                     act("record", note="two"), act("FINISH"), "done two")
    assert result.exit_code == 0 and result.stdout == "done one\ndone two\n"
    assert result.stderr.count("Allow? ") == 1 and "a = always allow record (this session)" in result.stderr

    models[0].replies.clear()
    result, _ = repl(models, "note three\ny\n", act("record", note="three"), act("FINISH"), "done three")
    assert result.exit_code == 0 and result.stdout == "done three\n"
    assert result.stderr.count("Allow? ") == 1  # a new session asks again


def test_clear_forgets_the_conversation(models: list[ScriptedChatModel]) -> None:
    result, model = repl(models, "first\n/clear\nsecond\nexit\n", act("FINISH"), act("FINISH"), "one", act("FINISH"),
                         act("FINISH"), "two")
    assert result.exit_code == 0 and model is not None
    assert result.stdout == "one\nConversation cleared.\ntwo\n"
    assert "Task: second\n\nMemories" in model.prompts[3]
    assert "Request: first" not in model.prompts[3] and "Earlier in this conversation" not in model.prompts[3]


def test_quit_leaves_before_the_rest_of_the_input(models: list[ScriptedChatModel]) -> None:
    result, model = repl(models, "/Quit\nnever run\n")
    assert result.exit_code == 0 and result.stdout == "" and model is not None and model.prompts == []


def test_end_of_input_leaves(models: list[ScriptedChatModel]) -> None:
    result, _ = repl(models, "/clear\n")
    assert result.exit_code == 0 and result.stdout == "Conversation cleared.\n"


def test_a_trailing_backslash_continues_the_entry(models: list[ScriptedChatModel]) -> None:
    result, model = repl(models, "add up\\\n  these lines\n", act("FINISH"), act("FINISH"), "done")
    assert result.exit_code == 0 and model is not None
    assert result.stdout == "done\n" and "autoagent> ... " in result.stderr
    assert "Task: add up\n  these lines\n" in model.prompts[0]


def test_memory_and_runs_commands(models: list[ScriptedChatModel], monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[str] = []
    fake = types.ModuleType("autoagent.commands.runs")
    fake.run_runs_command = heard.append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "autoagent.commands.runs", fake)
    result, _ = repl(models, "/memory\n/runs show 2\n/RUNS\n")
    assert result.exit_code == 0 and result.stdout == "No memories yet.\n"
    assert heard == ["show 2", ""]


def test_runs_missing_is_one_line(models: list[ScriptedChatModel], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "autoagent.commands.runs", None)  # importing it now raises ImportError
    result, _ = repl(models, "/runs\n")
    assert result.exit_code == 0 and "Error: /runs is not available in this version of autoagent." in result.stderr


def test_banner_names_the_model_and_the_keys(models: list[ScriptedChatModel]) -> None:
    result, _ = repl(models, "")
    assert result.stderr == f"{BANNER}\nautoagent> \n"  # the banner, the prompt, a new line at the end of input


def entries(*items: str | type[BaseException]) -> Callable[[], str]:
    """A `read_entry` that returns or raises `items` in turn, then EOF."""
    queue: Iterator[str | type[BaseException]] = iter(items)

    def read() -> str:
        item = next(queue, EOFError)
        if isinstance(item, str):
            return item
        raise item

    return read


def make_agent(*replies: str) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(llm=llm, tools=[multiply]), llm


def test_ctrl_c_twice_on_an_empty_line_leaves(capsys: pytest.CaptureFixture[str]) -> None:
    agent, _ = make_agent()
    ran: list[str] = []
    read = entries(KeyboardInterrupt, "/model", KeyboardInterrupt, KeyboardInterrupt, "never read")

    def record(task: str) -> int:
        ran.append(task)
        return 0

    run_repl(agent, model_spec="openai:gpt-4o-mini", run_task=record, read_entry=read)
    out, err = capsys.readouterr()
    assert out == "Model: openai:gpt-4o-mini (ScriptedChatModel)\n" and ran == []
    assert err.splitlines()[1:] == [EXIT_HINT, EXIT_HINT, ""]  # a command in between disarms the first one


def test_a_run_stopped_by_ctrl_c_arms_the_exit(capsys: pytest.CaptureFixture[str]) -> None:
    agent, _ = make_agent()
    ran: list[str] = []

    def interrupted(task: str) -> int:
        ran.append(task)
        raise KeyboardInterrupt  # a run_task that does not catch it itself

    run_repl(agent, run_task=interrupted, read_entry=entries("long task", KeyboardInterrupt, "never run"))
    _, err = capsys.readouterr()
    assert ran == ["long task"]
    assert err.splitlines()[1:] == ["", "interrupted: the run was stopped", EXIT_HINT, ""]


def test_an_interrupted_run_is_not_part_of_the_conversation(capsys: pytest.CaptureFixture[str]) -> None:
    agent, _ = make_agent(act("FINISH"), act("FINISH"), "first answer", act("FINISH"), act("FINISH"), "second answer")
    codes = iter([exit_codes.INTERRUPTED, exit_codes.OK])
    tasks: list[str] = []

    def run_task(task: str) -> int:
        tasks.append(task)
        agent.execute(task)
        return next(codes)

    run_repl(agent, run_task=run_task, read_entry=entries("one", "two", "three"))
    assert tasks[:2] == ["one", "two"] and "Request: two\nAnswer: second answer" in tasks[2]
    assert "Request: one" not in tasks[2]
    assert capsys.readouterr().err.count(EXIT_HINT) == 1


def test_conversation_keeps_the_last_few_clipped() -> None:
    conversation = Conversation(max_exchanges=2, max_chars=10)
    for number in range(3):
        conversation.add(f"request {number}", f"answer {number} " + "x" * 20)
    task = conversation.task_for("next", PromptTemplateBuilder())
    assert task == ("next\n\n(Earlier in this conversation, oldest first; the request may refer to it:\n"
                    "Request: request 1\nAnswer: answer 1…\n\nRequest: request 2\nAnswer: answer 2…)")
    assert Conversation().task_for("alone", PromptTemplateBuilder()) == "alone"


def test_conversation_in_chinese() -> None:
    conversation = Conversation()
    conversation.add("6乘7", "42")
    task = conversation.task_for("再乘2", PromptTemplateBuilder(lang="zh"))
    assert task == "再乘2\n\n（本次对话之前的交流，从早到晚；上面的请求可能提到它们：\n请求：6乘7\n回答：42）"  # noqa: RUF001  (Chinese punctuation, as the template writes it)


PTY_DRIVER = """\
from autoagent import AutoGPT
from autoagent.commands.repl import run_repl
from autoagent.commands.run import run_once
from tests.scripted import ScriptedChatModel, act
llm = ScriptedChatModel(replies=[act("FINISH"), "forty-two"])
agent = AutoGPT(llm=llm, tools=[])
run_repl(agent, run_task=lambda task: run_once(agent, task, False), model_spec="scripted:pty")
print("the model saw:", repr(llm.prompts[0].split("Task: ")[1].split("\\n\\nMemories")[0]) if llm.prompts else None)
"""


class Terminal:
    """A child process on a pseudo-terminal: type keys, wait for text."""

    def __init__(self, home: Path) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        env = {**os.environ, "AUTOAGENT_HOME": str(home), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1",
               "PYTHONPATH": str(REPO)}
        self.child = subprocess.Popen([sys.executable, "-c", PTY_DRIVER], stdin=slave, stdout=slave, stderr=slave,
                                      cwd=REPO, env=env, start_new_session=True)
        os.close(slave)
        self.output = ""
        self.seen = 0  # where the next read_until starts looking

    def read_until(self, text: str, timeout: float = 30) -> None:
        """Read until `text` has appeared after the last text waited for, or fail after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self.seen:]:
            if not self._read(deadline):
                raise AssertionError(f"{text!r} never came; the terminal showed:\n{self.output}")
        self.seen = self.output.index(text, self.seen) + len(text)

    def read_to_end(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while self._read(deadline):
            pass
        self.child.wait(timeout=max(deadline - time.monotonic(), 1))

    def _read(self, deadline: float) -> bool:
        """Read what is there; False at end of output or at the deadline."""
        ready, _, _ = select.select([self.master], [], [], max(deadline - time.monotonic(), 0))
        if not ready:
            return False
        try:
            data = os.read(self.master, 4096)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output += data.decode(errors="replace")
        return bool(data)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait(timeout=10)
        os.close(self.master)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_the_terminal_prompt_edits_keeps_history_and_quits(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path)
    try:
        terminal.read_until("autoagent>")
        terminal.type("half typed\x03")  # Ctrl-C with text on the line only clears it
        terminal.type("What is\\\r")  # a trailing backslash continues on a new line
        terminal.type("6*7?\x1b\rexactly\r")  # so does Esc-Enter; Enter submits
        terminal.read_until("forty-two")
        terminal.read_until("autoagent>")
        terminal.type("/quit\r")
        terminal.read_to_end()
    finally:
        terminal.close()
    assert terminal.child.returncode == 0, terminal.output
    assert "scripted:pty (ScriptedChatModel)" in terminal.output  # the banner and the toolbar name the model
    assert "the model saw: 'What is\\n6*7?\\nexactly'" in terminal.output
    assert EXIT_HINT not in terminal.output
    history = (tmp_path / "repl_history").read_text()
    assert "+What is\n+6*7?\n+exactly\n" in history and "+/quit\n" in history and "half typed" not in history
    assert (tmp_path / "repl_history").stat().st_mode & 0o777 == 0o600  # it holds every task typed


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_the_terminal_prompt_leaves_on_two_ctrl_c(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path)
    try:
        terminal.read_until("autoagent>")
        terminal.type("\x03")
        terminal.read_until(EXIT_HINT)
        terminal.read_until("autoagent>")  # typed before the prompt is back, a Ctrl-C would be lost
        terminal.type("\x03")
        terminal.read_to_end()
    finally:
        terminal.close()
    assert terminal.child.returncode == 0 and "the model saw: None" in terminal.output


def test_memory_search_uses_the_session_model_and_the_whole_line(
    models: list[ScriptedChatModel], monkeypatch: pytest.MonkeyPatch
) -> None:
    from autoagent.memory.long_term import LongTermMemory

    opened: list[tuple[str, str | None]] = []
    queries: list[str] = []

    class Backend:
        def search(self, query: str, k: int) -> list[object]:
            queries.append(query)
            return []

    def open_memory(spec: str, *, base_url: str | None = None, **_: object) -> object:
        opened.append((spec, base_url))
        return types.SimpleNamespace(backend=Backend(), min_score=0.5)

    monkeypatch.setattr(LongTermMemory, "open", open_memory)
    url = "http://127.0.0.1:9/v1"
    result = CliRunner().invoke(cli, ["--quiet", "--model", "openai:fake", "--base-url", url],
                                input="/memory search 1234 5678\n/memory search --model local usd\n")
    assert result.exit_code == 0, result.output
    assert opened == [("openai:fake", url), ("local", None)] and queries == ["1234 5678", "usd"]
    assert "No memory reaches the recall threshold 0.50" in result.stdout


def test_help_without_the_slash_is_the_help_not_a_task(models: list[ScriptedChatModel]) -> None:
    result, model = repl(models, "help\nHELP\n")
    assert result.exit_code == 0 and result.stdout == HELP * 2
    assert model is not None and model.prompts == []
