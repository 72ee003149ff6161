"""Helpers for the memory tests (no tests here): a bag-of-words embedding and run records."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from autoagent.memory.entries import MemoryEntry
from autoagent.memory.long_term import LocalBackend, LongTermMemory
from autoagent.memory.store import MemoryStore
from autoagent.reply import ThoughtActionParser
from autoagent.steps import RunResult, Step, StepKind, StopReason

HASH_MODEL = "hash:bag-of-words-256"
HASH_MIN_SCORE = 0.3


class HashingEmbeddings(Embeddings):
    """Deterministic embeddings where texts sharing words are similar: hashed, signed word counts."""

    def __init__(self, dimension: int = 256) -> None:
        self.dimension = dimension
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += len(texts)
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def _embed(self, text: str) -> list[float]:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            digest = hashlib.sha256(word.encode()).digest()
            vector[int.from_bytes(digest[:4], "little") % self.dimension] += 1.0 if digest[4] % 2 else -1.0
        norm = float(np.linalg.norm(vector))
        return (vector / norm if norm else vector).tolist()


def hash_vector(text: str) -> list[float]:
    """The HashingEmbeddings vector of one text."""
    return HashingEmbeddings().embed_query(text)


def entry(task: str, summary: str | None = None, outcome: str = "finished") -> MemoryEntry:
    """A stored-run record for `task`."""
    return MemoryEntry(task=task, summary=summary or f"Did: {task}.", outcome=outcome, model="scripted",
                       run_id=hashlib.sha1(task.encode()).hexdigest()[:12])


def local_memory(directory: Path, embeddings: Embeddings | None = None) -> LongTermMemory:
    """A LongTermMemory on a store in `directory` with the hashing embeddings."""
    backend = LocalBackend(MemoryStore(directory), embeddings or HashingEmbeddings(), HASH_MODEL)
    return LongTermMemory(backend, min_score=HASH_MIN_SCORE)


def act_reply(name: str, thought: str = "working", **args: object) -> str:
    """A compact Thought/Action reply."""
    return json.dumps({"thought": thought, "action": {"name": name, "args": args}})


def step(number: int, name: str, observation: str, thought: str = "working", **args: object) -> Step:
    """An ACTION step that ran `name` and observed `observation`."""
    reply = act_reply(name, thought, **args)
    return Step(number, StepKind.ACTION, reply, ThoughtActionParser().parse(reply), observation)


def run_result(task: str, answer: str, stop: StopReason = StopReason.FINISHED, steps: list[Step] | None = None,
               ) -> RunResult:
    """A RunResult as the agent would return it."""
    return RunResult(task=task, answer=answer, stop_reason=stop, steps=steps or [], seconds=1.25)
