"""Spotting a reply that has degenerated into repeating itself ("= 7900000000…") while it streams, so the call
can be stopped instead of running to its token cap."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler

MAX_PERIOD = 64  # characters: a token, a word or a short phrase
MIN_RUN_CHARS = 100  # a markdown rule or a long number stays below this; a reply stuck on one digit does not
MIN_REPEATS = 10
SHOWN_REPEATS = 3  # of the pattern, kept at the end of a stopped reply's text


class RunawayDetector:
    """Reads a reply as it streams; `feed` turns True once its tail is one pattern of at most MAX_PERIOD
    characters repeated over MIN_RUN_CHARS characters and MIN_REPEATS times."""

    def __init__(self, max_period: int = MAX_PERIOD, min_chars: int = MIN_RUN_CHARS,
                 min_repeats: int = MIN_REPEATS) -> None:
        self.max_period, self.min_chars, self.min_repeats = max_period, min_chars, min_repeats
        self.text = ""
        self.period = 0  # the repeated pattern's length once found
        # _runs[p]: how many trailing characters equal the character p places before them
        self._runs = [0] * (max_period + 1)

    @property
    def runaway(self) -> bool:
        """True once a runaway repetition was seen."""
        return self.period > 0

    @property
    def pattern(self) -> str:
        """The repeated pattern ('' before one is found)."""
        return self.text[-self.period:] if self.period else ""

    def feed(self, piece: str) -> bool:
        """Add the next piece of the reply; True when the reply has become a runaway."""
        if self.runaway:
            return True
        text, runs = self.text, self._runs
        for char in piece:
            size = len(text)
            text += char
            for period in range(1, min(self.max_period, size) + 1):
                runs[period] = runs[period] + 1 if text[size - period] == char else 0
                length = runs[period] + period  # the repeated stretch: the first copy, then the matches
                if length >= self.min_chars and length >= period * self.min_repeats:
                    self.text, self.period = text, period
                    return True
        self.text = text
        return False

    def trimmed(self) -> str:
        """The text with its repeated tail cut to a few copies of the pattern and an ellipsis."""
        if not self.runaway:
            return self.text
        period, text = self.period, self.text
        start = len(text) - self._runs[period] - period
        return text[:start] + self.pattern * SHOWN_REPEATS + "…"


class RunawayReplyError(Exception):
    """A streamed reply was stopped for repeating `pattern`; `text` is what it said up to then, trimmed."""

    def __init__(self, text: str, pattern: str) -> None:
        super().__init__(f"the reply kept repeating {pattern[:20]!r} and was stopped")
        self.text, self.pattern = text, pattern


class _QuietAboutRunaways(logging.Filter):
    """Drops LangChain's 'Error in RunawayGuard.on_llm_new_token callback' warning: stopping is the guard's job."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for the warning about a runaway being stopped."""
        return "RunawayReplyError" not in record.getMessage()


logging.getLogger("langchain_core.callbacks.manager").addFilter(_QuietAboutRunaways())


class RunawayGuard(BaseCallbackHandler):
    """A callback that watches a model's streamed tokens and raises RunawayReplyError inside the model call
    when they degenerate, which stops the call (a server sees its stream closed). Only models that stream
    tokens to callbacks can be watched; their replies stay bounded by the token cap regardless."""

    raise_error = True  # LangChain swallows a handler's exception otherwise

    def __init__(self) -> None:
        self.detector = RunawayDetector()

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        """A new attempt starts with a fresh reply."""
        self.detector = RunawayDetector()

    def on_llm_start(self, serialized: dict[str, Any], prompts: list[str], **kwargs: Any) -> None:
        """A new attempt starts with a fresh reply."""
        self.detector = RunawayDetector()

    def on_llm_new_token(self, token: str | list[str | dict[str, Any]], **kwargs: Any) -> None:
        """Watch one more token; raise when the reply has become a runaway."""
        if isinstance(token, str) and token and self.detector.feed(token):
            raise RunawayReplyError(self.detector.trimmed(), self.detector.pattern)
