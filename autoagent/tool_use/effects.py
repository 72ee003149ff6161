"""What a tool call did beside the text the model reads, for a tool that knows: the artifact of a tool of
response_format "content_and_artifact". The toolbox counts a call whose effects say it failed as a failed step,
and the step keeps the workspace files it changed (the python tool gives these for each program it runs)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Effects:
    """Whether the call failed (a program that exited non-zero or ran out of time), and the workspace files it
    created, changed, moved or deleted (empty: it changed none; None: it cannot tell)."""

    failed: bool = False
    changed: tuple[str, ...] | None = None
