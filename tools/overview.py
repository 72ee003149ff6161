"""What a workspace holds, in brief: each file's name and size and the first lines of each text file, fenced as
file content is. A model shown this writes its first program for the data as it is (the columns a file has, a
line that is not a number) rather than for the data it imagines."""

from __future__ import annotations

import os
import stat
from itertools import islice
from pathlib import Path

from ..acting.fence import fence
from .file_access import decode_text, opened, walk
from .workspace import Workspace

MAX_FILES = 8  # files shown with their first lines; the others are only counted
HEAD_LINES = 5
LINE_CHARS = 120
_HEAD_BYTES = 16_384  # what is read of a file: its first lines, and its line count when it is no bigger
_MAX_ENTRIES = 200  # the walk stops here: a huge workspace is only begun
HEADING = "The files in the workspace as the task begins:"  # the coach gives its own, in the run's language


def overview(root: Path, heading: str = HEADING, max_files: int = MAX_FILES, head_lines: int = HEAD_LINES) -> str:
    """The workspace's files under `root` (not hidden ones: `.git/`, `.env`), each with its size and first
    `head_lines` lines, in one fence after `heading`; empty when `root` is missing or holds no file. Nothing is
    created, and no link is followed."""
    if not Path(root).is_dir():
        return ""
    space = Workspace(root)
    files = [(location, status) for location, status in islice(walk(space, space.root, hidden=False), _MAX_ENTRIES)
             if stat.S_ISREG(status.st_mode)]
    if not files:
        return ""
    parts = [_describe(space, location, status.st_size, head_lines) for location, status in files[:max_files]]
    if len(files) > max_files:
        parts.append(f"[and {len(files) - max_files} more file{'' if len(files) - max_files == 1 else 's'}]")
    return fence(heading, "\n".join(parts), kind="WORKSPACE FILES", source="the workspace's files")


def _describe(space: Workspace, location: Path, size: int, head_lines: int) -> str:
    """One file: its name, how big it is, and its first lines, indented."""
    shown = space.show(location)
    try:
        with opened(space, location, shown, os.O_RDONLY) as handle:
            data = handle.read(_HEAD_BYTES)
    except (OSError, ValueError):  # a pipe, a hard link, or gone meanwhile: named only
        return f"{shown} ({size:,} bytes)"
    whole = len(data) >= size
    text = decode_text(data, complete=whole)
    if text is None:
        return f"{shown} ({size:,} bytes, binary)"
    if not text.strip():
        return f"{shown} (empty)"
    lines = text.splitlines()
    if not whole:
        lines = lines[:-1] or lines  # the last may be cut
    count = f"{len(lines)} line{'' if len(lines) == 1 else 's'}" if whole else f"{size:,} bytes"
    head = [line if len(line) <= LINE_CHARS else line[:LINE_CHARS] + " …" for line in lines[:head_lines]]
    shows = "" if whole and len(lines) <= head_lines else f", the first {len(head)} shown"
    return "\n".join([f"{shown} ({count}{shows}):", *(f"    {line}" for line in head)])
