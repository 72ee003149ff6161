"""A run and its long-term memory: what similar past tasks it recalls as it begins, and its summary as it ends."""

from __future__ import annotations

import logging

from langchain_core.language_models import BaseChatModel
from langchain_core.retrievers import BaseRetriever

from ..errors import AutoAgentError
from ..llm.profile import model_name
from ..prompts import PromptTemplateBuilder
from ..steps import RunResult
from .long_term import LongTermMemory

logger = logging.getLogger("autoagent")


def recall(retriever: BaseRetriever | None, task: str, prompts: PromptTemplateBuilder) -> str:
    """Long-term memories relevant to `task` (once per run: the task does not change), or the empty-memory text;
    a memory that cannot be read is reported, and the run goes on without it."""
    try:
        documents = retriever.invoke(task) if retriever else []
    except Exception as err:  # any retriever (a vector-store server, too): the run goes on without memories
        logger.warning("no memories recalled: %s: %s", type(err).__name__, err)
        documents = []
    if not documents:
        return prompts.render("empty_memory").strip()
    return "\n".join(f"- {document.page_content.strip()}" for document in documents)


def remember(memory: LongTermMemory, result: RunResult, llm: BaseChatModel) -> None:
    """Summarise the run into long-term memory; a failure to do so is reported, never raised."""
    if not result.steps:
        return
    try:
        memory.remember(result, llm, model_name(llm))
    except AutoAgentError as err:
        logger.warning("this run is not remembered: %s", err)
