"""A task's artifacts: the files in its workspace, each with an id that stays the same across restarts, read and
written through the file tools' own access (no link followed, no hard-linked file, nothing made outside)."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import BinaryIO
from urllib.parse import quote

from ..tools.file_access import make_parents, opened, os_errors
from ..tools.workspace import Workspace
from .schema import Artifact

CHUNK_BYTES = 1024 * 1024
MAX_NAME_BYTES = 255  # a file or folder name (Linux's NAME_MAX)
MAX_PATH_BYTES = 1024  # a whole relative path

_NAMESPACE = uuid.UUID("6f1c3a52-7d35-4c3e-9a51-0a1d3a3b2e10")  # artifact ids: uuid5 of the file's relative path


class BadArtifactPath(ValueError):
    """A path that would leave the workspace."""


class TooLarge(ValueError):
    """An upload over the server's limit."""


def list_files(workspace: Path) -> dict[str, tuple[int, int]]:
    """Every regular file in the workspace (links are not followed): relative path -> (mtime_ns, size)."""
    files: dict[str, tuple[int, int]] = {}
    for folder, folders, names in os.walk(workspace, followlinks=False):
        folders[:] = [name for name in folders if not (Path(folder) / name).is_symlink()]
        for name in names:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            stat = path.stat()
            files[path.relative_to(workspace).as_posix()] = (stat.st_mtime_ns, stat.st_size)
    return dict(sorted(files.items()))


def artifact(relative: str, uploaded: list[str]) -> Artifact:
    """The artifact of the file at `relative` (a POSIX path inside the workspace)."""
    path = PurePosixPath(relative)
    folder = str(path.parent) if str(path.parent) != "." else ""
    return Artifact(artifact_id=str(uuid.uuid5(_NAMESPACE, relative)), agent_created=relative not in uploaded,
                    file_name=path.name, relative_path=folder + "/" if folder else "")


def artifacts(workspace: Path, uploaded: list[str], only: set[str] | None = None) -> list[Artifact]:
    """The workspace's artifacts, or those among `only`."""
    return [artifact(relative, uploaded) for relative in list_files(workspace) if only is None or relative in only]


def changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> set[str]:
    """The files written or created between two listings."""
    return {relative for relative, stamp in after.items() if before.get(relative) != stamp}


def find(workspace: Path, artifact_id: str) -> str | None:
    """The relative path of the file whose artifact id this is, or None."""
    for relative in list_files(workspace):
        if str(uuid.uuid5(_NAMESPACE, relative)) == artifact_id:
            return relative
    return None


def upload_name(folder: str | None, file_name: str) -> str:
    """An upload's relative path; BadArtifactPath for one that is not a plain path inside the workspace."""
    relative = PurePosixPath(folder or "") / PurePosixPath(file_name).name
    if relative.is_absolute() or ".." in relative.parts or not relative.name or relative.name in (".", ".."):
        raise BadArtifactPath(f"{relative} is not a path inside the task's workspace")
    text = relative.as_posix()
    if len(text.encode()) > MAX_PATH_BYTES or any(len(part.encode()) > MAX_NAME_BYTES for part in relative.parts):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise BadArtifactPath(f"the path {shown!r} is too long: at most {MAX_NAME_BYTES} bytes a name and "
                              f"{MAX_PATH_BYTES} in all")
    return text


def save_upload(workspace: Path, folder: str | None, file_name: str, source: BinaryIO, limit: int) -> str:
    """Copy an upload into the workspace in pieces, its folders checked for links before any is made; its relative
    path. ValueError (with the reason) for a path that cannot be one, TooLarge past `limit` bytes."""
    relative = upload_name(folder, file_name)
    space = Workspace(workspace)
    size = source.seek(0, os.SEEK_END)
    source.seek(0)
    if size > limit:
        raise TooLarge(f"{relative} has {size:,} bytes; this server takes files of at most {limit:,} bytes")
    with os_errors("write", relative):
        location = space.resolve(relative)  # every link on the way resolved and kept inside first
        if space.entry(relative).is_symlink():
            raise BadArtifactPath(f"{relative} is a symlink; it is not written through")
        if location.is_dir():
            raise BadArtifactPath(f"{relative} is a folder, not a file")
        make_parents(space, location, relative)  # a file in the way is named; a folder turned link is refused
        with opened(space, location, relative, os.O_RDWR | os.O_CREAT) as handle:
            os.fchmod(handle.fileno(), 0o600)
            handle.truncate(0)  # only now: a hard-linked file was refused before anything changed
            while chunk := source.read(CHUNK_BYTES):
                handle.write(chunk)
    return relative


def read_chunks(workspace: Path, relative: str) -> Iterator[bytes]:
    """A workspace file's bytes in pieces, opened now (ValueError for a hard-linked or swapped file) and closed at
    the end."""
    space = Workspace(workspace)
    files = contextlib.ExitStack()
    with os_errors("read", relative):
        handle = files.enter_context(opened(space, space.resolve(relative), relative, os.O_RDONLY))

    def chunks() -> Iterator[bytes]:
        with files:
            while chunk := handle.read(CHUNK_BYTES):
                yield chunk

    return chunks()


def disposition(name: str) -> str:
    """A Content-Disposition header that names the file (RFC 6266: non-ASCII names as filename*)."""
    quoted = quote(name)
    return f"attachment; filename*=utf-8''{quoted}" if quoted != name else f'attachment; filename="{name}"'
