"""A run followed as it goes, from Python: `agent.stream(task)` yields its typed events (autoagent/run_events.py),
`agent.astream(task)` the same in asyncio, `await agent.aexecute(task)` gives its RunResult without blocking the
event loop. The run works in a thread of its own with the agent's ordinary `execute`, so any LangChain chat model
and tool keep working, async or not. Leaving the iteration (or cancelling the task) stops the run where it next
calls the model (a sub-agent's run too), as Ctrl-C does: the step under way ends and is kept, the wrap-up and the
transcript too, and the run can be resumed."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Protocol

from ..observers import FunctionObserver
from ..run_events import RunEvent
from ..steps import RunResult


class Executes(Protocol):
    """What a run in a thread needs of an agent."""

    last_run: RunResult | None

    @property
    def execute(self) -> Callable[..., RunResult]:
        """`execute(task, verbose, observers=..., callbacks=..., resume=..., run_id=...)`."""
        ...


STOP_AT = "model_call_started"  # where a run left by its reader stops: the step before it kept, no reply lost
_END = object()  # after the last event: the run's thread is done


class RunThread:
    """One run of `agent.execute(task, **options)` in a thread, each event handed to `deliver` as it comes and
    `_END` after the last; paced, the run waits after each event until `taken()` (the reader asks for the next),
    so it goes no further than its reader; `stop()` ends the run at its next model call."""

    def __init__(self, agent: Executes, task: str, options: dict[str, Any], deliver: Callable[[object], None],
                 paced: bool = True) -> None:
        self.agent, self.task, self.options, self.deliver = agent, task, options, deliver
        self.result: RunResult | None = None
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._stopping = False
        self._taken = threading.Semaphore(0) if paced else None  # paced: the run waits until each event is read
        self.thread = threading.Thread(target=self._main, name="autoagent-run", daemon=True)

    def start(self) -> RunThread:
        self.thread.start()
        return self

    def taken(self) -> None:
        """The reader is done with the last event: the run goes on."""
        if self._taken is not None:
            self._taken.release()

    def stop(self) -> None:
        """The reader is gone: the run goes on, unpaced, to its next model call, and stops there."""
        self._stop.set()
        self.taken()

    def _hear(self, event: RunEvent) -> None:
        if self._stop.is_set() and not self._stopping and event.type == STOP_AT:
            self._stopping = True  # once: the wrap-up's own events still come through
            raise KeyboardInterrupt  # the lifecycle ends the run as interrupted, and keeps what it did
        self.deliver(event)
        if self._taken is not None and not self._stop.is_set():
            self._taken.acquire()  # as a generator would: the run goes on when its reader asks for more

    def _main(self) -> None:
        reader = FunctionObserver(self._hear, reply_text=self.options.pop("reply_text", False))
        observers = [*self.options.pop("observers", ()), reader]  # the reader last: the others hear every event
        try:
            self.result = self.agent.execute(self.task, observers=observers, **self.options)
        except KeyboardInterrupt as err:
            self.result = self.agent.last_run
            if not self._stopping:  # not ours: a tool or the model raised it
                self.error = err
        except BaseException as err:  # the caller's to see, after the events
            self.result, self.error = self.agent.last_run, err
        finally:
            self.deliver(_END)


def stream(agent: Executes, task: str, options: dict[str, Any]) -> Iterator[RunEvent]:
    """The events of a run of `task`, as they come; the run's error, if it failed, after its last event."""
    events: queue.Queue[object] = queue.Queue()
    run = RunThread(agent, task, options, events.put).start()
    try:
        while (event := events.get()) is not _END:
            yield event  # type: ignore[misc]
            run.taken()
        if run.error is not None:
            raise run.error
    finally:
        run.stop()
        run.thread.join()


async def astream(agent: Executes, task: str, options: dict[str, Any]) -> AsyncIterator[RunEvent]:
    """`stream` for asyncio: the events come without blocking the event loop."""
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[object] = asyncio.Queue()

    def deliver(event: object) -> None:
        loop.call_soon_threadsafe(events.put_nowait, event)

    run = RunThread(agent, task, options, deliver).start()
    try:
        while (event := await events.get()) is not _END:
            yield event  # type: ignore[misc]
            run.taken()
        if run.error is not None:
            raise run.error
    finally:
        run.stop()
        await asyncio.shield(asyncio.to_thread(run.thread.join))


async def aexecute(agent: Executes, task: str, options: dict[str, Any],
                   on_cancel: Callable[[], None] = lambda: None) -> RunResult:
    """`execute` for asyncio; cancelled, the run stops as a stream left early does (`on_cancel` first lets go of
    whatever the run may be waiting on), then the cancellation goes on."""
    loop = asyncio.get_running_loop()
    ended: asyncio.Future[None] = loop.create_future()

    def end() -> None:
        if not ended.done():  # not cancelled meanwhile
            ended.set_result(None)

    def settle(event: object) -> None:
        if event is _END:
            loop.call_soon_threadsafe(end)

    run = RunThread(agent, task, options, settle, paced=False).start()
    try:
        await ended
    except asyncio.CancelledError:
        run.stop()
        on_cancel()
        await asyncio.shield(asyncio.to_thread(run.thread.join))
        raise
    if run.error is not None:
        raise run.error
    assert run.result is not None
    return run.result
