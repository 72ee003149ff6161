"""Vector segments on disk: faiss indexes in faiss's own format, written atomically and checked by SHA-256.

A store holds at most two segments. New vectors go to a small exact `delta` (a flat index, rewritten
on each add); when it reaches DELTA_LIMIT vectors they move into the `main` HNSW graph, which grows
by insertion and is never rebuilt. Vector ids are the SQLite row ids of the entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import faiss
import numpy as np

DELTA_LIMIT = 1024  # vectors in the flat delta before they move into the HNSW graph
HNSW_NEIGHBOURS = 32  # M: graph degree; recall and memory both grow with it
HNSW_EF_CONSTRUCTION = 64
HNSW_EF_SEARCH = 128  # measured at 100k random 896-d vectors: recall@1 0.958 at 64, 0.998 at 128 (2.5 ms)


class SegmentDamagedError(Exception):
    """A segment file is missing, altered or not the index it claims to be."""


@dataclass(frozen=True)
class SegmentFile:
    """A segment's file name, content hash and vector count, as committed in the store's metadata."""

    name: str
    sha256: str
    count: int

    def to_json(self) -> dict[str, Any]:
        """The record kept in the metadata database."""
        return {"name": self.name, "sha256": self.sha256, "count": self.count}

    @classmethod
    def from_json(cls, record: Any) -> SegmentFile | None:
        """The segment a metadata record names (None for no segment); ValueError when malformed."""
        if record is None:
            return None
        if not isinstance(record, dict) or not isinstance(record.get("name"), str) or "/" in record["name"]:
            raise ValueError(f"bad segment record {record!r}")
        return cls(str(record["name"]), str(record["sha256"]), int(record["count"]))


EXACT_SEARCH_UP_TO = 20_000  # exact flat search stays under ~5 ms per query up to here on 2 cores


def new_delta(dimension: int) -> Any:
    """An empty exact inner-product index with explicit ids."""
    return faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))


def new_main(dimension: int) -> Any:
    """An empty HNSW inner-product index with explicit ids: sub-millisecond queries at 100k vectors."""
    graph = faiss.IndexHNSWFlat(dimension, HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
    graph.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    graph.hnsw.efSearch = HNSW_EF_SEARCH
    return faiss.IndexIDMap2(graph)


def unit_rows(vectors: Any, dimension: int | None = None) -> np.ndarray:
    """Vectors as a float32 matrix of unit rows, so inner product is cosine similarity."""
    matrix = np.array(vectors, dtype=np.float32, ndmin=2)
    if matrix.ndim != 2 or matrix.shape[1] == 0 or (dimension is not None and matrix.shape[1] != dimension):
        raise ValueError(f"expected vectors of dimension {dimension or 'd'}, got shape {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise ValueError("embedding vectors contain NaN or infinity")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.ascontiguousarray(matrix / np.maximum(norms, 1e-12))


def search(index: Any, query: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The (id, cosine) pairs of the k nearest vectors in one index. A graph of up to EXACT_SEARCH_UP_TO
    vectors is searched exactly through its flat storage: HNSW can leave a node that no other node links
    to (seen with near-duplicate tasks), and such an entry would never be recalled."""
    if index.ntotal == 0 or k <= 0:
        return []
    inner = faiss.downcast_index(index.index)
    with _one_thread():
        if isinstance(inner, faiss.IndexHNSW) and index.ntotal <= EXACT_SEARCH_UP_TO:
            scores, rows = faiss.downcast_index(inner.storage).search(query, min(k, index.ntotal))
            id_map = faiss.vector_to_array(index.id_map)
            ids = np.where(rows >= 0, id_map[np.maximum(rows, 0)], -1)
        else:
            scores, ids = index.search(query, min(k, index.ntotal))
    return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """Run faiss on one thread: one query gains nothing from more, and waiting for a busy core cost ~8 ms."""
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(threads)


def contents(index: Any) -> tuple[np.ndarray, np.ndarray]:
    """The ids and vectors held by an id-mapped flat index."""
    ids = faiss.vector_to_array(index.id_map).astype(np.int64)
    vectors = index.index.reconstruct_n(0, index.ntotal) if index.ntotal else np.empty((0, index.d), np.float32)
    return ids, vectors


def save(index: Any, directory: Path, name: str) -> SegmentFile:
    """Write an index under `name` atomically and return its committed record."""
    data = faiss.serialize_index(index).tobytes()
    write_atomically(directory / name, data)
    return SegmentFile(name, hashlib.sha256(data).hexdigest(), int(index.ntotal))


def load(directory: Path, segment: SegmentFile, dimension: int) -> Any:
    """Read a segment, refusing one whose bytes, dimension, count or kind differ from its record."""
    try:
        data = (directory / segment.name).read_bytes()
    except OSError as exc:
        raise SegmentDamagedError(f"segment {segment.name} cannot be read: {exc.strerror or exc}") from exc
    if hashlib.sha256(data).hexdigest() != segment.sha256:
        raise SegmentDamagedError(f"segment {segment.name} was altered (its SHA-256 does not match the record)")
    try:
        index = faiss.deserialize_index(np.frombuffer(data, dtype=np.uint8))
    except RuntimeError as exc:
        raise SegmentDamagedError(f"segment {segment.name} is not a faiss index: {exc}") from exc
    if not isinstance(index, faiss.IndexIDMap2) or index.metric_type != faiss.METRIC_INNER_PRODUCT:
        raise SegmentDamagedError(f"segment {segment.name} is not an id-mapped inner-product index")
    if index.d != dimension or index.ntotal != segment.count:
        raise SegmentDamagedError(
            f"segment {segment.name} holds {index.ntotal} vectors of dimension {index.d}, "
            f"the record says {segment.count} of dimension {dimension}"
        )
    inner = faiss.downcast_index(index.index)
    if isinstance(inner, faiss.IndexHNSW):
        inner.hnsw.efSearch = HNSW_EF_SEARCH
    return index


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a synced temp file and a rename: readers see the old file or the new one."""
    descriptor, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    sync_directory(path.parent)


def sync_directory(directory: Path) -> None:
    """Make a rename in `directory` durable."""
    with contextlib.suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
