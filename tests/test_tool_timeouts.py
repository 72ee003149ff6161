"""Every tool call has a time limit: a hanging tool becomes a "timed out" observation and the run goes on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from langchain_core.tools import BaseTool, tool

from autoagent import AutoGPT
from autoagent.acting.toolbox import DEFAULT_TIMEOUT_SECONDS, Toolbox
from autoagent.reply import Action

from .scripted import ScriptedChatModel, act

# What the model reads (prompts/en/tool_timed_out*.templ).
TIMED_OUT = "{tool} timed out after {seconds:g} s and was stopped."
TIMED_OUT_RUNNING = "{tool} timed out after {seconds:g} s; it may still be running in the background."

pytestmark = pytest.mark.timeout(30)


def sleeper(name: str, seconds: float, timeout: float | None = None) -> BaseTool:
    """A tool that sleeps `seconds` and says so; metadata carries `timeout` when one is given."""

    @tool(name)
    def nap(note: str = "") -> str:
        """Sleep a while."""
        time.sleep(seconds)
        return f"slept {seconds} s"

    if timeout is not None:
        nap.metadata = {"timeout": timeout}
    return nap


@tool
def explode(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(f"boom: {reason}")


@tool
def interrupt() -> str:
    """Raises KeyboardInterrupt, as a tool does when the user presses Ctrl-C inside it."""
    raise KeyboardInterrupt


def timed_run(toolbox: Toolbox, name: str) -> tuple[str, bool, float]:
    started = time.monotonic()
    result = toolbox.run(Action(name=name, args={}))
    return result.content, result.success, time.monotonic() - started


def test_a_hanging_tool_is_stopped_at_its_limit_on_the_main_thread() -> None:
    content, success, seconds = timed_run(Toolbox([sleeper("nap", 10)], timeout=0.2), "nap")
    assert content == "nap timed out after 0.2 s and was stopped."
    assert content == TIMED_OUT.format(tool="nap", seconds=0.2)
    assert not success and 0.2 <= seconds < 1


def test_off_the_main_thread_a_hanging_tool_is_left_behind_on_a_daemon_thread() -> None:
    results: list[tuple[str, bool, float]] = []
    caller = threading.Thread(target=lambda: results.append(timed_run(Toolbox([sleeper("nap", 10)], timeout=0.2),
                                                                       "nap")))
    caller.start()
    caller.join(5)
    [(content, success, seconds)] = results
    assert content == "nap timed out after 0.2 s; it may still be running in the background."
    assert content == TIMED_OUT_RUNNING.format(tool="nap", seconds=0.2)
    assert not success and 0.2 <= seconds < 1
    assert any(thread.name == "time-limited-call" and thread.daemon for thread in threading.enumerate())


def test_a_tool_within_its_limit_gives_its_output() -> None:
    assert timed_run(Toolbox([sleeper("nap", 0.05)], timeout=5), "nap")[:2] == ("slept 0.05 s", True)


def test_limits_come_from_timeouts_then_metadata_then_the_default() -> None:
    fast, marked, plain = sleeper("fast", 10, timeout=0.1), sleeper("marked", 10, timeout=0.3), sleeper("plain", 10)
    toolbox = Toolbox([fast, marked, plain], timeout=0.2, timeouts={"fast": 0.4})
    assert [toolbox.timeout_for(made) for made in (fast, marked, plain)] == [0.4, 0.3, 0.2]
    assert timed_run(toolbox, "fast")[0] == TIMED_OUT.format(tool="fast", seconds=0.4)
    assert timed_run(toolbox, "marked")[0] == TIMED_OUT.format(tool="marked", seconds=0.3)
    assert timed_run(toolbox, "plain")[0] == TIMED_OUT.format(tool="plain", seconds=0.2)
    assert Toolbox([plain]).timeout_for(plain) == DEFAULT_TIMEOUT_SECONDS


def test_none_means_no_limit() -> None:
    unlimited = sleeper("unlimited", 0.3, timeout=0.1)
    assert timed_run(Toolbox([unlimited], timeouts={"unlimited": None}), "unlimited")[:2] == ("slept 0.3 s", True)
    assert timed_run(Toolbox([sleeper("nap", 0.3)], timeout=None), "nap")[:2] == ("slept 0.3 s", True)


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        Toolbox([sleeper("nap", 0)], timeout=0)
    with pytest.raises(ValueError, match="positive"):
        Toolbox([sleeper("nap", 0, timeout=-1)])
    with pytest.raises(ValueError, match=r"unknown tool\(s\): napp"):
        Toolbox([sleeper("nap", 0)], timeouts={"napp": 1})


def test_a_failing_tool_is_still_an_observation() -> None:
    result = Toolbox([explode], timeout=5).run(Action(name="explode", args={"reason": "bad"}))
    assert (result.content, result.success) == ("explode failed: RuntimeError: boom: bad", False)


def test_keyboard_interrupt_inside_a_tool_still_stops_the_run() -> None:
    with pytest.raises(KeyboardInterrupt):
        Toolbox([interrupt], timeout=5).run(Action(name="interrupt", args={}))


def test_ctrl_c_while_waiting_for_a_tool_stops_the_run_at_once() -> None:
    toolbox = Toolbox([sleeper("nap", 10)], timeout=20)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        toolbox.run(Action(name="nap", args={}))
    assert time.monotonic() - started < 2


def test_the_agent_goes_on_after_a_timeout() -> None:
    llm = ScriptedChatModel(replies=[act("nap"), act("doze"), act("FINISH"), "It took too long."])
    agent = AutoGPT(llm=llm, tools=[sleeper("nap", 10, timeout=0.2), sleeper("doze", 0)])
    started = time.monotonic()
    result = agent.execute("take a nap")
    assert time.monotonic() - started < 2
    assert result.finished and result.answer == "It took too long."
    assert result.steps[0].observation == TIMED_OUT.format(tool="nap", seconds=0.2) and not result.steps[0].success
    assert "nap timed out after 0.2 s" in llm.prompts[1]
    assert result.steps[1].observation == "slept 0 s" and result.steps[1].success  # the next tool ran


def test_a_hung_tool_does_not_keep_the_program_from_exiting() -> None:
    script = textwrap.dedent(
        """
        import threading
        import time
        from langchain_core.tools import tool
        from autoagent.reply import Action
        from autoagent.acting.toolbox import Toolbox

        @tool
        def hang() -> str:
            '''Never returns.'''
            time.sleep(60)
            return ""

        def off_the_main_thread() -> None:
            print(Toolbox([hang], timeout=0.1).run(Action(name="hang", args={})).content)

        caller = threading.Thread(target=off_the_main_thread)
        caller.start()
        caller.join()
        """
    )
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=25)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "hang timed out after 0.1 s; it may still be running in the background."
    assert time.monotonic() - started < 20  # far below the tool's 60 s
