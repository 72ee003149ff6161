"""`autoagent --events jsonl`: a run's typed events (autoagent/run_events.py) on stdout as they happen, one JSON
object a line, every secret in force redacted, for scripts and other programs to follow the run."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from ..events import RunObserver
from ..redact import redacted
from ..run_events import RunEnded, RunEvent
from ..run_json import usage_to_json
from ..steps import StopReason, Usage


class EventLines(RunObserver):
    """Writes each event (its sub-agents' too) as one line, flushed at once."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def on_event(self, event: RunEvent) -> None:
        write_event(event, self.stream)


def write_event(event: RunEvent, stream: TextIO | None = None) -> None:
    """One event as its line."""
    stream = stream or sys.stdout
    stream.write(json.dumps(redacted(event.model_dump(mode="json")), ensure_ascii=False) + "\n")
    stream.flush()


def never_started(reason: StopReason, detail: str) -> RunEnded:
    """The one event of a run that could not start (no model, bad settings, Ctrl-C while loading): it ended."""
    return RunEnded(stop_reason=reason.value, stop_detail=detail, answer="", finished=False, steps=0, seconds=0.0,
                    usage=usage_to_json(Usage()))
