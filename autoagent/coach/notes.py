"""Notes on the task, written by the model before its first step and shown after the task at every step (as
smolagents' planning step surveys the facts first): what the task asks for, part by part, what it gives and the
conditions it sets on the work. A small model that writes its first program at once often drops a condition of
the task (which days count, a second part of the question); written down first, it stays in sight. Nothing of the
request is read here: the model reads it."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

from ..loop.metering import Meter
from ..prompts import PromptTemplateBuilder

NOTES_TOKENS = 120  # three short lines
NOTES_CHARS = 800  # what the step prompt shows of them at most


def write_notes(llm: BaseChatModel, prompts: PromptTemplateBuilder, task: str, meter: Meter) -> str:
    """The model's notes on `task`, under their heading; empty where the model wrote none."""
    prompt = prompts.render("task_notes", task_description=task)
    notes = meter.call(llm, [HumanMessage(prompt)], NOTES_TOKENS)[0].text.strip().split("\n\n")[0][:NOTES_CHARS]
    if not notes:
        return ""
    return f"{prompts.render('task_notes_heading').strip()}\n{notes}"
