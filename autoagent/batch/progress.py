"""What a batch shows while it runs (a progress bar on a terminal, one line per task elsewhere) and the summary
it ends with: finished, stopped by reason, tokens, cost, wall time and tasks per minute."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..report import format_cost, format_seconds
from ..text import shorten

DETAIL_CHARS = 200  # of a stop's detail on the task's line; the results file keeps it whole


@dataclass
class Tally:
    """The outcomes of the tasks this invocation ran, and what they spent."""

    total: int  # tasks to run in this invocation
    skipped: int = 0  # already done in the results file
    reasons: Counter[str] = field(default_factory=Counter)
    input_tokens: int = 0
    output_tokens: int = 0
    estimated: bool = False
    cost_usd: float = 0.0
    unpriced: int = 0  # tasks that called a model with no known price
    started: float = field(default_factory=time.monotonic)

    @property
    def finished(self) -> int:
        """Tasks that finished."""
        return self.reasons["finished"]

    @property
    def ran(self) -> int:
        """Tasks that ended, however."""
        return sum(self.reasons.values())

    @property
    def failed(self) -> int:
        """Tasks that ended without finishing."""
        return self.ran - self.finished

    def add(self, record: dict[str, Any]) -> None:
        """Count one task's result record."""
        self.reasons[str(record["stop_reason"])] += 1
        usage = record.get("usage") or {}
        self.input_tokens += int(usage.get("input_tokens") or 0)
        self.output_tokens += int(usage.get("output_tokens") or 0)
        self.estimated = self.estimated or bool(usage.get("estimated"))
        if usage.get("cost_usd") is not None:
            self.cost_usd += float(usage["cost_usd"])
        elif usage.get("calls"):
            self.unpriced += 1

    def spend(self) -> str:
        """`1,234 in / 56 out tokens · $0.0012`, with `~` for estimated tokens."""
        about = "~" if self.estimated else ""
        text = f"{about}{self.input_tokens:,} in / {about}{self.output_tokens:,} out tokens"
        if self.unpriced and not self.cost_usd:
            return f"{text} · cost unknown"
        cost = format_cost(self.cost_usd)
        return f"{text} · {cost}" + (f" (+{self.unpriced} tasks of unknown price)" if self.unpriced else "")

    def summary(self) -> list[str]:
        """The closing lines."""
        seconds = time.monotonic() - self.started
        stopped = ", ".join(f"{reason.replace('_', ' ')} {count}" for reason, count in sorted(self.reasons.items())
                            if reason != "finished")
        first = f"batch: {self.ran} of {self.total} tasks ran · {self.finished} finished"
        first += f" · stopped: {stopped}" if stopped else ""
        first += f" · {self.skipped} already done" if self.skipped else ""
        rate = self.ran / (seconds / 60) if seconds > 0 else 0.0
        return [first, f"{self.spend()} · {format_seconds(seconds)} · {rate:.1f} tasks/min"]


class BatchProgress:
    """Progress on stderr: a rich bar with done / failed / running and the spend on a terminal; elsewhere one plain
    line per finished task."""

    def __init__(self, tally: Tally, slots: int, stream: TextIO | None = None) -> None:
        from ..terminal.display import is_styled, make_console

        self.tally, self.slots = tally, slots
        self.console = make_console(stream)
        self.styled = is_styled(self.console)
        self._progress: Any = None
        if self.styled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(BarColumn(bar_width=24), MofNCompleteColumn(), TimeElapsedColumn(),
                                      TextColumn("{task.description}"), console=self.console, transient=False)
            self._bar = self._progress.add_task(self._status(), total=tally.total)
            self._progress.start()

    def running(self) -> int:
        """Tasks under way: every slot while enough remain."""
        return min(self.slots, self.tally.total - self.tally.ran)

    def _status(self) -> str:
        tally = self.tally
        return f"{tally.finished} finished · {tally.failed} failed · {self.running()} running · {tally.spend()}"

    def update(self, record: dict[str, Any]) -> None:
        """One task ended (its record is already counted in the tally)."""
        if self._progress is not None:
            self._progress.update(self._bar, completed=self.tally.ran, description=self._status())
            return
        from ..redact import redacted
        from ..text import escape_controls

        outcome = "finished" if record["finished"] else f"stopped: {record['stop_reason']}"
        detail = f" ({shorten(record['stop_detail'], DETAIL_CHARS)})" if record.get("stop_detail") else ""
        line = (f"[{self.tally.ran}/{self.tally.total}] {record['id']}: {outcome}{detail} · {record['steps']} steps · "
                f"{format_seconds(float(record.get('wall_seconds') or record['seconds']))}")
        self.console.print(escape_controls(redacted(line)), markup=False, highlight=False, soft_wrap=True)

    def close(self) -> None:
        """Stop the bar and print the summary."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        for line in self.tally.summary():
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)
