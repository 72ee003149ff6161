"""Ctrl-C at every point of a one-shot run: while the model answers a step, while a tool runs, while the final
answer is written and while the run is summarised into memory. Each ends the run at once, exit 130, with the
resume hint for a run that can be continued."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Any

import pytest
from click.testing import CliRunner
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.vectorstores import InMemoryVectorStore

from autoagent.cli import cli
from autoagent.commands import exit_codes as codes

from .scripted import ScriptedChatModel, act
from .test_memory_support import HASH_MIN_SCORE, HashingEmbeddings

BLOCK = "<block>"  # a reply that never comes: the model blocks until Ctrl-C
BLOCK_SECONDS = 30.0
STOPPED_WITHIN = 5.0  # seconds from Ctrl-C to the command's end


class BlockingModel(ScriptedChatModel):
    """A scripted model whose BLOCK reply hangs (a slow server), with Ctrl-C sent half a second into the wait."""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        if len(self.replies) > len(self.prompts) and self.replies[len(self.prompts)] == BLOCK:
            self.prompts.append("\n".join(str(message.content) for message in messages))
            ctrl_c_soon()
            threading.Event().wait(BLOCK_SECONDS)
            return super()._generate(messages, *args, **kwargs)  # too late: the script has no reply for it
        return super()._generate(messages, *args, **kwargs)


def ctrl_c_soon() -> None:
    """SIGINT to this process in half a second, as Ctrl-C at the terminal."""
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()


def run(monkeypatch: pytest.MonkeyPatch, replies: list[str], *args: str) -> tuple[int, str, float]:
    """`autoagent --quiet ARGS` in this process on the blocking model: exit code, stderr, seconds it took."""
    import autoagent.llm

    monkeypatch.setattr(autoagent.llm, "load_chat_model", lambda *a, **k: BlockingModel(replies=replies))
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["--quiet", *args], catch_exceptions=False)
    return result.exit_code, result.stderr, time.monotonic() - started


def test_ctrl_c_while_the_model_answers_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    code, err, took = run(monkeypatch, [act("calculator", expression="6*7"), BLOCK], "--no-memory", "What is 6*7?")
    assert code == codes.INTERRUPTED and took < STOPPED_WITHIN
    assert "stopped: the run was interrupted (continue with: autoagent --resume " in err


def test_ctrl_c_while_a_tool_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    ctrl_c_soon()
    code, err, took = run(monkeypatch, [act("shell", command="sleep 30")], "--no-memory", "--allow-shell", "--yes",
                          "--workspace", str(tmp_path), "wait")
    assert code == codes.INTERRUPTED and took < STOPPED_WITHIN
    assert "stopped: the run was interrupted (continue with: autoagent --resume " in err


def test_ctrl_c_while_the_final_answer_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    replies = [act("calculator", expression="6*7"), act("FINISH"), BLOCK]
    code, err, took = run(monkeypatch, replies, "--no-memory", "What is 6*7?")
    assert code == codes.INTERRUPTED and took < STOPPED_WITHIN
    assert "stopped: the run was interrupted (continue with: autoagent --resume " in err


def test_ctrl_c_while_the_run_is_summarised_into_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.memory.long_term import LongTermMemory

    memory = LongTermMemory.from_vectorstore(InMemoryVectorStore(HashingEmbeddings()), min_score=HASH_MIN_SCORE)
    monkeypatch.setattr(LongTermMemory, "open", classmethod(lambda cls, *a, **k: memory))
    replies = [act("calculator", expression="6*7"), act("FINISH"), "42", BLOCK]
    code, err, took = run(monkeypatch, replies, "--memory", "What is 6*7?")
    assert code == codes.INTERRUPTED and took < STOPPED_WITHIN
    assert "interrupted: the answer stands, but this run is not remembered" in err


class SwallowingModel(BlockingModel):
    """A client library that swallows Ctrl-C in its wait and answers anyway, as one did once in four tries."""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        if len(self.replies) > len(self.prompts) and self.replies[len(self.prompts)] == BLOCK:
            self.replies[len(self.prompts)] = act("calculator", expression="6*8")
            ctrl_c_soon()
            with contextlib.suppress(KeyboardInterrupt):
                threading.Event().wait(1.0)
        else:
            time.sleep(0.4)  # each later reply takes a while, as a real model's does
        return ScriptedChatModel._generate(self, messages, *args, **kwargs)


def test_ctrl_c_swallowed_by_a_library_still_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.llm

    replies = [act("calculator", expression="6*7"), BLOCK, *[act("calculator", expression="6*9")] * 3, BLOCK]
    monkeypatch.setattr(autoagent.llm, "load_chat_model", lambda *a, **k: SwallowingModel(replies=replies))
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["--quiet", "--no-memory", "--max-steps", "4", "What is 6*7?"],
                                catch_exceptions=False)
    assert result.exit_code == codes.INTERRUPTED and time.monotonic() - started < STOPPED_WITHIN
    assert "stopped: the run was interrupted (continue with: autoagent --resume " in result.stderr


def test_ctrl_c_stops_the_run_whatever_handler_a_library_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # The finding: Ctrl-C during a slow reply was ignored, the run finished and exited 0. One way there: a handler
    # other than Python's own in place when the run began, so the watch stood aside and that handler had Ctrl-C.
    left: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: left.append(number))  # one that ignores it
    try:
        code, err, took = run(monkeypatch, [act("calculator", expression="6*7"), BLOCK], "--no-memory", "What is 6*7?")
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler and not left  # given back after
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == codes.INTERRUPTED and took < STOPPED_WITHIN
    assert "stopped: the run was interrupted (continue with: autoagent --resume " in err


def test_ctrl_c_after_the_run_ended_but_before_its_exit_code_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.terminal.display import TerminalDisplay

    closing = TerminalDisplay.close

    def close_then_ctrl_c(self: TerminalDisplay) -> None:
        closing(self)
        os.kill(os.getpid(), signal.SIGINT)  # as the answer is about to be printed
        time.sleep(0.2)

    monkeypatch.setattr(TerminalDisplay, "close", close_then_ctrl_c)
    code, err, _ = run(monkeypatch, [act("calculator", expression="6*7"), act("FINISH"), "42"], "--no-memory",
                       "What is 6*7?")
    assert code == codes.INTERRUPTED and "Aborted" not in err
    assert "interrupted: the answer stands, but this run is not remembered" in err
