"""MemoryEntry: one summarised past run, as stored and as recalled."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from langchain_core.documents import Document

from ..redact import Redactor
from ..text import encodable


def utc_now() -> str:
    """The current time as an ISO 8601 UTC timestamp, to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class MemoryEntry:
    """A past run's summary with what identifies it: run id, time, task, outcome and model."""

    task: str
    summary: str
    outcome: str
    model: str
    run_id: str
    created: str = field(default_factory=utc_now)
    extra: dict[str, Any] = field(default_factory=dict)
    id: str = ""  # assigned by the store

    def redacted(self, redactor: Redactor) -> MemoryEntry:
        """This entry with secrets replaced in its texts, which are made encodable too (a lone surrogate as U+FFFD)."""
        return replace(self, task=encodable(redactor.text(self.task)), summary=encodable(redactor.text(self.summary)),
                       extra=redactor.record(self.extra))

    def embedding_text(self) -> str:
        """What is embedded: the task and its summary (measured to separate related tasks best)."""
        return f"{self.task}\n{self.summary}"

    def metadata(self) -> dict[str, Any]:
        """Everything but the summary, for a LangChain Document."""
        meta = {"run_id": self.run_id, "created": self.created, "task": self.task, "outcome": self.outcome,
                "model": self.model, **self.extra}
        return {"id": self.id, **meta} if self.id else meta

    def to_document(self, score: float | None = None) -> Document:
        """The summary as a Document whose metadata holds the rest (and the similarity score, if given)."""
        metadata = self.metadata() if score is None else {**self.metadata(), "score": round(score, 4)}
        return Document(page_content=self.summary, metadata=metadata, id=self.id or None)
