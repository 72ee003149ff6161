"""The persistent store: add, search, forget, clear, the delta → graph move, model records, privacy, no pickle."""

from __future__ import annotations

import stat
from pathlib import Path

import numpy as np
import pytest

from autoagent.memory import segments
from autoagent.memory.errors import EmbeddingMismatchError
from autoagent.memory.store import MemoryStore, default_memory_dir

from .test_memory_support import HASH_MODEL, HashingEmbeddings, entry, hash_vector

TASKS = [
    "convert 100 usd to eur with rate 0.92 and save it to rates.txt",
    "what day of the week is christmas 2025",
    "list the files in the workspace and delete the empty ones",
    "write a haiku about autumn into poem.txt",
]


def filled(directory: Path, tasks: list[str] = TASKS) -> MemoryStore:
    store = MemoryStore(directory)
    for task in tasks:
        store.add(entry(task), hash_vector(task), HASH_MODEL)
    return store


def unit(rng: np.random.Generator, n: int, d: int = 16) -> np.ndarray:
    matrix = rng.standard_normal((n, d)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def test_the_store_lives_under_autoagent_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_HOME", str(tmp_path / "home"))
    store = MemoryStore()
    store.add(entry("a task"), hash_vector("a task"), HASH_MODEL)
    assert store.directory == default_memory_dir() == tmp_path / "home" / "memory"
    assert (tmp_path / "home" / "memory" / "memory.sqlite3").is_file()


def test_search_ranks_by_similarity_and_returns_entries_with_metadata(tmp_path: Path) -> None:
    store = filled(tmp_path / "memory")
    hits = store.search(hash_vector("convert 250 usd to eur and save to rates.txt"), 2, HASH_MODEL)
    assert hits[0][0].task == TASKS[0]
    assert hits[0][1] > hits[1][1]
    first = hits[0][0]
    assert (first.outcome, first.model, first.id) == ("finished", "scripted", "1")
    assert first.created.endswith("+00:00") and len(first.run_id) == 12
    assert store.count() == 4 and store.embedding_record() == (HASH_MODEL, 256)


def test_a_second_instance_sees_new_entries_without_reopening(tmp_path: Path) -> None:
    reader = filled(tmp_path / "memory", TASKS[:1])
    assert len(reader.search(hash_vector(TASKS[1]), 5, HASH_MODEL)) == 1
    MemoryStore(tmp_path / "memory").add(entry(TASKS[1]), hash_vector(TASKS[1]), HASH_MODEL)
    hits = reader.search(hash_vector(TASKS[1]), 1, HASH_MODEL)
    assert hits[0][0].task == TASKS[1] and hits[0][1] == pytest.approx(1.0)


def test_entries_get_forget_and_clear(tmp_path: Path) -> None:
    store = filled(tmp_path / "memory")
    assert [e.id for e in store.entries()] == ["4", "3", "2", "1"]
    assert [e.id for e in store.entries(limit=2)] == ["4", "3"]
    assert store.get("2") is not None and store.get("2").task == TASKS[1]  # type: ignore[union-attr]
    assert store.get("99") is None and store.get("nonsense") is None
    assert store.forget("2") and not store.forget("2") and not store.forget("x")
    assert all(hit.id != "2" for hit, _ in store.search(hash_vector(TASKS[1]), 4, HASH_MODEL))
    assert store.clear() == 3
    assert store.count() == 0 and store.embedding_record() is None
    assert store.search(hash_vector(TASKS[0]), 3, HASH_MODEL) == []
    assert sorted(p.suffix for p in (tmp_path / "memory").iterdir() if p.suffix == ".faiss") == []


def test_ids_are_never_reused(tmp_path: Path) -> None:
    store = filled(tmp_path / "memory", TASKS[:2])
    store.forget("2")
    assert store.add(entry(TASKS[2]), hash_vector(TASKS[2]), HASH_MODEL) == "3"


def test_a_full_delta_moves_into_the_graph_by_insertion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "DELTA_LIMIT", 8)
    rng = np.random.default_rng(0)
    vectors = unit(rng, 20)
    store = MemoryStore(tmp_path / "memory")
    for i, vector in enumerate(vectors):
        store.add(entry(f"task {i}"), vector, "random")
    files = sorted(p.name for p in (tmp_path / "memory").glob("*.faiss"))
    assert len(files) == 2 and files[0].startswith("delta-") and files[1].startswith("main-")
    main_name = files[1]
    store.add(entry("task 20"), unit(rng, 1)[0], "random")  # one more add rewrites only the delta
    assert main_name in {p.name for p in (tmp_path / "memory").glob("*.faiss")}
    fresh = MemoryStore(tmp_path / "memory")
    for i in (0, 7, 8, 19):  # in the graph and in the delta
        hit, score = fresh.search(vectors[i], 1, "random")[0]
        assert hit.task == f"task {i}" and score == pytest.approx(1.0, abs=1e-5)


