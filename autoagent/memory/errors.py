"""Errors of the long-term memory store; the CLI prints each as one line."""

from __future__ import annotations

from pathlib import Path

from ..errors import AutoAgentError


class MemoryStoreError(AutoAgentError):
    """The long-term memory store cannot be used right now (locked, unreadable, unwritable)."""


class MemoryStoreCorruptError(MemoryStoreError):
    """The store was damaged; it has been moved aside (nothing deleted) and a fresh one starts."""

    def __init__(self, message: str, moved_to: Path | None = None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


class EmbeddingMismatchError(MemoryStoreError):
    """The store holds vectors from another embedding model than the one in use."""
