"""What `autoagent doctor` reports: one finding a check, how it stands and what to do about it."""

from __future__ import annotations

from typing import Literal, NamedTuple

Status = Literal["ok", "warn", "FAIL"]


class Finding(NamedTuple):  # not a dataclass: importing dataclasses costs `autoagent --help` 5 ms
    """One finding: what was checked, how it stands, what was seen, and what to do about it."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    def lines(self) -> list[str]:
        """`ok    name: detail`, then `      fix: ...` when there is something to do."""
        return [f"{self.status:<4}  {self.name}: {self.detail}", *([f"      fix: {self.fix}"] if self.fix else [])]
