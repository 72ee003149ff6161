"""LongTermMemory: each run summarised by the model and stored; similar past runs recalled for a new task."""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever

from ..errors import AutoAgentError, ModelUnavailableError
from ..llm import describe_model_error
from ..prompts import PromptTemplateBuilder, english_prompts
from ..redact import Redactor
from ..steps import RunResult
from ..text import encodable
from .entries import MemoryEntry
from .store import MemoryStore
from .summary import summarize_run

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.vectorstores import VectorStore

logger = logging.getLogger("autoagent")

DEFAULT_K = 3
# Cosine similarity a past run must reach to be recalled, by embedding family. The local value was set
# on a labelled set (tests/test_memory_local_slow.py): related pairs scored 0.73-0.92, unrelated 0.54-0.64.
# The OpenAI value is not measured here (no network): it sits above the usual cosine of unrelated texts.
MIN_SCORES = {"local": 0.68, "openai": 0.35}
DEFAULT_MIN_SCORE = MIN_SCORES["openai"]


def default_min_score(embedding_model: str) -> float:
    """The recall threshold for an embedding model id such as `local:...` or `openai:...`."""
    return MIN_SCORES.get(embedding_model.partition(":")[0], DEFAULT_MIN_SCORE)


class MemoryBackend(Protocol):
    """Where summaries are kept: the local store, or any LangChain vector store."""

    def add(self, entry: MemoryEntry) -> str:
        """Store an entry and return its id."""
        ...

    def search(self, text: str, k: int) -> list[tuple[Document, float]]:
        """The k most similar entries as Documents, with their relevance (cosine similarity), best first."""
        ...


class LocalBackend:
    """The persistent faiss + SQLite store under $AUTOAGENT_HOME/memory, with an embedding model."""

    def __init__(self, store: MemoryStore, embeddings: Embeddings, embedding_model: str) -> None:
        self.store = store
        self.embeddings = embeddings
        self.embedding_model = embedding_model
        store.rebuild_with(self._embed_documents, embedding_model)

    def _embed_documents(self, texts: list[str]) -> list[list[float]]:
        with embedding_errors():
            return self.embeddings.embed_documents(texts)

    def add(self, entry: MemoryEntry) -> str:
        """Embed the entry's task and summary, then store it."""
        with embedding_errors():
            vector = self.embeddings.embed_documents([entry.embedding_text()])[0]
        return self.store.add(entry, vector, self.embedding_model)

    def search(self, text: str, k: int) -> list[tuple[Document, float]]:
        """Nearest stored entries; an empty store answers without loading the embedding model."""
        if self.store.embedding_record() is None:
            return []
        with embedding_errors():
            vector = self.embeddings.embed_query(text)
        hits = self.store.search(vector, k, self.embedding_model)
        return [(entry.to_document(score), score) for entry, score in hits]


@contextlib.contextmanager
def embedding_errors() -> Iterator[None]:
    """An embedding backend's failure (server down, no key) as ModelUnavailableError."""
    try:
        yield
    except AutoAgentError:
        raise
    except Exception as err:
        raise ModelUnavailableError(f"embedding failed: {describe_model_error(err)}") from err


class LongTermMemory:
    """Summaries of past runs: `remember` one at the end of a run, `recall` the relevant ones for a task."""

    def __init__(self, backend: MemoryBackend, *, k: int = DEFAULT_K, min_score: float = DEFAULT_MIN_SCORE,
                 prompts: PromptTemplateBuilder | None = None) -> None:
        self.backend = backend
        self.k = k
        self.min_score = min_score
        self.prompts = prompts or english_prompts()

    @classmethod
    def open(cls, spec: str | None = None, *, base_url: str | None = None, directory: Path | None = None,
             k: int = DEFAULT_K, min_score: float | None = None,
             prompts: PromptTemplateBuilder | None = None) -> LongTermMemory:
        """The user's persistent memory, embedding with the model a chat-model spec implies."""
        from ..llm.embeddings import embedding_model_id, load_embeddings

        model_id = embedding_model_id(spec)
        backend = LocalBackend(MemoryStore(directory), load_embeddings(spec, base_url=base_url), model_id)
        threshold = default_min_score(model_id) if min_score is None else min_score
        return cls(backend, k=k, min_score=threshold, prompts=prompts)

    @classmethod
    def from_vectorstore(cls, vectorstore: VectorStore, *, k: int = DEFAULT_K, min_score: float | None = None,
                         prompts: PromptTemplateBuilder | None = None) -> LongTermMemory:
        """Memory kept in any LangChain vector store (PGVector, Qdrant, InMemoryVectorStore, ...)."""
        from ..llm.embeddings import LocalLlamaEmbeddings
        from .adapter import VectorStoreBackend

        if min_score is None:
            local = isinstance(vectorstore.embeddings, LocalLlamaEmbeddings)
            min_score = MIN_SCORES["local"] if local else DEFAULT_MIN_SCORE
        return cls(VectorStoreBackend(vectorstore), k=k, min_score=min_score, prompts=prompts)

    def recall(self, task: str) -> list[Document]:
        """Up to k past runs similar to `task`, best first, none below the relevance threshold, each summary once;
        secrets redacted."""
        redactor = Redactor.from_environment()
        recalled: dict[str, Document] = {}  # by summary: runs that went the same way are one memory to the model
        for document, score in self.backend.search(encodable(task), self.k):
            if score >= self.min_score:
                recalled.setdefault(" ".join(document.page_content.split()), _redacted(document, redactor))
        return list(recalled.values())

    def remember(self, result: RunResult, llm: BaseChatModel, model_name: str, *, run_id: str | None = None,
                 outcome: str | None = None) -> str | None:
        """Summarise a run with `llm` and store it; the entry id, or None for a run with nothing to remember."""
        if not result.steps and not result.answer.strip():
            return None
        summary = summarize_run(result, llm, self.prompts, outcome or result.stop_reason.value)
        if not summary:
            logger.warning("the model wrote an empty summary; this run is not remembered")
            return None
        entry = MemoryEntry(
            task=result.task, summary=summary, outcome=outcome or result.stop_reason.value, model=model_name,
            run_id=run_id or result.run_id or uuid.uuid4().hex,  # the transcript's id, when the run has one
            extra={"steps": len(result.steps), "seconds": round(result.seconds, 1)},
        )
        return self.backend.add(entry.redacted(Redactor.from_environment()))  # as transcripts are, in any backend

    def as_retriever(self) -> BaseRetriever:
        """Recall as a LangChain retriever, for AutoGPT(memory_retriever=...)."""
        return MemoryRetriever(memory=self)


def _redacted(document: Document, redactor: Redactor) -> Document:
    """A recalled Document with secrets replaced in its content and metadata."""
    return Document(page_content=redactor.text(document.page_content), metadata=redactor.record(document.metadata),
                    id=document.id)


class MemoryRetriever(BaseRetriever):
    """A LangChain retriever over LongTermMemory.recall."""

    memory: Any  # LongTermMemory (Any: pydantic would otherwise try to validate it)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        """The memories recalled for `query`."""
        return list(self.memory.recall(query))
