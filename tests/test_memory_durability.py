"""Separate processes: persistence, kill -9 mid-write, concurrent writers; damaged stores are moved aside,
damaged index files rebuilt from the stored texts."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from filelock import FileLock

from autoagent.memory import segments
from autoagent.memory.database import DATABASE, read_state
from autoagent.memory.errors import MemoryStoreCorruptError, MemoryStoreError
from autoagent.memory.long_term import LocalBackend
from autoagent.memory.store import MemoryStore

from .test_memory_support import HASH_MODEL, HashingEmbeddings, entry, hash_vector

REPO = Path(__file__).resolve().parent.parent

# A child process: `add DIR NAME COUNT [PAUSE]` stores COUNT entries (printing each id once committed) and,
# with PAUSE, then starts one more add that stops at that point; `search DIR TEXT` prints the hits as JSON.
WORKER = r"""
import json, os, sys, tempfile, time
from autoagent.memory import segments, store as store_module
from autoagent.memory.store import MemoryStore
from tests.test_memory_support import HASH_MODEL, entry, hash_vector

segments.DELTA_LIMIT = int(os.environ.get("DELTA_LIMIT", segments.DELTA_LIMIT))
command, directory = sys.argv[1], sys.argv[2]
store = MemoryStore(directory)

def pause(*_args):
    print("PAUSED", flush=True)
    time.sleep(60)

if command == "search":
    hits = store.search(hash_vector(sys.argv[3]), 3, HASH_MODEL)
    print(json.dumps([[hit.task, hit.id, hit.run_id, score] for hit, score in hits]))
    sys.exit()
name, count = sys.argv[3], int(sys.argv[4])
for i in range(count):
    task = f"{name} task {i}"
    print(store.add(entry(task), hash_vector(task), HASH_MODEL), task, flush=True)
