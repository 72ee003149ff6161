"""A task's artifacts: the files in its workspace, each with an id that stays the same across restarts."""

from __future__ import annotations

import os
import uuid
from pathlib import Path, PurePosixPath

from .schema import Artifact

_NAMESPACE = uuid.UUID("6f1c3a52-7d35-4c3e-9a51-0a1d3a3b2e10")  # artifact ids: uuid5 of the file's relative path


class BadArtifactPath(ValueError):
    """A path that would leave the workspace."""


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


def find(workspace: Path, artifact_id: str) -> Path | None:
    """The file whose artifact id this is, or None."""
    for relative in list_files(workspace):
        if str(uuid.uuid5(_NAMESPACE, relative)) == artifact_id:
            return workspace / relative
    return None


def upload_path(workspace: Path, folder: str | None, file_name: str) -> tuple[Path, str]:
    """Where an uploaded file goes, and its relative path; BadArtifactPath for one outside the workspace."""
    relative = PurePosixPath(folder or "") / PurePosixPath(file_name).name
    if relative.is_absolute() or ".." in relative.parts or not relative.name or relative.name in (".", ".."):
        raise BadArtifactPath(f"{relative} is not a path inside the task's workspace")
    target = workspace / relative
    root = workspace.resolve()
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    if not parent.resolve().is_relative_to(root) or target.is_symlink():  # a link out of the workspace
        raise BadArtifactPath(f"{relative} is not a path inside the task's workspace")
    return target, relative.as_posix()