def test_forgotten_vectors_in_the_graph_never_come_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "DELTA_LIMIT", 4)
    rng = np.random.default_rng(1)
    base = unit(rng, 1)[0]
    near = [base + 0.05 * v for v in unit(rng, 6)]  # six near-duplicates: all in the query's neighbourhood
    store = MemoryStore(tmp_path / "memory")
    store.add_many([entry(f"near {i}") for i in range(6)], near, "random")
    for entry_id in ("1", "2", "3"):
        assert store.forget(entry_id)
    hits = store.search(base, 3, "random")
    assert sorted(hit.task for hit, _ in hits) == ["near 3", "near 4", "near 5"]


def test_another_embedding_model_is_refused_until_reembedded(tmp_path: Path) -> None:
    store = filled(tmp_path / "memory")
    other = HashingEmbeddings(dimension=64)
    with pytest.raises(EmbeddingMismatchError) as raised:
        store.search(other.embed_query("usd"), 3, "hash:other-64")
    message = str(raised.value)
    assert HASH_MODEL in message and "hash:other-64" in message and "256-d" in message and "64-d" in message
    assert "autoagent memory reembed" in message and "--no-memory" in message
    with pytest.raises(EmbeddingMismatchError):
        store.add(entry("new"), other.embed_query("new"), "hash:other-64")
    with pytest.raises(EmbeddingMismatchError):  # the same name with another dimension is refused too
        store.search(other.embed_query("usd"), 3, HASH_MODEL)
    assert store.count() == 4

    assert store.reembed(other.embed_documents, "hash:other-64") == 4
    assert store.embedding_record() == ("hash:other-64", 64)
    hits = store.search(other.embed_query(TASKS[3]), 1, "hash:other-64")
    assert hits[0][0].task == TASKS[3]


def test_an_empty_store_adopts_a_new_embedding_model(tmp_path: Path) -> None:
    store = filled(tmp_path / "memory", TASKS[:1])
    store.forget("1")
    assert store.search([1.0, 0.0, 0.0], 3, "tiny") == []
    store.add(entry("fresh"), [1.0, 0.0, 0.0], "tiny")
    assert store.embedding_record() == ("tiny", 3)


def test_the_store_is_private_and_holds_no_pickle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "DELTA_LIMIT", 3)
    store = filled(tmp_path / "memory")  # four entries: a graph and a delta
    directory = tmp_path / "memory"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((directory / "memory.sqlite3").stat().st_mode) == 0o600
    files = [p for p in directory.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} <= {".sqlite3", ".faiss", ".sqlite3-wal", ".sqlite3-shm"}
    assert len([p for p in files if p.suffix == ".faiss"]) == 2
    for path in files:
        head = path.read_bytes()[:2]
        assert not (head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")), f"pickle in {path}"
    store.close()


def test_bad_vectors_are_rejected(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "memory")
    with pytest.raises(ValueError):
        store.add(entry("nan"), [float("nan"), 1.0], "m")
    with pytest.raises(ValueError):
        store.add_many([entry("a"), entry("b")], [[1.0, 0.0]], "m")
    assert store.count() == 0


def test_every_entry_is_found_even_when_the_graph_leaves_it_unlinked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Near-duplicate task texts make HNSW link new nodes only to one hub, so some nodes have no
    # incoming link and a graph search can never reach them; small graphs are searched exactly.
    monkeypatch.setattr(segments, "DELTA_LIMIT", 5)
    store = MemoryStore(tmp_path / "memory")
    tasks = [f"round {r} task {n}" for r in range(3) for n in range(90)]
    for task in tasks:
        store.add(entry(task), hash_vector(task), HASH_MODEL)
    assert store._main is not None and store._main.ntotal >= 265  # most entries sit in the graph
    missing = [task for task in tasks
               if not any(score > 0.999 for _, score in store.search(hash_vector(task), 3, HASH_MODEL))]
    assert missing == []
