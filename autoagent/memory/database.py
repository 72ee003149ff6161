"""The store's SQLite file: schema, the committed state record, and which failures mean damage."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .entries import MemoryEntry
from .errors import MemoryStoreError
from .segments import SegmentFile

DATABASE = "memory.sqlite3"
FORMAT = "1"
COLUMNS = "id, run_id, created, task, outcome, model, summary, extra"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so a forgotten vector id never comes back
    run_id TEXT NOT NULL,
    created TEXT NOT NULL,
    task TEXT NOT NULL,
    outcome TEXT NOT NULL,
    model TEXT NOT NULL,
    summary TEXT NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}'
);
"""
# Failures of the file system or of another process, not damage to the store.
_TRANSIENT = ("locked", "busy", "unable to open", "readonly", "read-only", "disk i/o", "full", "permission")


class StoreDamagedError(Exception):
    """The store's files contradict themselves or cannot be parsed (internal; the store decides what to do)."""


@dataclass(frozen=True)
class StoreState:
    """What a commit makes current: the embedding model, the vector segments, and a generation counter."""

    generation: int = 0
    embedding_model: str | None = None
    dimension: int | None = None
    main: SegmentFile | None = None
    delta: SegmentFile | None = None
    tombstones: int = 0  # vectors in `main` whose entries were forgotten

    def to_json(self) -> str:
        """The state as the JSON kept in the `meta` table."""
        return json.dumps({
            "generation": self.generation, "embedding_model": self.embedding_model, "dimension": self.dimension,
            "main": self.main and self.main.to_json(), "delta": self.delta and self.delta.to_json(),
            "tombstones": self.tombstones,
        })

    @classmethod
    def from_json(cls, text: str) -> StoreState:
        """Parse the state record; StoreDamagedError when it is malformed."""
        try:
            record = json.loads(text)
            state = cls(
                generation=int(record["generation"]),
                embedding_model=None if record["embedding_model"] is None else str(record["embedding_model"]),
                dimension=None if record["dimension"] is None else int(record["dimension"]),
                main=SegmentFile.from_json(record["main"]),
                delta=SegmentFile.from_json(record["delta"]),
                tombstones=int(record["tombstones"]),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreDamagedError(f"its state record is malformed ({exc})") from exc
        if (state.main or state.delta) and not state.dimension:
            raise StoreDamagedError("its state record names vector segments but no dimension")
        return state


def open_database(directory: Path) -> sqlite3.Connection:
    """Open (creating when new) the store's database, private to the user, and check its layout."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = directory / DATABASE
    if path.is_file() and path.stat().st_size == 0:  # SQLite would silently start a new, empty store in it
        raise StoreDamagedError("its database file is empty (0 bytes)")
    db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    try:
        with contextlib.suppress(OSError):  # e.g. a file another account owns: reading it may still work
            os.chmod(path, 0o600)
        db.execute("PRAGMA journal_mode=WAL")  # readers never wait for the single writer
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        db.execute("BEGIN IMMEDIATE")
        if db.execute("SELECT COUNT(*) FROM meta").fetchone()[0] == 0:
            if db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]:
                raise StoreDamagedError("it has entries but no state record")
            db.executemany("INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("state", StoreState().to_json())])
        db.execute("COMMIT")
        found = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if found is None or found[0] != FORMAT:
            raise MemoryStoreError(f"long-term memory at {directory} has format {found and found[0]!r}, "
                                   f"not {FORMAT!r}: it was written by another autoagent version")
        db.execute(f"SELECT {COLUMNS} FROM entries LIMIT 0")
        read_state(db)
    except BaseException:
        db.close()
        raise
    return db


def read_state(db: sqlite3.Connection) -> StoreState:
    """The committed state record."""
    row = db.execute("SELECT value FROM meta WHERE key = 'state'").fetchone()
    if row is None:
        raise StoreDamagedError("its state record is missing")
    return StoreState.from_json(row[0])


def write_state(db: sqlite3.Connection, state: StoreState) -> None:
    """Replace the state record (inside the caller's transaction)."""
    db.execute("UPDATE meta SET value = ? WHERE key = 'state'", (state.to_json(),))


def insert_entry(db: sqlite3.Connection, entry: MemoryEntry) -> int:
    """Insert an entry and return its row id (also its vector id)."""
    cursor = db.execute(
        "INSERT INTO entries (run_id, created, task, outcome, model, summary, extra) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (entry.run_id, entry.created, entry.task, entry.outcome, entry.model, entry.summary,
         json.dumps(entry.extra, ensure_ascii=False)),
    )
    assert cursor.lastrowid is not None
    return int(cursor.lastrowid)


def to_entry(row: tuple[Any, ...]) -> MemoryEntry:
    """A row of `entries` (in COLUMNS order) as a MemoryEntry."""
    row_id, run_id, created, task, outcome, model, summary, extra = row
    try:
        details = json.loads(extra)
    except ValueError:
        details = None
    return MemoryEntry(task=str(task), summary=str(summary), outcome=str(outcome), model=str(model),
                       run_id=str(run_id), created=str(created),
                       extra=details if isinstance(details, dict) else {}, id=str(row_id))


def describe_failure(directory: Path, exc: sqlite3.Error) -> Exception:
    """A transient or permission failure becomes MemoryStoreError; anything else means the file is damaged."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and any(word in text.lower() for word in _TRANSIENT):
        return MemoryStoreError(f"long-term memory at {directory} cannot be used: {text}")
    return StoreDamagedError(f"its database is unreadable: {text}")
