"""File tools confined to a workspace directory: read, write, list, copy, move, delete and search."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import codecs
import errno
import os
import shutil
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from langchain_core.tools import BaseTool, tool

from ..tool_use.fence import fence
from .workspace import Workspace

MAX_READ_CHARS = 8_000  # what read_file shows of a big file; the local model's context is small
MAX_LISTED = 200
MAX_MATCHES = 50
MAX_NAMES_SHOWN = 12  # names a "does not exist" error shows of the folder it looked in
MAX_LINE_CHARS = 200
MAX_SEARCHED_FILE_BYTES = 2_000_000
_BINARY_SNIFF_BYTES = 8192
# A file is opened without following a final symlink, and without blocking on a named pipe.
_FILE_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _decode(data: bytes, complete: bool) -> str | None:
    """UTF-8 text of data (which may stop mid-character unless complete), or None if it looks binary."""
    if b"\0" in data[:_BINARY_SNIFF_BYTES]:
        return None
    try:
        return codecs.getincrementaldecoder("utf-8-sig")().decode(data, final=complete)
    except UnicodeDecodeError:
        return None


def _walk(workspace: Workspace, directory: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """Everything under a resolved folder with its own status (a link's, not its target's), depth first in name
    order; folders are opened without following links, so a folder swapped for a link is never entered."""
    with workspace.folder(directory, workspace.show(directory)) as descriptor:
        entries = sorted((entry.name, entry.stat(follow_symlinks=False)) for entry in os.scandir(descriptor))
    for name, status in entries:
        yield directory / name, status
        if stat.S_ISDIR(status.st_mode):
            yield from _walk(workspace, directory / name)


@contextmanager
def _os_errors(action: str, shown: str) -> Iterator[None]:
    """Report an OSError as a short ValueError naming the workspace path, never the host path."""
    try:
        yield
    except OSError as error:  # str(error) would hold the host path
        if error.errno == errno.ELOOP:
            raise ValueError(f"cannot {action} {shown!r}: it changed while in use (it is now a symlink)") from None
        raise ValueError(f"cannot {action} {shown!r}: {error.strerror or type(error).__name__}") from None


@contextmanager
def _opened(workspace: Workspace, location: Path, shown: str, flags: int) -> Iterator[BinaryIO]:
    """The regular file at a resolved location, opened through its folder's descriptor without following links;
    a named pipe or device is refused, and so is a file with other hard links (one may be outside)."""
    with workspace.folder(location.parent, shown) as folder:
        descriptor = os.open(location.name, flags | _FILE_FLAGS, 0o666, dir_fd=folder)
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise ValueError(f"{shown!r} is not a regular file (a named pipe, a device or a socket)")
    if status.st_nlink > 1:
        os.close(descriptor)
        raise ValueError(f"{shown!r} has other hard links, which may be outside the workspace; it is not used")
    os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "rb" if flags == os.O_RDONLY else "r+b") as handle:
        yield handle


def _existing(workspace: Workspace, path: str) -> Path:
    """The real location of an existing workspace path."""
    location = workspace.resolve(path)
    if not location.exists():
        raise ValueError(f"{path!r} does not exist in the workspace{_what_is_there(workspace, location)}")
    return location


def _what_is_there(workspace: Workspace, missing: Path) -> str:
    """What the folder of a missing path holds (a few names), so the next try can pick one."""
    folder = missing.parent
    try:
        names = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in folder.iterdir()
                       if not entry.name.startswith("."))
    except OSError:
        names = []
    inside = folder == workspace.root or workspace.root in folder.parents
    if not names or not inside:
        return " (use list_files to see what does)"
    shown = ", ".join(names[:MAX_NAMES_SHOWN]) + (", ..." if len(names) > MAX_NAMES_SHOWN else "")
    where = "the workspace" if folder == workspace.root else repr(workspace.show(folder))
    return f"; {where} has: {shown} (search_files finds which files mention a text)"


def _existing_file(workspace: Workspace, path: str) -> Path:
    """The real location of an existing workspace file (not a directory)."""
    location = _existing(workspace, path)
    if location.is_dir():
        raise ValueError(f"{path!r} is a directory, not a file")
    return location


def _make_parents(workspace: Workspace, location: Path, shown: str) -> None:
    """Create the folders above location, explaining when a file stands in the way."""
    blocker = next((parent for parent in location.parents if parent.exists() and not parent.is_dir()), None)
    if blocker is not None:
        raise ValueError(f"cannot create {shown!r}: {workspace.show(blocker)!r} is a file, not a folder")
    with _os_errors("create the folders for", shown), workspace.folder(location.parent, shown, create=True):
        pass


def _new_destination(workspace: Workspace, source: Path, destination: str) -> Path:
    """Where a copy/move lands: into destination if it is a directory; never over an existing file or link."""
    target = workspace.resolve(destination)
    if target.is_dir():
        target = workspace.contain(target / source.name, shown=destination)
    if target.exists() or target.is_symlink():
        raise ValueError(f"{workspace.show(target)!r} already exists; delete it first or pick another name")
    _make_parents(workspace, target, destination)
    return target


def _read(workspace: Workspace, location: Path, shown: str, max_chars: int) -> str:
    """A text file's content, cut to max_chars with a note; binary files are only described."""
    with _os_errors("read", shown), _opened(workspace, location, shown, os.O_RDONLY) as handle:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(max_chars * 4 + 4)  # enough bytes for max_chars characters of UTF-8
    text = _decode(head, complete=len(head) >= size)
    if text is None:
        return f"{shown!r} is a binary file ({size:,} bytes); its content is not shown."
    if not text:
        return f"{shown!r} is empty."
    if len(text) <= max_chars and len(head) >= size:
        return _quote_file(f"The content of {shown!r} ({_lines(text)}):", text, shown)
    heading = f"The content of {shown!r} (truncated: the first {max_chars:,} characters of {size:,} bytes):"
    return _quote_file(heading, text[:max_chars], shown)