if len(sys.argv) > 5:
    if sys.argv[5] == "segment":  # killed while the new segment file is half written
        def half_written(path, data):
            handle, _ = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            os.write(handle, data[: len(data) // 2])
            pause()
        segments.write_atomically = half_written
    else:  # "commit": the segment is written, the transaction is open
        real_write_state = store_module.write_state
        store_module.write_state = lambda db, state: (real_write_state(db, state), pause())
    store.add(entry(f"{name} unfinished"), hash_vector(f"{name} unfinished"), HASH_MODEL)
"""


def worker(*args: object, delta_limit: int | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if delta_limit is not None:
        env["DELTA_LIMIT"] = str(delta_limit)
    return subprocess.Popen([sys.executable, "-c", WORKER, *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def finish(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def test_memories_persist_across_processes(tmp_path: Path) -> None:
    directory = str(tmp_path / "memory")
    finish(worker("add", directory, "usd to eur", 2))
    hits = json.loads(finish(worker("search", directory, "usd to eur task 1")))
    assert hits[0][0] == "usd to eur task 1" and hits[0][1] == "2" and hits[0][3] == pytest.approx(1.0)
    assert hits[0][2] == entry("usd to eur task 1").run_id


@pytest.mark.parametrize(("pause_at", "delta_limit"), [("segment", None), ("commit", None), ("commit", 4)])
def test_kill_9_during_a_write_leaves_the_previous_store(tmp_path: Path, pause_at: str,
                                                         delta_limit: int | None) -> None:
    directory = tmp_path / "memory"
    process = worker("add", str(directory), "before", 3, pause_at, delta_limit=delta_limit)
    assert process.stdout is not None
    lines = [process.stdout.readline().strip() for _ in range(4)]
    assert lines[-1] == "PAUSED", lines  # with delta_limit=4 the unfinished add was moving the delta into the graph
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)

    store = MemoryStore(directory)
    assert sorted(e.task for e in store.entries()) == ["before task 0", "before task 1", "before task 2"]
    for i in range(3):
        assert store.search(hash_vector(f"before task {i}"), 1, HASH_MODEL)[0][0].task == f"before task {i}"
    store.add(entry("after"), hash_vector("after"), HASH_MODEL)
    assert store.search(hash_vector("after"), 1, HASH_MODEL)[0][0].task == "after"
    leftovers = [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == [] and len(list(directory.glob("*.faiss"))) == 1


def test_kill_9_at_random_moments_loses_no_committed_entry(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    confirmed: list[str] = []
    for round_number in range(3):
        process = worker("add", str(directory), f"round {round_number}", 10_000, delta_limit=5)
        assert process.stdout is not None
        first = process.stdout.readline()  # it is writing in a loop now
        time.sleep(0.05 + 0.15 * round_number)
        os.kill(process.pid, signal.SIGKILL)
        rest, _ = process.communicate(timeout=30)
        # Only whole lines count: print's pieces can reach the pipe apart, and the kill can fall between them.
        whole = (first + rest).split("\n")[:-1]
        confirmed += [line.split(" ", 1)[1] for line in whole if " " in line]
        store = MemoryStore(directory)
        ids = {e.task: int(e.id) for e in store.entries()}
        assert set(confirmed) <= set(ids) and len(ids) <= len(confirmed) + round_number + 1
        vectors = committed_vectors(directory)
        assert sorted(vectors) == sorted(ids.values())  # every entry has its vector, no vector lacks its entry
        for task in confirmed:
            assert float(vectors[ids[task]] @ segments.unit_rows(hash_vector(task))[0]) == pytest.approx(1.0, abs=1e-5)
        # Not "finds each entry": on these bag-of-words vectors the HNSW graph leaves some nodes unreachable.
        assert store.search(hash_vector(confirmed[-1]), 3, HASH_MODEL)


def committed_vectors(directory: Path) -> dict[int, np.ndarray]:
    """Every vector in the store's committed segments (checked against their records), by entry id."""
    with contextlib.closing(sqlite3.connect(directory / DATABASE)) as db:
        state = read_state(db)
    found: dict[int, np.ndarray] = {}
    for segment in (state.main, state.delta):
        if segment is not None:
            ids, vectors = segments.contents(segments.load(directory, segment, state.dimension or 0))
            found.update(zip(ids.tolist(), vectors, strict=True))
    return found


def test_concurrent_writer_processes_lose_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    writers = [worker("add", str(directory), f"writer{n}", 12, delta_limit=10) for n in range(4)]
    outputs = [finish(process) for process in writers]
    ids = [line.split(" ", 1)[0] for out in outputs for line in out.splitlines()]
    assert len(ids) == 48 and len(set(ids)) == 48
    store = MemoryStore(directory)
    assert store.count() == 48
    for n in range(4):
        for i in range(12):
            task = f"writer{n} task {i}"
            hit, score = store.search(hash_vector(task), 1, HASH_MODEL)[0]
            assert hit.task == task and score == pytest.approx(1.0, abs=1e-5)


def filled(directory: Path) -> MemoryStore:
    store = MemoryStore(directory)
    for task in ("usd to eur", "christmas weekday", "haiku", "delete empty files"):
        store.add(entry(task), hash_vector(task), HASH_MODEL)
    store.close()
    return store


def damage_database(directory: Path) -> None:
    (directory / "memory.sqlite3").write_bytes(b"this is not a database " * 200)


def empty_database(directory: Path) -> None:
    (directory / "memory.sqlite3").write_bytes(b"")  # SQLite would take it for a new store


def damage_segment(directory: Path) -> None:
    segment = next(directory.glob("*.faiss"))
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0xFF
    segment.write_bytes(bytes(data))


def remove_segment(directory: Path) -> None:
    next(directory.glob("*.faiss")).unlink()


def garble_state(directory: Path) -> None:
    with sqlite3.connect(directory / "memory.sqlite3") as db:
        db.execute("UPDATE meta SET value = '{\"generation\": ' WHERE key = 'state'")


@pytest.mark.parametrize("damage", [damage_database, empty_database, garble_state])
def test_a_damaged_store_is_moved_aside_and_reported(tmp_path: Path, damage: object) -> None:
    directory = tmp_path / "memory"
    filled(directory)
    damage(directory)  # type: ignore[operator]
    original = sorted(p.name for p in directory.iterdir())

    store = MemoryStore(directory)
    with pytest.raises(MemoryStoreCorruptError) as raised:
        store.search(hash_vector("usd to eur"), 3, HASH_MODEL)
    aside = raised.value.moved_to
    assert aside is not None and aside.parent == tmp_path and aside.name.startswith("memory.damaged-")
    assert str(directory) in str(raised.value) and str(aside) in str(raised.value)
    assert sorted(p.name for p in aside.iterdir()) == original  # moved, nothing deleted
    if damage not in (damage_database, empty_database):  # the summaries stay readable there
        with sqlite3.connect(aside / "memory.sqlite3") as db:
            assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 4

    assert store.count() == 0  # a fresh store starts
    store.add(entry("new"), hash_vector("new"), HASH_MODEL)
    assert [hit.task for hit, _ in store.search(hash_vector("new"), 3, HASH_MODEL)] == ["new"]


@pytest.mark.parametrize("damage", [damage_segment, remove_segment])
def test_damaged_index_files_are_rebuilt_from_the_stored_texts(tmp_path: Path, damage: object,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    directory = tmp_path / "memory"
    filled(directory)
    damage(directory)  # type: ignore[operator]
    embeddings = HashingEmbeddings()
    backend = LocalBackend(MemoryStore(directory), embeddings, HASH_MODEL)

    with caplog.at_level(logging.WARNING, logger="autoagent"):
        hits = backend.search("usd to eur", 4)
    assert "usd to eur" in hits[0][0].page_content
    assert len(hits) == 4 and embeddings.calls == 5  # four summaries re-embedded, then the query
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == 1 and "rebuilt from the 4 stored summaries" in warnings[0]
    assert str(directory) in warnings[0] and "faiss" in warnings[0]
    assert not any(p.name.startswith("memory.damaged") for p in tmp_path.iterdir())  # nothing moved aside
    backend.search("haiku", 1)
    assert embeddings.calls == 6  # rebuilt once, kept
    assert MemoryStore(directory).count() == 4


def test_damaged_index_files_without_the_embedding_model_are_an_error_not_moved(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    filled(directory)
    damage_segment(directory)
    store = MemoryStore(directory)  # e.g. `autoagent doctor`: no embedding model to rebuild with
    with pytest.raises(MemoryStoreError, match="4 summaries are intact: run `autoagent memory reembed`") as raised:
        store.search(hash_vector("usd to eur"), 3, HASH_MODEL)
    assert not isinstance(raised.value, MemoryStoreCorruptError)
    assert not any(p.name.startswith("memory.damaged") for p in tmp_path.iterdir())
    assert store.reembed(HashingEmbeddings().embed_documents, HASH_MODEL) == 4
    assert [hit.task for hit, _ in store.search(hash_vector("haiku"), 1, HASH_MODEL)] == ["haiku"]


def test_a_locked_store_is_an_error_but_not_damage(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    filled(directory)
    holder = FileLock(tmp_path / "memory.lock")
    with holder:
        store = MemoryStore(directory, lock_timeout=0.2)
        with pytest.raises(MemoryStoreError, match="stayed locked") as raised:
            store.add(entry("blocked"), hash_vector("blocked"), HASH_MODEL)
        assert not isinstance(raised.value, MemoryStoreCorruptError)
        assert store.count() == 4  # reading needs no lock
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("memory.damaged")] == []


def test_an_unreadable_directory_is_an_error_but_not_damage(tmp_path: Path) -> None:
    blocker = tmp_path / "home"
    blocker.write_text("a file where the directory should be")
    with pytest.raises(MemoryStoreError, match="cannot be opened") as raised:
        MemoryStore(blocker / "memory").count()
    assert not isinstance(raised.value, MemoryStoreCorruptError)
    assert blocker.read_text() == "a file where the directory should be"
