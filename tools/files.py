"""File tools confined to a workspace directory: read, write, list, copy, move, delete and search."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import errno
import os
import re
import shutil
import stat
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from langchain_core.tools import BaseTool, tool

from ..acting.fence import Quotes, fence
from . import file_access
from .file_access import (
    FILE_FLAGS,
    MAX_LISTED,
    PATTERN,
    existing,
    existing_file,
    identical_copy,
    is_pattern,
    listing,
    make_parents,
    matching,
    named,
    new_destination,
    opened,
    os_errors,
    read_quoted,
    search_lines,
    tally,
    unchanged,
    walk,
)
from .workspace import WORKSPACE_KEY, Workspace

MAX_READ_CHARS = 8_000  # what read_file shows of a big file; the local model's context is small
_EXTENSION = re.compile(r"\.\w{1,10}")  # a file ending alone (".tmp"), no name before it


def _mark(made: BaseTool, side_effects: bool, workspace: Path) -> BaseTool:
    """Record whether a tool changes anything (the approvals feature reads it), and the folder it works in."""
    made.metadata = {"side_effects": side_effects, WORKSPACE_KEY: str(workspace)}
    return made


def file_tools(workspace: Path, max_read_chars: int = MAX_READ_CHARS) -> list[BaseTool]:
    """The file tools, every path confined to the workspace directory (created on first use)."""
    space = Workspace(workspace)
    known: set[Path] = set()  # the files this run read or wrote: write_file may replace those
    quotes = Quotes()  # the fences these tools quoted files in: never written back

    @tool(parse_docstring=True)
    def read_file(path: str) -> str:
        """Read a text file in the workspace.

        Args:
            path: File path relative to the workspace.
        """
        with os_errors("read", path):
            location = existing_file(space, path)
            text = read_quoted(space, location, path, max_read_chars)
        known.add(location)
        return quotes.keep(text)

    @tool(parse_docstring=True)
    def write_file(path: str, content: str) -> str:
        """Write text to a file in the workspace (creates missing folders); a file that exists is replaced only
        once it was read.

        Args:
            path: File path relative to the workspace.
            content: The complete new content of the file.
        """
        with os_errors("write", path):
            no_pattern("write", path)
            quotes.refuse_framing(content)
            location = space.resolve(path)
            if location.is_dir():
                raise ValueError(f"{path!r} is a directory, not a file")
            existed = location.is_file() and location not in known
            data = content.encode("utf-8")
            same = not existed and unchanged(location, data)
            make_parents(space, location, path)
            with opened(space, location, path, os.O_RDWR | os.O_CREAT) as handle:
                if existed:  # after the link checks: what was there, and how it is refused, comes first
                    raise ValueError(f"{path!r} already exists and this run has not read it, so it is not "
                                     "replaced; to rename or move it, use move_file; to replace it, read it first")
                handle.truncate(0)  # only now: a hard-linked file was refused before anything changed
                handle.write(data)
            known.add(location)
        wrote = f"Wrote {len(content):,} character{'' if len(content) == 1 else 's'} to {space.show(location)}"
        return f"{wrote}; it already held exactly this text, so nothing in it changed." if same else f"{wrote}."

    @tool(parse_docstring=True)
    def list_files(path: str = ".") -> str:
        """List the files and folders under a workspace folder, recursively.

        Args:
            path: Folder relative to the workspace; "." is the workspace itself.
        """
        with os_errors("list", path):
            location = existing(space, path)
            if not location.is_dir():
                raise ValueError(f"{path!r} is a file, not a folder (use read_file to read it)")
            entries = list(islice(walk(space, location), MAX_LISTED + 1))
        lines = listing(space, entries)
        if not lines:
            return f"{path!r} is empty."
        if len(lines) > MAX_LISTED:
            lines[MAX_LISTED:] = [f"[stopped after {MAX_LISTED} entries; list a subfolder to see more]"]
        else:
            lines.append(tally(entries))
        return "\n".join(lines)

    def no_pattern(verb: str, path: str) -> None:
        """Raise when a path to make is a pattern of names ("*.jpg"), not a name (one already so named is used)."""
        if is_pattern(space, path):
            raise ValueError(f"{path!r} is a pattern of names, not a name: {verb} each file under its own new name"
                             f"{'' if verb == 'write' else ', or give a folder to ' + verb + ' into'}")

    def each_matching(verb: str, done: str, pattern: str, destination: str, one: Callable[[str, str], str]) -> str:
        """`one` (a copy or a move: `verb`, and `done` for what was done) of every file `pattern` matches, into the
        folder `destination` (made if missing)."""
        no_pattern(verb, destination)
        sources = matching(space, pattern)
        with os_errors(verb, destination):
            folder = space.resolve(destination)
            if folder.exists() and not folder.is_dir():
                if folder.is_file() and folder.stat().st_size == 0:  # a folder begun as an empty file
                    raise ValueError(f"{destination!r} is an empty file, not a folder: delete it with delete_file, "
                                     f"then {verb} into {destination!r} again, which makes the folder")
                raise ValueError(f"{destination!r} is a file; to {verb} several files, give a folder")
            with space.folder(folder, destination, create=True):
                pass
        for source in sources:
            one(source, destination)
        shown = space.show(folder)
        return f"{done} {len(sources)} file{'' if len(sources) == 1 else 's'} into {shown}: " \
               f"{', '.join(sources)}."

    @tool(parse_docstring=True)
    def copy_file(source: str, destination: str) -> str:
        """Copy a file within the workspace, or every file a pattern such as "*.txt" matches into a folder; never
        overwrites an existing file.

        Args:
            source: File or pattern to copy, relative to the workspace.
            destination: New file path, or a folder to copy into.
        """
        if is_pattern(space, source):
            return each_matching("copy", "Copied", source, destination, copy_one)
        no_pattern("copy", destination)
        return copy_one(source, destination)

    def copy_one(source: str, destination: str) -> str:
        """Copy one file."""
        with os_errors("copy", source):
            origin = existing_file(space, source)
            target = new_destination(space, origin, destination)
            with opened(space, origin, source, os.O_RDONLY) as reading:
                with space.folder(target.parent, destination) as folder:  # O_EXCL: never over a file or a link
                    created = os.open(target.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | FILE_FLAGS, 0o666,
                                      dir_fd=folder)
                with os.fdopen(created, "wb") as writing:
                    shutil.copyfileobj(reading, writing)
        return f"Copied {space.show(origin)} to {space.show(target)}."

    @tool(parse_docstring=True)
    def move_file(source: str, destination: str) -> str:
        """Move or rename a file or folder within the workspace, or move every file a pattern such as "*.log"
        matches into a folder; never overwrites an existing file.

        Args:
            source: File, folder or pattern to move, relative to the workspace.
            destination: New path, or a folder to move into.
        """
        if is_pattern(space, source):
            return each_matching("move", "Moved", source, destination, move_one)
        no_pattern("move", destination)
        return move_one(source, destination)

    def move_one(source: str, destination: str) -> str:
        """Move or rename one file or folder."""
        with os_errors("move", source):
            existing(space, source)  # a symlink must point inside the workspace, to something
            origin = space.entry(source)  # but the link itself is what moves
            if origin == space.root:
                raise ValueError("cannot move the workspace itself")
            copy = identical_copy(space, origin, destination)
            if copy is not None:  # the move was begun as a copy: only the source is left to go
                with space.folder(origin.parent, source) as old:
                    os.unlink(origin.name, dir_fd=old)
                return f"Moved {space.show(origin)} to {space.show(copy)} (it already held the same content; " \
                       f"{space.show(origin)} is removed)."
            target = new_destination(space, origin, destination)
            if not origin.is_symlink() and target.is_relative_to(origin):
                raise ValueError(f"cannot move {source!r} into itself")
            with space.folder(origin.parent, source) as old, space.folder(target.parent, destination) as new:
                os.rename(origin.name, target.name, src_dir_fd=old, dst_dir_fd=new)
        return f"Moved {space.show(origin)} to {space.show(target)}."

    @tool(parse_docstring=True)
    def delete_file(path: str) -> str:
        """Delete a file or an empty folder in the workspace, or every file a pattern such as "*.tmp" matches.

        Args:
            path: File, empty folder or pattern ("*.log", "old/*.txt"), relative to the workspace.
        """
        exists = named(space, path)
        if PATTERN.search(path) and not exists:
            deleted = [delete_one(match).removeprefix("Deleted ").rstrip(".") for match in matching(space, path)]
            return f"Deleted {len(deleted)} file{'' if len(deleted) == 1 else 's'}: {', '.join(deleted)}."
        ending = path.strip()
        if _EXTENSION.fullmatch(ending) and not exists and any(entry.name.endswith(ending)
                                                               for entry, _ in walk(space, space.root)):
            raise ValueError(f"{path!r} does not exist in the workspace; to delete every file ending in {ending}, "
                             f"give the pattern '*{ending}'")
        return delete_one(path)

    def delete_one(path: str) -> str:
        """Delete one file or empty folder."""
        with os_errors("delete", path):
            existing(space, path)  # a symlink must point inside the workspace, to something
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
        with os_errors("search", path):
            location = existing(space, path)
            files = (
                [location]
                if location.is_file()
                else (entry for entry, status in walk(space, location) if stat.S_ISREG(status.st_mode))
            )
            matches = search_lines(space, files, pattern)
        shown = space.show(location)
        if not matches:
            return f"No lines containing {pattern!r} under {shown!r}."
        count = len(matches)  # a count the reader need not make
        heading = f"{count} line{'' if count == 1 else 's'} containing {pattern!r} under {shown!r}:"
        if count > file_access.MAX_MATCHES:
            del matches[file_access.MAX_MATCHES:]
            heading = f"Lines containing {pattern!r} under {shown!r} (stopped after {file_access.MAX_MATCHES}; " \
                      "search a narrower path):"
        return quotes.keep(fence(heading, "\n".join(matches), kind="FILE CONTENT", source="the workspace's files"))

    return [
        _mark(read_file, side_effects=False, workspace=workspace),
        _mark(write_file, side_effects=True, workspace=workspace),
        _mark(list_files, side_effects=False, workspace=workspace),
        _mark(copy_file, side_effects=True, workspace=workspace),
        _mark(move_file, side_effects=True, workspace=workspace),
        _mark(delete_file, side_effects=True, workspace=workspace),
        _mark(search_files, side_effects=False, workspace=workspace),
    ]