def _lines(text: str) -> str:
    """How many lines `text` has, in words ("1 line", "5 lines"): a count the reader need not make."""
    count = len(text.splitlines())
    return f"{count} line" if count == 1 else f"{count} lines"


def _quote_file(heading: str, text: str, shown: str) -> str:
    """File content fenced, as web text is: a file cannot pass for the agent's own steps."""
    return fence(heading, text, kind="FILE CONTENT", source=f"the workspace file {shown!r}")


def _listing(workspace: Workspace, entries: Iterable[tuple[Path, os.stat_result]]) -> list[str]:
    """One line per entry: folders end in '/', files show their size, symlinks are marked."""
    lines = []
    for entry, status in entries:
        shown = workspace.show(entry)
        if stat.S_ISLNK(status.st_mode):
            lines.append(f"{shown} (symlink)")
        elif stat.S_ISDIR(status.st_mode):
            lines.append(f"{shown}/")
        else:
            lines.append(f"{shown} ({status.st_size:,} bytes)")
    return lines


def _search(workspace: Workspace, files: Iterable[Path], pattern: str) -> list[str]:
    """'file:line: text' for lines containing pattern (case-insensitive), at most MAX_MATCHES + 1."""
    needle, matches = pattern.lower(), []
    for location in files:
        try:
            with _opened(workspace, location, workspace.show(location), os.O_RDONLY) as handle:
                if os.fstat(handle.fileno()).st_size > MAX_SEARCHED_FILE_BYTES:
                    continue
                text = _decode(handle.read(), complete=True)
        except ValueError:  # not a plain file of its own (a pipe, a hard link), or it changed meanwhile
            continue
        for number, line in enumerate((text or "").splitlines(), start=1):
            if needle in line.lower():
                matches.append(f"{workspace.show(location)}:{number}: {line.strip()[:MAX_LINE_CHARS]}")
                if len(matches) > MAX_MATCHES:
                    return matches
    return matches


def _mark(made: BaseTool, side_effects: bool) -> BaseTool:
    """Record whether a tool changes anything; the approvals feature reads it."""
    made.metadata = {"side_effects": side_effects}
    return made


