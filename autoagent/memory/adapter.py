"""Long-term memory in any LangChain vector store: a server-backed one (PGVector, Qdrant) for a team."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from langchain_core.documents import Document
from langchain_core.vectorstores import VectorStore

from ..errors import AutoAgentError
from .entries import MemoryEntry
from .errors import MemoryStoreError


class VectorStoreBackend:
    """Keeps entries as Documents in a LangChain vector store: task and summary as content, the rest as metadata."""

    def __init__(self, vectorstore: VectorStore) -> None:
        self.vectorstore = vectorstore

    def add(self, entry: MemoryEntry) -> str:
        """Add the entry (content: the same text the local store embeds); the store assigns the id."""
        document = Document(page_content=entry.embedding_text(), metadata=entry.metadata())
        with vectorstore_errors(self.vectorstore):
            return str(self.vectorstore.add_documents([document])[0])

    def search(self, text: str, k: int) -> list[tuple[Document, float]]:
        """Nearest Documents with the store's relevance score (cosine similarity for a cosine collection)."""
        with vectorstore_errors(self.vectorstore):
            try:
                hits = self.vectorstore.similarity_search_with_relevance_scores(text, k=k)
            except NotImplementedError:  # stores without a relevance function (InMemoryVectorStore) give cosine
                hits = self.vectorstore.similarity_search_with_score(text, k=k)
        return [(_with_score(document, score), score) for document, score in hits]


@contextlib.contextmanager
def vectorstore_errors(vectorstore: VectorStore) -> Iterator[None]:
    """A failing vector store (server down, bad credentials) or embedding model as MemoryStoreError."""
    try:
        yield
    except AutoAgentError:
        raise
    except Exception as err:
        detail = f"{type(err).__name__}: {' '.join(str(err).split())}"
        raise MemoryStoreError(f"the {type(vectorstore).__name__} memory failed: {detail}") from err


def _with_score(document: Document, score: float) -> Document:
    """The summary as content, with score and id in the metadata, as the local store gives them."""
    metadata = {**document.metadata, "score": round(float(score), 4)}
    if document.id is not None:
        metadata.setdefault("id", document.id)
    summary = document.page_content.removeprefix(f"{metadata.get('task', '')}\n")
    return Document(page_content=summary, metadata=metadata, id=document.id)
