"""Long-term memory store latency against size: `python bench/memory_bench.py [--sizes 1000,10000,100000]`.

Synthetic summaries with random unit vectors (no model needed). For each size the store is bulk-loaded,
then single adds are timed (enough of them to include one move of the delta into the HNSW graph), then
queries through the full search path (state check, faiss, SQLite rows), then the first query of a fresh
process-like instance (which reads and hash-checks the segment files). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from autoagent.memory import segments
from autoagent.memory.entries import MemoryEntry
from autoagent.memory.store import MemoryStore

MODEL = "bench:random"
SUMMARY = ("The user asked to convert an amount between currencies at a given rate and save it to a file. "
           "The calculator multiplied the amount by the rate and write_file saved the result. Finished; "
           "the answer gave the converted amount and the file name. ") * 2


def entries(start: int, count: int) -> list[MemoryEntry]:
    """Synthetic entries numbered from `start`."""
    return [MemoryEntry(task=f"synthetic task {i}", summary=SUMMARY, outcome="finished", model="bench",
                        run_id=f"run-{i}") for i in range(start, start + count)]


def unit(rng: np.random.Generator, count: int, dimension: int) -> np.ndarray:
    """Random unit vectors."""
    matrix = rng.standard_normal((count, dimension)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def ms(seconds: list[float], quantile: float) -> str:
    """A latency quantile in milliseconds."""
    return f"{np.quantile(np.array(seconds), quantile) * 1000:.1f}"


def measure(size: int, dimension: int, adds: int, queries: int, root: Path) -> dict[str, str]:
    """One row of the table."""
    rng = np.random.default_rng(size)
    directory = root / f"memory-{size}"
    store = MemoryStore(directory)
    vectors = unit(rng, size, dimension)
    started = time.perf_counter()
    store.add_many(entries(0, size), vectors, MODEL)
    bulk = time.perf_counter() - started
    print(f"{size}: bulk-loaded in {bulk:.1f} s", file=sys.stderr, flush=True)

    add_times = []
    for i, vector in enumerate(unit(rng, adds, dimension)):
        started = time.perf_counter()
        store.add(entries(size + i, 1)[0], vector, MODEL)
        add_times.append(time.perf_counter() - started)
    print(f"{size}: {adds} adds, mean {statistics.mean(add_times) * 1000:.1f} ms", file=sys.stderr, flush=True)

    targets = rng.integers(0, size, queries)
    noisy = vectors[targets] + 0.3 / np.sqrt(dimension) * rng.standard_normal((queries, dimension))
    fresh = MemoryStore(directory)
    started = time.perf_counter()
    fresh.search(noisy[0], 3, MODEL)
    cold = time.perf_counter() - started
    query_times, found = [], 0
    for target, query in zip(targets, noisy, strict=True):
        started = time.perf_counter()
        hits = store.search(query, 3, MODEL)
        query_times.append(time.perf_counter() - started)
        found += hits[0][0].id == str(target + 1)
    disk = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
    return {
        "entries": f"{size:,}", "bulk load s": f"{bulk:.1f}",
        "add p50 ms": ms(add_times, 0.5), "add p99 ms": ms(add_times, 0.99),
        "add max ms (graph insert)": ms(add_times, 1.0), "add mean ms": f"{statistics.mean(add_times) * 1000:.1f}",
        "query p50 ms": ms(query_times, 0.5), "query p95 ms": ms(query_times, 0.95),
        "recall@1": f"{found / queries:.3f}", "first query, fresh instance s": f"{cold:.2f}", "disk MB": f"{disk:.0f}",
    }


def main() -> None:
    """Run the sizes and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated store sizes")
    parser.add_argument("--dimension", type=int, default=896, help="vector size (896: the local Qwen embeddings)")
    parser.add_argument("--adds", type=int, default=segments.DELTA_LIMIT + 76,
                        help="single adds to time (default: enough to include one graph insert)")
    parser.add_argument("--queries", type=int, default=500, help="queries to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memory-bench-") as root:
        rows = [measure(int(size), args.dimension, args.adds, args.queries, Path(root))
                for size in args.sizes.split(",")]
    print(f"Dimension {args.dimension}, k=3, HNSW M={segments.HNSW_NEIGHBOURS} efConstruction="
          f"{segments.HNSW_EF_CONSTRUCTION} efSearch={segments.HNSW_EF_SEARCH}, delta limit {segments.DELTA_LIMIT}.\n")
    print("| " + " | ".join(rows[0]) + " |")
    print("|" + "---:|" * len(rows[0]))
    for row in rows:
        print("| " + " | ".join(row.values()) + " |")


if __name__ == "__main__":
    main()