def file_tools(workspace: Path, max_read_chars: int = MAX_READ_CHARS) -> list[BaseTool]:
    """The file tools, every path confined to the workspace directory (created on first use)."""
    space = Workspace(workspace)

    @tool(parse_docstring=True)
    def read_file(path: str) -> str:
        """Read a text file in the workspace.

        Args:
            path: File path relative to the workspace.
        """
        with _os_errors("read", path):
            return _read(space, _existing_file(space, path), path, max_read_chars)

    @tool(parse_docstring=True)
    def write_file(path: str, content: str) -> str:
        """Write text to a file in the workspace, replacing it if it exists; creates missing folders.

        Args:
            path: File path relative to the workspace.
            content: The complete new content of the file.
        """
        with _os_errors("write", path):
            location = space.resolve(path)
            if location.is_dir():
                raise ValueError(f"{path!r} is a directory, not a file")
            data = content.encode("utf-8")
            _make_parents(space, location, path)
            with _opened(space, location, path, os.O_RDWR | os.O_CREAT) as handle:
                handle.truncate(0)  # only now: a hard-linked file was refused before anything changed
                handle.write(data)
        return f"Wrote {len(content):,} character{'' if len(content) == 1 else 's'} to {space.show(location)}."

    @tool(parse_docstring=True)
    def list_files(path: str = ".") -> str:
        """List the files and folders under a workspace folder, recursively.

        Args:
            path: Folder relative to the workspace; "." is the workspace itself.
        """
        with _os_errors("list", path):
            location = _existing(space, path)
            if not location.is_dir():
                raise ValueError(f"{path!r} is a file, not a folder (use read_file to read it)")
            lines = _listing(space, islice(_walk(space, location), MAX_LISTED + 1))
        if not lines:
            return f"{path!r} is empty."
        if len(lines) > MAX_LISTED:
            lines[MAX_LISTED:] = [f"[stopped after {MAX_LISTED} entries; list a subfolder to see more]"]
        return "\n".join(lines)

    @tool(parse_docstring=True)
    def copy_file(source: str, destination: str) -> str:
        """Copy a file within the workspace; never overwrites an existing file.

        Args:
            source: File to copy, relative to the workspace.
            destination: New file path, or an existing folder to copy into.
        """
        with _os_errors("copy", source):
            origin = _existing_file(space, source)
            target = _new_destination(space, origin, destination)
            with _opened(space, origin, source, os.O_RDONLY) as reading:
                with space.folder(target.parent, destination) as folder:  # O_EXCL: never over a file or a link
                    created = os.open(target.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FILE_FLAGS, 0o666,
                                      dir_fd=folder)
                with os.fdopen(created, "wb") as writing:
                    shutil.copyfileobj(reading, writing)
        return f"Copied {space.show(origin)} to {space.show(target)}."

    @tool(parse_docstring=True)
    def move_file(source: str, destination: str) -> str:
        """Move or rename a file or folder within the workspace; never overwrites an existing file.

        Args:
            source: File or folder to move, relative to the workspace.
            destination: New path, or an existing folder to move into.
        """
        with _os_errors("move", source):
            _existing(space, source)  # a symlink must point inside the workspace, to something
            origin = space.entry(source)  # but the link itself is what moves
            if origin == space.root:
                raise ValueError("cannot move the workspace itself")
            target = _new_destination(space, origin, destination)
            if not origin.is_symlink() and target.is_relative_to(origin):
                raise ValueError(f"cannot move {source!r} into itself")
            with space.folder(origin.parent, source) as old, space.folder(target.parent, destination) as new:
                os.rename(origin.name, target.name, src_dir_fd=old, dst_dir_fd=new)
        return f"Moved {space.show(origin)} to {space.show(target)}."

    @tool(parse_docstring=True)
    def delete_file(path: str) -> str:
        """Delete a file, or an empty folder, in the workspace.

        Args:
            path: File or empty folder, relative to the workspace.
        """
        with _os_errors("delete", path):
            _existing(space, path)  # a symlink must point inside the workspace, to something
            location = space.entry(path)  # but the link itself is what goes
            if location == space.root:
                raise ValueError("cannot delete the workspace itself")
            shown = space.show(location)
            with space.folder(location.parent, path) as folder:
                if not stat.S_ISDIR(os.stat(location.name, dir_fd=folder, follow_symlinks=False).st_mode):
                    os.unlink(location.name, dir_fd=folder)
                    return f"Deleted {shown}."
                try:
                    os.rmdir(location.name, dir_fd=folder)
                except OSError as error:
                    if error.errno in (errno.ENOTEMPTY, errno.EEXIST):
                        raise ValueError(f"{path!r} is a folder that is not empty; delete its contents first") from None
                    raise
        return f"Deleted the empty folder {shown}."

    @tool(parse_docstring=True)
    def search_files(pattern: str, path: str = ".") -> str:
        """Find which files mention some text: the lines containing it (case-insensitive), with their file names.

        Args:
            pattern: The text to look for (plain text, not a regular expression).
            path: Folder or file to search, relative to the workspace.
        """
        if not pattern.strip():
            raise ValueError("the text to search for is empty")
        with _os_errors("search", path):
            location = _existing(space, path)
            files = (
                [location]
                if location.is_file()
                else (entry for entry, status in _walk(space, location) if stat.S_ISREG(status.st_mode))
            )
            matches = _search(space, files, pattern)
        shown = space.show(location)
        if not matches:
            return f"No lines containing {pattern!r} under {shown!r}."
        heading = f"Lines containing {pattern!r} under {shown!r}:"
        if len(matches) > MAX_MATCHES:
            del matches[MAX_MATCHES:]
            heading = heading[:-1] + f" (stopped after {MAX_MATCHES}; search a narrower path):"
        return fence(heading, "\n".join(matches), kind="FILE CONTENT", source="the workspace's files")

    return [
        _mark(read_file, side_effects=False),
        _mark(write_file, side_effects=True),
        _mark(list_files, side_effects=False),
        _mark(copy_file, side_effects=True),
        _mark(move_file, side_effects=True),
        _mark(delete_file, side_effects=True),
        _mark(search_files, side_effects=False),
    ]
