"""StoreDirectory: the store's folder — its database connection, the writers' lock, and moving it aside when damaged."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn, TypeVar

from filelock import FileLock, Timeout

from .database import DATABASE, StoreDamagedError, describe_failure, open_database
from .errors import MemoryStoreCorruptError, MemoryStoreError
from .segments import SegmentDamagedError

_T = TypeVar("_T")


class StoreDirectory:
    """Runs operations on the store's database; damage found twice moves the folder aside, deleting nothing."""

    def __init__(self, directory: Path, lock_timeout: float, on_reset: Callable[[], None],
                 on_index_damaged: Callable[[sqlite3.Connection, str], None] | None = None) -> None:
        self.path = directory
        # Beside the folder, not in it, so moving a damaged store aside leaves the lock in place.
        self.lock = FileLock(directory.with_name(f"{directory.name}.lock"), timeout=lock_timeout, mode=0o600)
        self._on_reset = on_reset  # drops whatever the owner loaded from the old files
        self._on_index_damaged = on_index_damaged  # rebuilds the vector files from the intact database
        self._guard = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._db_identity: tuple[int, int] | None = None

    def run(self, operation: Callable[[sqlite3.Connection], _T], *, write: bool) -> _T:
        """Run an operation (writes under the lock); damage is confirmed once more under the lock, then reported."""
        with self._guard:
            try:
                with self.locked() if write else contextlib.nullcontext():
                    return self._attempt(operation)
            except StoreDamagedError:
                pass  # perhaps another process changed the files in between: look again, holding the lock
            with self.locked():
                self.close()
                try:
                    return self._attempt(operation)
                except StoreDamagedError as damage:
                    if not isinstance(damage.__cause__, SegmentDamagedError) or self._on_index_damaged is None:
                        self._move_aside(str(damage))
                    reason = str(damage)  # only the vector files: the texts are intact, so rebuild from them
                try:
                    return self._attempt(lambda db: self._rebuilt(db, reason, operation))
                except StoreDamagedError as damage:
                    self._move_aside(str(damage))

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's file lock (re-entrant in this thread)."""
        try:
            self.lock.acquire()
        except Timeout:
            raise MemoryStoreError(
                f"long-term memory at {self.path} stayed locked by another process for "
                f"{self.lock.timeout:.0f} s (lock file {self.lock.lock_file})"
            ) from None
        try:
            yield
        finally:
            self.lock.release()

    @contextlib.contextmanager
    def transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        """One atomic change: its commit is the moment it happens; on any failure it is rolled back."""
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
            if db.in_transaction:
                db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            self._on_reset()  # the owner may have changed loaded indexes in place
            raise

    def collect_garbage(self, keep: set[str]) -> None:
        """Remove segment files not in `keep` and temp files of killed writers (caller holds the lock)."""
        for path in self.path.iterdir():
            stale = path.suffix == ".faiss" and path.name not in keep
            if stale or (path.name.startswith(".") and path.name.endswith(".tmp")):
                with contextlib.suppress(OSError):
                    path.unlink()

    def close(self) -> None:
        """Close the connection and let the owner drop what it loaded."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db = self._db_identity = None
        self._on_reset()

    def _rebuilt(self, db: sqlite3.Connection, reason: str, operation: Callable[[sqlite3.Connection], _T]) -> _T:
        assert self._on_index_damaged is not None
        self._on_index_damaged(db, reason)
        return operation(db)

    def _attempt(self, operation: Callable[[sqlite3.Connection], _T]) -> _T:
        try:
            return operation(self._connection())
        except SegmentDamagedError as exc:
            raise StoreDamagedError(str(exc)) from exc
        except sqlite3.Error as exc:
            raise describe_failure(self.path, exc) from exc

    def _connection(self) -> sqlite3.Connection:
        """The open database; reopened when its file was replaced or moved by another process."""
        database = self.path / DATABASE
        try:
            status = database.stat()
            identity: tuple[int, int] | None = (status.st_dev, status.st_ino)
        except OSError:
            identity = None
        if self._db is not None and identity == self._db_identity:
            return self._db
        self.close()
        try:
            # A new database is made under the lock: until its header is written it is empty, which means damage.
            with self.locked() if identity is None else contextlib.nullcontext():
                self._db = open_database(self.path)
            status = database.stat()
        except OSError as exc:
            raise MemoryStoreError(f"long-term memory at {self.path} cannot be opened: {exc}") from exc
        self._db_identity = (status.st_dev, status.st_ino)
        return self._db

    def _move_aside(self, reason: str) -> NoReturn:
        """Rename the damaged folder and say where it went (caller holds the lock)."""
        self.close()
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        for attempt in range(1, 100):
            if not aside.exists():
                break
            aside = aside.with_name(f"{aside.name.rsplit('~', 1)[0]}~{attempt}")
        try:
            os.rename(self.path, aside)
        except OSError as exc:
            raise MemoryStoreError(
                f"long-term memory at {self.path} is damaged ({reason}) and could not be moved aside ({exc}); "
                f"move it away yourself (e.g. to {aside}) or run with --no-memory"
            ) from exc
        raise MemoryStoreCorruptError(
            f"long-term memory at {self.path} was damaged ({reason}); it was moved to {aside} and nothing "
            f"was deleted (its summaries stay readable in {aside / DATABASE}); a new, empty memory starts now",
            moved_to=aside,
        )
