"""How the file tools touch the disk: confined, non-following opens, decoding, listings and searches, and the
errors a model can act on."""

import codecs
import errno
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..acting.fence import fence
from .workspace import Workspace

MAX_MATCHES = 50
MAX_LISTED = 200
PATTERN = re.compile(r"[*?\[]")  # a path with these is a pattern of names ("*.tmp")
MAX_NAMES_SHOWN = 12  # names a "does not exist" error shows of the folder it looked in
MAX_LINE_CHARS = 200
MAX_SEARCHED_FILE_BYTES = 2_000_000
_BINARY_SNIFF_BYTES = 8192
# A file is opened without following a final symlink, and without blocking on a named pipe.
FILE_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)

def decode_text(data: bytes, complete: bool) -> str | None:
    """UTF-8 text of data (which may stop mid-character unless complete), or None if it looks binary."""
    if b"\0" in data[:_BINARY_SNIFF_BYTES]:
        return None
    try:
        return codecs.getincrementaldecoder("utf-8-sig")().decode(data, final=complete)
    except UnicodeDecodeError:
        return None


def walk(workspace: Workspace, directory: Path, hidden: bool = True) -> Iterator[tuple[Path, os.stat_result]]:
    """Everything under a resolved folder with its own status (a link's, not its target's), depth first in name
    order, less what is hidden (a name that begins with a dot, and all under it) unless `hidden`; folders are
    opened without following links, so a folder swapped for a link is never entered."""
    with workspace.folder(directory, workspace.show(directory)) as descriptor:
        entries = sorted((entry.name, entry.stat(follow_symlinks=False)) for entry in os.scandir(descriptor)
                         if hidden or not entry.name.startswith("."))
    for name, status in entries:
        yield directory / name, status
        if stat.S_ISDIR(status.st_mode):
            yield from walk(workspace, directory / name, hidden)


@contextmanager
def os_errors(action: str, shown: str) -> Iterator[None]:
    """Report an OSError as a short ValueError naming the workspace path, never the host path."""
    try:
        yield
    except OSError as error:  # str(error) would hold the host path
        if error.errno == errno.ELOOP:
            raise ValueError(f"cannot {action} {shown!r}: it changed while in use (it is now a symlink)") from None
        raise ValueError(f"cannot {action} {shown!r}: {error.strerror or type(error).__name__}") from None


@contextmanager
def opened(workspace: Workspace, location: Path, shown: str, flags: int) -> Iterator[BinaryIO]:
    """The regular file at a resolved location, opened through its folder's descriptor without following links;
    a named pipe or device is refused, and so is a file with other hard links (one may be outside)."""
    with workspace.folder(location.parent, shown) as folder:
        descriptor = os.open(location.name, flags | FILE_FLAGS, 0o666, dir_fd=folder)
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


def existing(workspace: Workspace, path: str) -> Path:
    """The real location of an existing workspace path."""
    location = workspace.resolve(path)
    if not location.exists():
        raise ValueError(f"{path!r} does not exist in the workspace{_what_is_there(workspace, location)}")
    return location


def _what_is_there(workspace: Workspace, missing: Path) -> str:
    """What the folder of a missing path holds (a few names), or the nearest folder above it that exists, so the
    next try can pick one."""
    folder = missing.parent
    while workspace.root in folder.parents and not folder.is_dir():
        folder = folder.parent
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


def existing_file(workspace: Workspace, path: str) -> Path:
    """The real location of an existing workspace file (not a directory)."""
    location = existing(workspace, path)
    if location.is_dir():
        raise ValueError(f"{path!r} is a directory, not a file")
    return location


def make_parents(workspace: Workspace, location: Path, shown: str) -> None:
    """Create the folders above location, explaining when a file stands in the way."""
    blocker = next((parent for parent in location.parents if parent.exists() and not parent.is_dir()), None)
    if blocker is not None:
        raise ValueError(f"cannot create {shown!r}: {workspace.show(blocker)!r} is a file, not a folder")
    with os_errors("create the folders for", shown), workspace.folder(location.parent, shown, create=True):
        pass


def new_destination(workspace: Workspace, source: Path, destination: str) -> Path:
    """Where a copy/move lands: into destination if it is a directory; never over an existing file or link."""
    target = workspace.resolve(destination)
    if target.is_dir():
        target = workspace.contain(target / source.name, shown=destination)
    if target.exists() or target.is_symlink():
        raise ValueError(f"{workspace.show(target)!r} already exists; delete it first or pick another name")
    make_parents(workspace, target, destination)
    return target


def identical_copy(workspace: Workspace, source: Path, destination: str) -> Path | None:
    """The file a move of the regular file `source` would land on when it already holds the same bytes (a copy
    made first, then "moved"), else None: such a move only has the source left to remove, and loses nothing."""
    target = workspace.resolve(destination)
    if target.is_dir():
        target = workspace.contain(target / source.name, shown=destination)
    if target == source or source.is_symlink() or target.is_symlink() or not (source.is_file() and target.is_file()):
        return None
    if source.stat().st_size != target.stat().st_size:
        return None
    with opened(workspace, source, destination, os.O_RDONLY) as one, \
            opened(workspace, target, destination, os.O_RDONLY) as other:
        while True:
            chunk = one.read(1 << 16)
            if chunk != other.read(1 << 16):
                return None
            if not chunk:
                return target


