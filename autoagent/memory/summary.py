"""Summarising a run for long-term memory: the steps that acted, the outcome and the answer, in a few sentences."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from langchain_core.messages import HumanMessage

from ..prompts import PromptTemplateBuilder
from ..steps import RunResult, Step, StepKind
from ..text import shorten
from .short_term import ShortTermMemory

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

MAX_STEPS_SHOWN = 12  # the last ones; earlier steps rarely carry the answer
OBSERVATION_CHARS = 300
MAX_SUMMARY_CHARS = 1200


def summary_prompt(result: RunResult, prompts: PromptTemplateBuilder, outcome: str) -> str:
    """The `summarize_run` prompt for a run: only steps that ran a tool are shown, observations clipped."""
    acted = [step for step in result.steps if step.kind is StepKind.ACTION][-MAX_STEPS_SHOWN:]
    none = prompts.render("empty_memory").strip()
    return prompts.render(
        "summarize_run",
        task_description=result.task,
        outcome=outcome,
        steps=_render_steps(acted, prompts) if acted else none,
        answer=result.answer.strip() or none,
    )


def summarize_run(result: RunResult, llm: BaseChatModel, prompts: PromptTemplateBuilder, outcome: str) -> str:
    """Ask `llm` for the run's summary (its tokens count in the run's usage); a failing model raises
    ModelUnavailableError."""
    from ..llm.call import invoke_model
    from ..llm.reply_caps import SUMMARY_TOKENS

    message = invoke_model(llm, [HumanMessage(summary_prompt(result, prompts, outcome))], result.usage,
                           reply_tokens=SUMMARY_TOKENS)
    return clean_summary(message.text)


def clean_summary(text: str) -> str:
    """One paragraph without code fences, cut at a sentence or word boundary when too long."""
    text = " ".join(re.sub(r"```[a-zA-Z]*", " ", text).split())
    if len(text) <= MAX_SUMMARY_CHARS:
        return text
    cut = text[:MAX_SUMMARY_CHARS]
    end = max(cut.rfind(". "), cut.rfind("。"))
    return cut[: end + 1] if end > MAX_SUMMARY_CHARS // 2 else cut.rsplit(" ", 1)[0] + " …"


def _render_steps(steps: list[Step], prompts: PromptTemplateBuilder) -> str:
    """Steps as the short-term memory renders them, observations clipped."""
    memory = ShortTermMemory(len(steps))
    for step in steps:
        memory.add(replace(step, observation=shorten(step.observation.strip(), OBSERVATION_CHARS, " …")))
    return memory.render(prompts)
