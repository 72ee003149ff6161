"""MemoryStore: summarised runs under $AUTOAGENT_HOME/memory, texts in SQLite and vectors in faiss files.

Every change is one SQLite transaction whose commit is the moment it happens: new faiss files are
written first (temp file, fsync, rename) under fresh names and only the commit makes them current,
so a process killed at any point leaves the previous store. Writers take a file lock beside the
directory; readers notice other processes' commits through the state record's generation.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from ..paths import autoagent_home
from ..redact import Redactor
from . import segments
from .database import COLUMNS, StoreState, insert_entry, read_state, to_entry, write_state
from .directory import StoreDirectory
from .entries import MemoryEntry
from .errors import EmbeddingMismatchError, MemoryStoreError

logger = logging.getLogger("autoagent")

LOCK_TIMEOUT_S = 60.0


def default_memory_dir() -> Path:
    """Where the user's long-term memory lives: $AUTOAGENT_HOME/memory."""
    return autoagent_home() / "memory"


class MemoryStore:
    """A persistent, process-safe store of MemoryEntry records and their unit vectors."""

    def __init__(self, directory: Path | None = None, *, lock_timeout: float = LOCK_TIMEOUT_S) -> None:
        self.directory = Path(directory) if directory is not None else default_memory_dir()
        self._files = StoreDirectory(self.directory, lock_timeout, on_reset=self._forget_loaded,
                                     on_index_damaged=self._rebuild_index)
        self._embedder: tuple[str, Callable[[list[str]], list[list[float]]]] | None = None
        self._redactor = Redactor.from_environment()  # secrets never stored, nor shown from an older entry
        self._forget_loaded()

    # ---- public API -------------------------------------------------------------------------------------------

    def add(self, entry: MemoryEntry, vector: Sequence[float], embedding_model: str) -> str:
        """Store one entry with its vector and return its id."""
        return self.add_many([entry], [vector], embedding_model)[0]

    def add_many(self, entries: Sequence[MemoryEntry], vectors: Any, embedding_model: str) -> list[str]:
        """Store entries with their vectors in one commit and return their ids."""
        matrix = segments.unit_rows(vectors)
        if len(entries) != len(matrix):
            raise ValueError(f"{len(entries)} entries but {len(matrix)} vectors")
        entries = [entry.redacted(self._redactor) for entry in entries]
        return self._files.run(lambda db: self._add(db, entries, matrix, embedding_model), write=True)

    def search(self, vector: Sequence[float], k: int, embedding_model: str) -> list[tuple[MemoryEntry, float]]:
        """The k entries whose vectors are nearest to `vector`, with their cosine similarity, best first."""
        query = segments.unit_rows(vector)
        hits = self._files.run(lambda db: self._search(db, query, k, embedding_model), write=False)
        return [(entry.redacted(self._redactor), score) for entry, score in hits]

    def entries(self, limit: int | None = None) -> list[MemoryEntry]:
        """Stored entries, newest first."""
        sql = f"SELECT {COLUMNS} FROM entries ORDER BY id DESC LIMIT ?"
        rows = self._files.run(lambda db: db.execute(sql, (limit or -1,)).fetchall(), write=False)
        return [to_entry(row).redacted(self._redactor) for row in rows]

    def get(self, entry_id: str) -> MemoryEntry | None:
        """The entry with this id, or None."""
        row_id = _row_id(entry_id)
        if row_id is None:
            return None
        sql = f"SELECT {COLUMNS} FROM entries WHERE id = ?"
        rows = self._files.run(lambda db: db.execute(sql, (row_id,)).fetchall(), write=False)
        return to_entry(rows[0]).redacted(self._redactor) if rows else None

    def count(self) -> int:
        """How many entries are stored."""
        return self._files.run(_count, write=False)

    def embedding_record(self) -> tuple[str, int] | None:
        """The embedding model and dimension the store's vectors come from, or None while it has none."""
        state = self._files.run(read_state, write=False)
        return (state.embedding_model, state.dimension) if state.embedding_model and state.dimension else None

    def forget(self, entry_id: str) -> bool:
        """Delete one entry (and its vector, or mark it dead in the graph); False when there is no such entry."""
        row_id = _row_id(entry_id)
        return row_id is not None and self._files.run(lambda db: self._forget(db, row_id), write=True)

    def clear(self) -> int:
        """Delete every entry and vector, and the embedding record; return how many entries there were."""
        return self._files.run(self._clear, write=True)

    def reembed(self, embed: Callable[[list[str]], list[list[float]]], embedding_model: str, *,
                batch_size: int = 16, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed every stored entry again with another model and make that the store's model; return the count."""
        snapshot = sorted(self.entries(), key=lambda entry: int(entry.id))
        vectors: list[list[float]] = []
        for start in range(0, len(snapshot), batch_size):
            vectors.extend(embed([entry.embedding_text() for entry in snapshot[start:start + batch_size]]))
            if progress is not None:
                progress(len(vectors), len(snapshot))
        main = None
        if snapshot:  # the graph is built before taking the lock: agents keep writing meanwhile
            matrix = segments.unit_rows(vectors)
            main = segments.new_main(matrix.shape[1])
            main.add_with_ids(matrix, np.array([int(entry.id) for entry in snapshot], dtype=np.int64))
        done = {int(entry.id) for entry in snapshot}
        return self._files.run(lambda db: self._swap_model(db, main, done, embed, embedding_model), write=True)

    def rebuild_with(self, embed: Callable[[list[str]], list[list[float]]], embedding_model: str) -> None:
        """When only the vector files are damaged, re-embed the stored texts with this model (if it is the store's)."""
        self._embedder = (embedding_model, embed)

    def close(self) -> None:
        """Close the database connection and drop loaded vectors."""
        self._files.close()

    # ---- operations (run by StoreDirectory.run, with the database open) ----------------------------------------

    def _add(self, db: sqlite3.Connection, entries: Sequence[MemoryEntry], matrix: np.ndarray,
             embedding_model: str) -> list[str]:
        state = read_state(db)
        dimension = matrix.shape[1]
        if state.embedding_model not in (None, embedding_model) or state.dimension not in (None, dimension):
            if _count(db):
                self._refuse(db, state, embedding_model, dimension)
            state = StoreState(generation=state.generation)  # an empty store adopts the new model
            self._forget_loaded()
        self._load(state)
        generation = state.generation + 1
        with self._files.transaction(db):
            ids = np.array([insert_entry(db, entry) for entry in entries], dtype=np.int64)
            delta = self._delta if self._delta is not None else segments.new_delta(dimension)
            delta.add_with_ids(matrix, ids)
            main, main_file, delta_file = self._main, state.main, None
            if delta.ntotal >= segments.DELTA_LIMIT:  # move the delta into the graph: an insert, not a rebuild
                main = main if main is not None else segments.new_main(dimension)
                moved_ids, moved_vectors = segments.contents(delta)
                main.add_with_ids(moved_vectors, moved_ids)
                main_file = segments.save(main, self.directory, f"main-{generation}.faiss")
                delta = segments.new_delta(dimension)
            else:
                delta_file = segments.save(delta, self.directory, f"delta-{generation}.faiss")
            new_state = replace(state, generation=generation, embedding_model=embedding_model, dimension=dimension,
                                main=main_file, delta=delta_file)
            write_state(db, new_state)
        self._committed(new_state, main, delta)
        return [str(i) for i in ids]

    def _search(self, db: sqlite3.Connection, query: np.ndarray, k: int,
                embedding_model: str) -> list[tuple[MemoryEntry, float]]:
        state = read_state(db)
        if state.embedding_model is None:
            return []
        if state.embedding_model != embedding_model or state.dimension != query.shape[1]:
            if not _count(db):
                return []  # nothing to mismatch: the next add adopts the new model
            self._refuse(db, state, embedding_model, query.shape[1])
        if state.generation != self._generation:
            with self._files.locked():  # load under the lock, so no writer removes a file mid-read
                state = read_state(db)
                self._load(state)
        fetch = k + state.tombstones  # forgotten vectors may fill some of the graph's k nearest
        hits = sorted({**dict(segments.search(self._main, query, fetch) if self._main else []),
                       **dict(segments.search(self._delta, query, fetch) if self._delta else [])}.items(),
                      key=lambda hit: -hit[1])
        if not hits:
            return []
        ids = [row_id for row_id, _ in hits]
        sql = f"SELECT {COLUMNS} FROM entries WHERE id IN ({','.join('?' * len(ids))})"
        found = {row[0]: to_entry(row) for row in db.execute(sql, ids)}
        return [(found[row_id], score) for row_id, score in hits if row_id in found][:k]

    def _forget(self, db: sqlite3.Connection, row_id: int) -> bool:
        state = read_state(db)
        self._load(state)
        generation = state.generation + 1
        with self._files.transaction(db):
            if db.execute("DELETE FROM entries WHERE id = ?", (row_id,)).rowcount == 0:
                db.execute("ROLLBACK")
                return False
            delta, delta_file, tombstones = self._delta, state.delta, state.tombstones
            if delta is not None and delta.remove_ids(np.array([row_id], dtype=np.int64)):
                delta_file = segments.save(delta, self.directory, f"delta-{generation}.faiss") if delta.ntotal else None
            elif state.main is not None:
                tombstones += 1
            new_state = replace(state, generation=generation, delta=delta_file, tombstones=tombstones)
            write_state(db, new_state)
        self._committed(new_state, self._main, delta)
        return True

    def _clear(self, db: sqlite3.Connection) -> int:
        state = read_state(db)
        with self._files.transaction(db):
            removed = db.execute("DELETE FROM entries").rowcount
            new_state = StoreState(generation=state.generation + 1)
            write_state(db, new_state)
        self._committed(new_state, None, None)
        return int(removed)

    def _swap_model(self, db: sqlite3.Connection, main: Any, done: set[int],
                    embed: Callable[[list[str]], list[list[float]]], embedding_model: str) -> int:
        state = read_state(db)
        current = [to_entry(row) for row in db.execute(f"SELECT {COLUMNS} FROM entries ORDER BY id")]
        added = [entry for entry in current if int(entry.id) not in done]  # stored while re-embedding
        if added:
            matrix = segments.unit_rows(embed([entry.embedding_text() for entry in added]))
            main = main if main is not None else segments.new_main(matrix.shape[1])
            main.add_with_ids(matrix, np.array([int(entry.id) for entry in added], dtype=np.int64))
        generation = state.generation + 1
        with self._files.transaction(db):
            if main is None or not current:
                new_state, main = StoreState(generation=generation), None
            else:
                main_file = segments.save(main, self.directory, f"main-{generation}.faiss")
                gone = len(done - {int(entry.id) for entry in current})  # forgotten while re-embedding
                new_state = StoreState(generation, embedding_model, int(main.d), main_file, None, gone)
            write_state(db, new_state)
        self._committed(new_state, main, None)
        return len(current)

    def _rebuild_index(self, db: sqlite3.Connection, reason: str) -> None:
        """Replace damaged vector files by re-embedding the intact texts; the database stays as it is."""
        state, count = read_state(db), _count(db)
        if self._embedder is None or self._embedder[0] != state.embedding_model:
            raise MemoryStoreError(
                f"long-term memory at {self.directory}: its vector index is damaged ({reason}), but its {count} "
                f"summaries are intact: run `autoagent memory reembed` (with the runs' --model) to rebuild it"
            )
        embedding_model, embed = self._embedder
        self._swap_model(db, None, set(), embed, embedding_model)
        logger.warning("long-term memory at %s: %s; its index was rebuilt from the %d stored summaries",
                       self.directory, reason, count)

    def _refuse(self, db: sqlite3.Connection, state: StoreState, model: str, dimension: int) -> NoReturn:
        raise EmbeddingMismatchError(
            f"long-term memory at {self.directory} holds {_count(db)} summaries embedded with "
            f"{state.embedding_model} ({state.dimension}-d), but this run embeds with {model} ({dimension}-d): "
            "run `autoagent memory reembed` (with this run's --model) to re-embed them, or use --no-memory"
        )

    # ---- loaded segments ------------------------------------------------------------------------------------

    def _load(self, state: StoreState) -> None:
        """Bring the loaded segments up to `state`, reading only the files that changed (caller holds the lock)."""
        if state.generation == self._generation:
            return
        dimension = state.dimension or 0
        main = self._main if state.main == self._main_file else state.main and segments.load(
            self.directory, state.main, dimension)
        delta = self._delta if state.delta == self._delta_file else state.delta and segments.load(
            self.directory, state.delta, dimension)
        self._loaded(state, main, delta)

    def _loaded(self, state: StoreState, main: Any, delta: Any) -> None:
        self._main, self._main_file, self._delta, self._delta_file = main, state.main, delta, state.delta
        self._generation = state.generation

    def _committed(self, state: StoreState, main: Any, delta: Any) -> None:
        """Adopt what a commit made current and remove the files it superseded (caller holds the lock)."""
        self._loaded(state, main, delta)
        self._files.collect_garbage({segment.name for segment in (state.main, state.delta) if segment})

    def _forget_loaded(self) -> None:
        self._main = self._delta = None
        self._main_file = self._delta_file = None
        self._generation = -1


def _count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])


def _row_id(entry_id: str) -> int | None:
    """An entry id as its row id; None when it is no id at all."""
    text = str(entry_id).strip()
    return int(text) if text.isdigit() else None
