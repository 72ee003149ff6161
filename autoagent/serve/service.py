"""The server's work behind the routes: tasks created, listed and stepped, each step an Agent Protocol step record;
several tasks at once, and on the embedded model their steps queued for the one model."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import AutoAgentError
from ..redact import redacted
from . import artifacts as files
from .driver import GO, Pause, RunDriver, run_task
from .limits import Limits
from .schema import Pagination, Status, Step, StepRequestBody, Task, TaskRequestBody, page
from .sessions import Sessions
from .store import TaskNotFound, TaskRecord, TaskStore

if TYPE_CHECKING:
    from ..run_events import RunEvent
    from ..settings import Settings

QUESTION = ("Answer with the next step's input: y = yes, y -N = yes to this and the next N actions, a = always allow "
            "{tool} (this task), n = no, or feedback for the agent.")
QUEUED = "(queued {seconds:.1f} s: the embedded model was busy with another task's step)\n"
QUEUE_NOTE_SECONDS = 0.05  # a shorter wait is not worth a line


class TaskFinished(AutoAgentError):
    """The task's run finished: there is no next step."""


class TaskService:
    """Every task of the server, stored under $AUTOAGENT_HOME/serve/tasks."""

    def __init__(self, settings: Settings, store: TaskStore | None = None, limits: Limits | None = None) -> None:
        self.settings = settings
        self.store = store or TaskStore()
        self.limits = limits or Limits()
        self.sessions = Sessions(self.limits.live_tasks)
        # One embedded model in this process: a step holds it from its first model call to its last.
        self.model_lock = threading.Lock() if settings.resolved_model().startswith("local") else None

    def create(self, body: TaskRequestBody) -> Task:
        """A new task (its run starts with its first step)."""
        text = (body.input or "").strip()
        if not text:
            raise ValueError("a task needs an input: the task's text")
        task_settings(body.additional_input)  # ValueError: the 400 says which setting and why
        return self._task(self.store.create(text, body.additional_input))

    def task(self, task_id: str) -> Task:
        """One task with its artifacts."""
        return self._task(self.store.get(task_id))

    def tasks(self, current_page: int = 1, page_size: int = 10) -> tuple[list[Task], Pagination]:
        """One page of the tasks, oldest first; only that page's tasks are read."""
        ids, pagination = page(self.store.ids(), current_page, page_size)
        return [self._task(self.store.get(task_id)) for task_id in ids], pagination

    def steps(self, task_id: str) -> list[Step]:
        """A task's steps, in order."""
        self.store.get(task_id)
        return [Step(**step) for step in self.store.steps(task_id)]

    def step(self, task_id: str, step_id: str) -> Step:
        """One step of a task."""
        for step in self.steps(task_id):
            if step.step_id == step_id:
                return step
        raise TaskNotFound(f"task {task_id} has no step with id {step_id!r}")

    def execute(self, task_id: str, body: StepRequestBody, listener: Callable[[RunEvent], None] | None = None) -> Step:
        """The task's next step: the run starts, goes on, or (with this input as the answer) leaves its approval;
        `listener` hears the run's events while the step works."""
        record = self.store.get(task_id)
        session = self.sessions.get(task_id)
        with session.lock:
            record = self.store.get(task_id)
            if record.state == "finished":
                raise TaskFinished(f"task {task_id} is finished: it has no next step")
            pause, answer = session.pause, (body.input or "").strip()
            if pause is not None and pause.kind == "approval" and not answer:  # asked again: nothing runs
                again = Pause("approval", tool=pause.tool, args=pause.args, thought=pause.thought)
                return self._save(record, body, again, 0.0, set())
            if pause is None:
                session.end()  # the run that just ended lets go of its transcript
                self.sessions.make_room(session)
                session.hold(self.store.directory / task_id)  # before anything is written: another server may run it
                session.driver = self._driver(record)
            driver = session.driver
            assert driver is not None
            workspace = self.store.workspace(task_id)
            before = files.list_files(workspace)
            queued = self._hold_model()
            driver.listener = listener
            try:
                if pause is not None and pause.kind == "approval":
                    self._answered(task_id)
                next_pause = driver.advance(answer if pause is not None and pause.kind == "approval" else GO)
            finally:
                driver.listener = None
                if self.model_lock is not None:
                    self.model_lock.release()
            written = files.changed(before, files.list_files(workspace))
            step = self._save(record, body, next_pause, queued, written)
            if next_pause.kind == "end":
                session.end()  # the run is over: its thread and its lock go
            return step

    def stop(self, task_id: str) -> None:
        """Stop the task's run as Ctrl-C stops a run (its transcript kept, resumable by its next step): a run
        between steps now, one in the middle of a step at its next model call (that step then ends it)."""
        session = self.sessions.get(task_id)
        if session.lock.acquire(blocking=False):
            try:
                session.end()
            finally:
                session.lock.release()
        elif session.driver is not None:
            session.driver.stop(wait=False)

    def close(self) -> None:
        """Stop every paused run (the server stops): each transcript says interrupted, and the task continues
        when a restarted server is asked for its next step."""
        self.sessions.close()

    def workspace(self, task_id: str) -> Path:
        """The task's workspace folder (the task must exist)."""
        self.store.get(task_id)
        return self.store.workspace(task_id)

    def record(self, task_id: str) -> TaskRecord:
        """The task's stored record."""
        return self.store.get(task_id)

    def _task(self, record: TaskRecord) -> Task:
        return Task(task_id=record.task_id, input=record.input, additional_input=record.additional_input,
                    artifacts=files.artifacts(self.store.workspace(record.task_id), record.uploaded))

    def _hold_model(self) -> float:
        """Take the embedded model (when there is one): the seconds this step waited for it."""
        if self.model_lock is None:
            return 0.0
        started = time.monotonic()
        self.model_lock.acquire()
        return time.monotonic() - started

    def _driver(self, record: TaskRecord) -> RunDriver:
        """A driver for the task's run: a new one, or its stopped or killed run continued."""
        from ..settings import build_agent, held_to

        workspace = self.store.workspace(record.task_id)
        workspace.mkdir(parents=True, exist_ok=True)
        chosen = replace(self.settings, **task_settings(record.additional_input), workspace=workspace)
        settings = held_to(chosen, self.settings)  # a task's choices grant nothing the server does not

        def noted(run_id: str) -> None:
            record.run_id = run_id
            self.store.save(record)

        return RunDriver(lambda driver: run_task(driver, lambda _: build_agent(settings), settings.yes, record.input,
                                                 workspace, record.run_id, settings.to_record(), noted))

    def _answered(self, task_id: str) -> None:
        """Mark the task's steps that asked for approval (maybe more than once) as completed: the answer has come."""
        for step in self.store.steps(task_id):
            if step["status"] == Status.running.value:
                self.store.add_step(task_id, {**step, "status": Status.completed.value})

    def _save(self, record: TaskRecord, body: StepRequestBody, pause: Pause, queued: float,
              written: set[str]) -> Step:
        """The pause as the client's step, stored; the task's state follows the run's."""
        step = Step(task_id=record.task_id, step_id=str(uuid.uuid4()), input=body.input,
                    additional_input=body.additional_input, status=Status.completed,
                    artifacts=files.artifacts(self.store.workspace(record.task_id), record.uploaded, written),
                    **describe(pause, self.settings.max_steps))
        if queued >= QUEUE_NOTE_SECONDS:
            step.output = QUEUED.format(seconds=queued) + (step.output or "")
            step.additional_output = {**(step.additional_output or {}), "queued_seconds": round(queued, 3)}
        if pause.kind == "approval":
            step.status = Status.running
        latest = self.store.get(record.task_id)  # the run may have noted its id meanwhile
        latest.state = "running" if not step.is_last else (
            "finished" if pause.result is not None and pause.result.finished else "stopped")
        self.store.save(latest)
        stored = redacted(json.loads(step.model_dump_json()))  # the client reads what is stored: no secret
        self.store.add_step(record.task_id, stored)
        return Step(**stored)