def read_quoted(workspace: Workspace, location: Path, shown: str, max_chars: int) -> str:
    """A text file's content, cut to max_chars with a note; binary files are only described."""
    with os_errors("read", shown), opened(workspace, location, shown, os.O_RDONLY) as handle:
        size = os.fstat(handle.fileno()).st_size
        head = handle.read(max_chars * 4 + 4)  # enough bytes for max_chars characters of UTF-8
    text = decode_text(head, complete=len(head) >= size)
    if text is None:
        return f"{shown!r} is a binary file ({size:,} bytes); its content is not shown."
    if not text:
        return f"{shown!r} is empty."
    if len(text) <= max_chars and len(head) >= size:
        return _quote_file(f"The content of {shown!r} ({_lines(text)}):", text, shown)
    heading = f"The content of {shown!r} (truncated: the first {max_chars:,} characters of {size:,} bytes):"
    return _quote_file(heading, text[:max_chars], shown)


def unchanged(location: Path, data: bytes) -> bool:
    """Whether writing `data` leaves the regular file at `location` as it was (a final newline aside); a file of
    another size is never read."""
    if not location.is_file() or abs(location.stat().st_size - len(data)) > 2:
        return False
    return location.read_bytes().rstrip(b"\r\n") == data.rstrip(b"\r\n")


def _lines(text: str) -> str:
    """How many lines and words `text` has, as wc counts them ("1 line, 3 words"): counts the reader need not
    make."""
    lines, words = len(text.splitlines()), len(text.split())
    return f"{lines} line{'' if lines == 1 else 's'}, {words} word{'' if words == 1 else 's'}"


def _quote_file(heading: str, text: str, shown: str) -> str:
    """File content fenced, as web text is: a file cannot pass for the agent's own steps."""
    return fence(heading, text, kind="FILE CONTENT", source=f"the workspace file {shown!r}")


def listing(workspace: Workspace, entries: Iterable[tuple[Path, os.stat_result]]) -> list[str]:
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


def tally(entries: Iterable[tuple[Path, os.stat_result]]) -> str:
    """What a listing holds, counted, as a person would ask about it: "In all: 3 files (2 .md, 1 .txt) and 1
    folder." (links are not counted)."""
    suffixes: Counter[str] = Counter()
    folders = 0
    for entry, status in entries:
        if stat.S_ISREG(status.st_mode):
            suffixes[entry.suffix.lower() or "without an extension"] += 1
        folders += stat.S_ISDIR(status.st_mode)
    files = sum(suffixes.values())
    kinds = ", ".join(f"{count} {suffix}" for suffix, count in suffixes.most_common())
    counted = f"{files} file{'' if files == 1 else 's'}" + (f" ({kinds})" if files else "")
    return f"In all: {counted}" + (f" and {folders} folder{'' if folders == 1 else 's'}." if folders else ".")


def search_lines(workspace: Workspace, files: Iterable[Path], pattern: str) -> list[str]:
    """'file:line: text' for lines containing pattern (case-insensitive), at most MAX_MATCHES + 1."""
    needle, matches = pattern.lower(), []
    for location in files:
        try:
            with opened(workspace, location, workspace.show(location), os.O_RDONLY) as handle:
                if os.fstat(handle.fileno()).st_size > MAX_SEARCHED_FILE_BYTES:
                    continue
                text = decode_text(handle.read(), complete=True)
        except ValueError:  # not a plain file of its own (a pipe, a hard link), or it changed meanwhile
            continue
        for number, line in enumerate((text or "").splitlines(), start=1):
            if needle in line.lower():
                matches.append(f"{workspace.show(location)}:{number}: {line.strip()[:MAX_LINE_CHARS]}")
                if len(matches) > MAX_MATCHES:
                    return matches
    return matches


def matching(space: Workspace, pattern: str) -> list[str]:
    """The files (not folders) under the workspace whose paths `pattern` matches ("*.tmp"), at least one."""
    with os_errors("find", pattern):
        if ".." in Path(pattern.strip()).parts or Path(pattern.strip()).is_absolute():
            raise ValueError(f"{pattern!r} leaves the workspace; give a pattern inside it, such as '*.tmp'")
        found = sorted(str(match.relative_to(space.root)) for match in space.root.glob(pattern.strip())
                       if match.is_file() or match.is_symlink())
        if not found:
            existing(space, pattern)  # raises: nothing of that name, and what is there
        if len(found) > MAX_LISTED:
            raise ValueError(f"{pattern!r} matches more than {MAX_LISTED} files; give a narrower pattern")
    return found


def named(space: Workspace, path: str) -> bool:
    """Whether a file, folder or link is named `path` (the link itself, wherever it points)."""
    with os_errors("find", path):
        return space.entry(path).exists() or space.entry(path).is_symlink()


def is_pattern(space: Workspace, path: str) -> bool:
    """Whether a path is a pattern of names ("*.tmp") and no file or folder is named so."""
    return bool(PATTERN.search(path)) and not named(space, path)
