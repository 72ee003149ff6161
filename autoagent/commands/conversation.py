"""The REPL's conversation: this session's earlier exchanges, given to the next task as context."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..text import shorten

if TYPE_CHECKING:
    from ..prompts import PromptTemplateBuilder

MAX_EXCHANGES = 3  # how many earlier exchanges the next task carries
EXCHANGE_CHARS = 500  # how much of each request and answer it carries


@dataclass(frozen=True)
class Exchange:
    """One request of the session and the answer it got."""

    request: str
    answer: str


@dataclass
class Conversation:
    """The last few exchanges, newest last; `task_for` wraps a new request in them."""

    max_exchanges: int = MAX_EXCHANGES
    max_chars: int = EXCHANGE_CHARS
    exchanges: list[Exchange] = field(default_factory=list)

    def add(self, request: str, answer: str) -> None:
        """Remember an exchange, forgetting the oldest beyond `max_exchanges`."""
        self.exchanges.append(Exchange(request, answer))
        del self.exchanges[: -self.max_exchanges]

    def clear(self) -> None:
        """Forget every exchange."""
        self.exchanges.clear()

    def task_for(self, request: str, prompts: PromptTemplateBuilder) -> str:
        """The task to run: `request` alone, or rendered from conversation.templ after earlier exchanges."""
        if not self.exchanges:
            return request
        exchanges = "\n\n".join(
            prompts.render("conversation_exchange", request=shorten(exchange.request.strip(), self.max_chars),
                           answer=shorten(exchange.answer.strip(), self.max_chars)).strip()
            for exchange in self.exchanges
        )
        return prompts.render("conversation", exchanges=exchanges, request=request).strip()
