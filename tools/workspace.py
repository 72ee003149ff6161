"""The workspace sandbox: every path a file tool touches is resolved and kept inside one directory."""

from __future__ import annotations

from pathlib import Path


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

    def contain(self, location: Path, shown: str) -> Path:
        """Resolve a location (following every symlink) and check it lies inside the workspace."""
        root = self.root
        try:
            real = location.resolve()
        except RuntimeError:  # a symlink loop before Python 3.13
            raise ValueError(f"path {shown!r} cannot be resolved: it is a symlink loop") from None
        except OSError as error:  # a symlink loop from 3.13 on, or a permission problem
            raise ValueError(f"path {shown!r} cannot be resolved: {error.strerror or error}") from None
        if not real.is_relative_to(root):
            raise OutsideWorkspaceError(f"path {shown!r} is outside the workspace")
        return real

    def show(self, location: Path) -> str:
        """A resolved location as the model should see it: relative to the workspace, '/'-separated."""
        return location.relative_to(self.root).as_posix()
