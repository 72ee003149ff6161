"""Recall with the real local embeddings (mean-pooled Qwen GGUF) on a small labelled set; sets the local threshold."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from autoagent.memory.long_term import MIN_SCORES, LongTermMemory

from .test_memory_support import entry

pytestmark = pytest.mark.slow

PAST = [
    ("Convert 100 USD to EUR with rate 0.92 and save it to rates.txt",
     "The user asked to convert 100 USD to EUR at rate 0.92 and save it. The calculator gave 100 * 0.92 = 92, "
     "and write_file saved '92 EUR' to rates.txt. Finished; answer: 100 USD is 92 EUR, saved in rates.txt."),
    ("What is 1234 * 5678 + 17?", "The task was to compute 1234 * 5678 + 17. The calculator returned 7006669. "
     "Finished; answer: 7006669."),
    ("What day of the week is Christmas 2025?", "Asked which weekday Christmas 2025 falls on. The calendar tool "
     "resolved 2025-12-25 as a Thursday. Finished; answer: Thursday."),
    ("List the files in the workspace and delete the empty ones", "The user wanted empty files removed. list_files "
     "showed a.txt, b.txt (empty), notes.md; delete_file removed b.txt. Finished; answer: deleted b.txt."),
    ("Write a haiku about autumn into poem.txt", "The task was a haiku about autumn saved to poem.txt. The model "
     "wrote the haiku and write_file saved it. Finished; answer: the haiku is in poem.txt."),
    ("How many days until New Year 2026 from today?", "Asked for days until 2026-01-01. current_datetime gave "
     "2025-11-29; the calculator computed 33 days. Finished; answer: 33 days."),
    ("Search notes.md for the word 'budget' and summarise the lines", "The user asked to find 'budget' in "
     "notes.md. search_files found 3 lines about the Q3 budget. Finished; answer: three lines mention 12k."),
    ("Copy report.pdf to the archive folder", "Task: copy report.pdf into archive/. copy_file copied it. "
     "Finished; answer: archive/report.pdf created."),
]
RELATED = [
    ("Convert 250 USD to EUR at 0.92 and write the result to rates.txt", 0),
    ("How much is 50 dollars in euros if the rate is 0.93?", 0),
    ("Compute 999 * 888 + 5", 1),
    ("Which weekday is Christmas Day 2026?", 2),
    ("Remove empty files from my workspace", 3),
    ("Write a short poem about winter and save it to winter.txt", 4),
    ("How many days are left until New Year?", 5),
    ("Find mentions of 'deadline' in todo.md", 6),
    ("Move draft.docx into the backup folder", 7),
]
UNRELATED = [
    "Who won the football world cup in 2018?",
    "Translate 'good morning' into French",
    "What is the capital of Australia?",
    "Explain how photosynthesis works",
    "What is the boiling point of water in Fahrenheit?",
]


@pytest.fixture(scope="module")
def memory(local_weights: Path, tmp_path_factory: pytest.TempPathFactory) -> LongTermMemory:
    memory = LongTermMemory.open(f"local:{local_weights}", directory=tmp_path_factory.mktemp("memory"))
    started = time.perf_counter()
    for task, summary in PAST:
        memory.backend.add(entry(task, summary))
    print(f"\n[measure] {len(PAST)} summaries embedded and stored in {time.perf_counter() - started:.2f} s")
    return memory


def test_local_recall_finds_the_related_run_and_skips_unrelated_ones(memory: LongTermMemory) -> None:
    assert memory.min_score == MIN_SCORES["local"]
    first, related_scores, unrelated_scores = 0, [], []
    for query, label in RELATED:
        hits = memory.backend.search(query, 3)
        right = [score for document, score in hits if document.metadata["task"] == PAST[label][0]]
        print(f"[measure] top {hits[0][1]:.3f}, right one {right[0] if right else float('nan'):.3f}: {query}")
        first += hits[0][0].metadata["task"] == PAST[label][0]
        related_scores.extend(right[:1])
        assert PAST[label][0] in [document.metadata["task"] for document in memory.recall(query)], query
    for query in UNRELATED:
        top = memory.backend.search(query, 1)[0][1]
        print(f"[measure] top {top:.3f} (unrelated): {query}")
        unrelated_scores.append(top)
        assert memory.recall(query) == [], query
    print(f"[measure] right run first on {first}/{len(RELATED)}; its score {min(related_scores):.3f}-"
          f"{max(related_scores):.3f}; unrelated top {min(unrelated_scores):.3f}-{max(unrelated_scores):.3f}; "
          f"threshold {memory.min_score}")
    assert first >= len(RELATED) - 1  # measured 8/9: "days until New Year" ranks the Christmas-weekday run first