async def step_with_events(service: TaskService, task_id: str, body: StepRequestBody) -> AsyncIterator[RunEvent | Step]:
    """The task's next step run in a thread: each of the run's events as it happens, then the step itself (an error
    of the step is raised)."""
    loop = asyncio.get_running_loop()
    heard: asyncio.Queue[RunEvent] = asyncio.Queue()

    def listener(event: RunEvent) -> None:  # in the run's thread
        loop.call_soon_threadsafe(heard.put_nowait, event)

    step = asyncio.create_task(asyncio.to_thread(service.execute, task_id, body, listener))
    while not (step.done() and heard.empty()):
        waiting = asyncio.create_task(heard.get())
        await asyncio.wait({waiting, step}, return_when=asyncio.FIRST_COMPLETED)
        if waiting.done():
            yield waiting.result()
        else:
            waiting.cancel()
    yield step.result()


def task_settings(additional_input: dict[str, Any] | None) -> dict[str, Any]:
    """The settings a task chose (`additional_input.settings`: those a batch task may choose, checked as there)."""
    from ..batch.tasks import checked_settings

    return checked_settings("additional_input.settings", (additional_input or {}).get("settings"))


def describe(pause: Pause, max_steps: int) -> dict[str, Any]:
    """The step fields a pause gives: name, output, additional_output and is_last."""
    from ..acting.approval import ACTION_SHOWN, show_args
    from ..report import run_to_json, step_to_json
    from ..terminal.trace import format_step

    steps = [step_to_json(step) for step in pause.steps]
    done = "\n".join(format_step(step, max_steps) for step in pause.steps)
    if pause.kind == "approval":
        question = ACTION_SHOWN.format(tool=pause.tool, args=show_args(pause.args)).strip()
        question = f"thought: {pause.thought}\n{question}" if pause.thought else question
        return {"name": f"approval: {pause.tool}", "output": "\n".join(filter(None, [done, question,
                QUESTION.format(tool=pause.tool)])), "is_last": False,
                "additional_output": {"awaiting_approval": {"tool": pause.tool, "args": pause.args,
                                                            "thought": pause.thought}, "steps": steps}}
    if pause.kind == "step":
        last = pause.steps[-1] if pause.steps else None
        name = (last.action.name if last.action else last.kind.value) if last else "step"
        return {"name": name, "output": done, "is_last": False, "additional_output": {"steps": steps}}
    if pause.result is None:
        return {"name": "error", "output": f"error: {pause.error}", "is_last": True,
                "additional_output": {"steps": steps, "error": pause.error}}
    run = run_to_json(pause.result)
    run.pop("steps")
    result = pause.result
    output = result.answer if result.finished else f"stopped: {result.describe_stop()}\n{result.answer}".strip()
    return {"name": "answer" if result.finished else "stopped", "output": output, "is_last": True,
            "additional_output": {"steps": steps, "run": run}}
