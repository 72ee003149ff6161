"""A task driven a step at a time: its run works in a thread of its own and pauses before each model call after
the first, and whenever an action needs the user's approval, until the next Agent Protocol step lets it go on (with
the answer as that step's input). The loop itself is unchanged: the pauses are an observer's and an approver's."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..acting.approval import Approver, Verdict
from ..events import RunObserver
from ..reply import Action, ThoughtAndAction
from ..run_events import RunEvent
from ..steps import RunResult, Step

GO = "\x00go"  # what lets a paused run take its next step
STOP = "\x00stop"  # what ends a paused run as Ctrl-C would (the server stops): its transcript says interrupted


@dataclass
class Pause:
    """Where the run stopped for the client: after a step (`step`), at an approval question (`approval`), or at its
    end (`end`), with the steps completed since the last pause."""

    kind: str
    steps: list[Step] = field(default_factory=list)
    result: RunResult | None = None
    tool: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    thought: str = ""  # why the model chose the action that waits for approval
    error: str = ""  # the run could not start (no model, bad settings)


class RemoteApprover(Approver):
    """Asks through the session: the question ends the client's step, and the next step's input is the answer."""

    def __init__(self, auto_approve: bool, driver: RunDriver) -> None:
        super().__init__(auto_approve=auto_approve)
        self.driver = driver

    def ask(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        """Pause the run with the question; judge the answer like the terminal's (y, y -N, a, n, or feedback)."""
        answer = self.driver.pause(Pause("approval", tool=tool_name, args=args, thought=self.driver.thought)).strip()
        return self.judge(tool_name, answer)


class RunDriver(RunObserver):
    """Runs one agent run in a thread and hands control back and forth with the client's steps."""

    wants_reply_text = True  # a step's listener hears the reply as the model writes it (reply_delta)

    def __init__(self, work: Callable[[RunDriver], RunResult]) -> None:
        self._work = work
        self._outbox: queue.Queue[Pause] = queue.Queue()
        self._inbox: queue.Queue[str] = queue.Queue()
        self._collected: list[Step] = []
        self._thought = False  # the run made its first model call: the next one waits for the client
        self._ended = False
        self.thread: threading.Thread | None = None
        self.waiting_for: Pause | None = None  # the pause the run is in now
        self.thought = ""  # the thought behind the action about to run
        self.listener: Callable[[RunEvent], None] | None = None  # hears the events of the step under way
        self._held: RunEvent | None = None  # the event of a model call the run waits to make
        self._stopping = False  # asked to stop: the run ends at its next pause (a model call or a question)

    @property
    def alive(self) -> bool:
        """Whether the run is under way (paused or working)."""
        return self.thread is not None and self.thread.is_alive()

    def advance(self, answer: str = GO) -> Pause:
        """Start the run, or let it go on (with the answer to its approval question); the next pause."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._main, name="autoagent-task", daemon=True)
            self.thread.start()
        else:
            self._inbox.put(answer)
        self.waiting_for = self._outbox.get()
        return self.waiting_for

    def pause(self, pause: Pause) -> str:
        """From the run's thread: hand `pause` to the client and wait for its next step's input."""
        if self._stopping:
            raise KeyboardInterrupt
        pause.steps, self._collected = self._collected, []
        self._outbox.put(pause)
        answer = self._inbox.get()
        if answer == STOP:
            raise KeyboardInterrupt
        return answer

    def stop(self, wait: bool = True) -> None:
        """End the run as Ctrl-C ends a run (its transcript closed, resumable): a paused run now (waited for, unless
        not `wait`), a working one at its next pause."""
        if not self.alive or self._ended:
            return
        self._stopping = True
        if self.waiting_for is not None and self.waiting_for.kind != "end":
            self._inbox.put(STOP)  # read now by a paused run; a working one stops at its next pause first
            if wait:
                assert self.thread is not None
                self.thread.join(timeout=30)

    def _main(self) -> None:
        try:
            self._work(self)
        except BaseException as err:  # the run could not start, or failed: the client's step says why
            if not self._ended:
                self._outbox.put(Pause("end", self._collected, error=str(err) or type(err).__name__))

    def on_event(self, event: RunEvent) -> None:
        if event.type == "model_call_started" and self._thought:  # the run pauses first: the next step's event
            self._held = event
        elif self.listener is not None:
            self.listener(event)

    def on_thinking(self, number: int, max_steps: int) -> None:
        if self._thought:
            self.pause(Pause("step"))
            held, self._held = self._held, None
            if held is not None and self.listener is not None:  # the step the client asked for begins with it
                self.listener(held)
        self._thought = True

    def on_tool_start(self, action: Action, decision: ThoughtAndAction | None = None) -> None:
        self.thought = decision.thought.text if decision is not None else ""

    def on_step(self, step: Step) -> None:
        self._collected.append(step)

    def on_run_end(self, run: RunResult) -> None:
        self._ended = True
        self._outbox.put(Pause("end", self._collected, result=run))
        self._collected = []


def run_task(driver: RunDriver, build: Callable[[Path], Any], settings_yes: bool, task: str, workspace: Path,
             run_id: str, writer_settings: dict[str, Any], on_run_id: Callable[[str], None]) -> RunResult:
    """The run behind a task: a new one, or the stopped or killed one `run_id` names, continued from its transcript."""
    import contextlib

    from ..transcripts.reader import find_transcript, load_transcript
    from ..transcripts.writer import TranscriptWriter, run_lock

    steps: list[Step] = []
    if run_id:
        with contextlib.suppress(Exception):  # no transcript (deleted): the task starts over under a new run
            steps = load_transcript(find_transcript(run_id).stem).steps
    resuming = bool(run_id and steps)
    agent = build(workspace)
    agent.toolbox.approver = RemoteApprover(settings_yes, driver)
    writer = TranscriptWriter(writer_settings, run_id=run_id if resuming else None)
    notes = _RunIdNote(on_run_id)
    with run_lock(run_id) if resuming else contextlib.nullcontext():
        return agent.execute(task, observers=[writer, notes, driver], resume=steps,
                             run_id=run_id if resuming else "")


class _RunIdNote(RunObserver):
    """Tells the task its run's id as soon as the transcript has one."""

    def __init__(self, note: Callable[[str], None]) -> None:
        self.note = note

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        self.note(run.run_id)
