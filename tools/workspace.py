"""The workspace sandbox: every path a file tool touches is resolved and kept inside one directory."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from langchain_core.tools import BaseTool

WORKSPACE_KEY = "workspace"  # in a tool's metadata: the folder the tool works in

# Open a folder, never through a symlink: a folder swapped for a link after the check is refused, not followed.
_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def declared_workspace(tools: Iterable[BaseTool]) -> Path | None:
    """The folder the first of `tools` to declare one works in (its metadata's WORKSPACE_KEY), or None."""
    for each in tools:
        folder = (each.metadata or {}).get(WORKSPACE_KEY)
        if folder:
            return Path(folder)
    return None


class OutsideWorkspaceError(ValueError):
    """A path would reach outside the workspace (via '..', an absolute path, '~' or a symlink)."""


class Workspace:
    """A directory the file tools are confined to; created on first use."""

    def __init__(self, root: Path) -> None:
        self._root = Path(root)

    @property
    def root(self) -> Path:
        """The workspace directory, created if missing, with symlinks resolved."""
        self._root.mkdir(parents=True, exist_ok=True)
        return self._root.resolve()

    def resolve(self, path: str) -> Path:
        """The real location of a workspace-relative path; raise OutsideWorkspaceError if it escapes."""
        if "\0" in path:
            raise ValueError(f"path {path!r} contains a NUL character")
        text = path.strip() or "."
        if text.startswith("~"):
            raise OutsideWorkspaceError(
                f"path {path!r} is outside the workspace ('~' is not allowed; use a path relative to the workspace)"
            )
        if Path(text).is_absolute() or Path(text).drive:
            raise OutsideWorkspaceError(
                f"path {path!r} is outside the workspace (absolute paths are not "
                "allowed; use a path relative to the workspace)"
            )
        return self.contain(self.root / text, shown=path)

    def entry(self, path: str) -> Path:
        """Where a workspace path's last name is, that name not followed if it is a symlink (its folder is
        resolved and checked); for deleting or moving the link itself. The link's target must be inside too."""
        location = self.resolve(path)
        name = Path(path.strip()).name
        if not name or name in (".", "..") or location == self.root:
            return location
        return self.resolve(str(Path(path.strip()).parent)) / name

    @contextmanager
    def folder(self, location: Path, shown: str, *, create: bool = False) -> Iterator[int]:
        """A descriptor of the resolved folder `location`, opened from the workspace one name at a time without
        following symlinks (so a folder swapped for a link since the check is refused); `create` makes the
        missing ones."""
        descriptor = os.open(self.root, _FOLDER_FLAGS)
        try:
            for name in location.relative_to(self.root).parts:
                try:
                    inner = os.open(name, _FOLDER_FLAGS, dir_fd=descriptor)
                except FileNotFoundError:
                    if not create:
                        raise
                    os.mkdir(name, dir_fd=descriptor)
                    inner = os.open(name, _FOLDER_FLAGS, dir_fd=descriptor)
                except OSError as error:
                    if error.errno in (errno.ELOOP, errno.ENOTDIR):
                        raise ValueError(f"path {shown!r} changed while in use (a folder on it is no longer a "
                                         "folder); nothing was done") from None
                    raise
                os.close(descriptor)
                descriptor = inner
            yield descriptor
        finally:
            os.close(descriptor)

    def contain(self, location: Path, shown: str) -> Path:
        """Resolve a location (following every symlink) and check it lies inside the workspace."""
        root = self.root
        try:
            real = location.resolve()
        except RuntimeError:  # a symlink loop before Python 3.13
            raise ValueError(f"path {shown!r} cannot be resolved: it is a symlink loop") from None
        except OSError as error:  # a symlink loop from 3.13 on, or a permission problem
            raise ValueError(f"path {shown!r} cannot be resolved: {error.strerror or type(error).__name__}") from None
        if not real.is_relative_to(root):
            raise OutsideWorkspaceError(f"path {shown!r} is outside the workspace")
        return real

    def show(self, location: Path) -> str:
        """A resolved location as the model should see it: relative to the workspace, '/'-separated."""
        return location.relative_to(self.root).as_posix()
