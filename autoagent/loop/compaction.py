"""Compaction: the steps that leave the short-term window are told in a running summary of the run so far (one model
call each time steps leave it, from compact_steps.templ in the run's language), shown before the recent steps, after
the prompt's static part, so the prefix the embedded model reuses stays the same. A run that never passes its window
makes no such call. The summary is a record of the transcript, so a resumed run starts from it."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from ..events import RunObserver
from ..memory.short_term import ShortTermMemory
from ..prompts import PromptTemplateBuilder
from .metering import Meter

SUMMARY_TOKENS = 256  # the summary's own budget: one reply of at most this many tokens
AUTO_RUN_WINDOWS = 2  # auto: on for a run whose step limit passes this many windows


def compacts(setting: bool | None, max_steps: int, window: int, small: bool = False) -> bool:
    """Whether a run compacts: as set, or (None, auto) where its step limit passes AUTO_RUN_WINDOWS windows and the
    model is not a small one. Measured on the bundled 1.5B model: on fresh20 (8 steps, window 5) no right answer
    gained, at a model call a step more; and its summaries kept the task's words but dropped the fact a read file gave
    ("The agent reads the key.txt file to find the access code.": docs/memory.md), which the lines of what the tools
    returned, shown beside the summary (ShortTermMemory), now keep."""
    if setting is not None:
        return setting
    return not small and max_steps > AUTO_RUN_WINDOWS * window


def compact(memory: ShortTermMemory, task: str, prompts: PromptTemplateBuilder, meter: Meter,
            events: RunObserver) -> None:
    """Fold the steps that left the window into the summary, where any did."""
    if not memory.left:
        return
    left = ShortTermMemory(len(memory.left))
    for step in memory.left:
        left.add(step)
    prompt = prompts.render("compact_steps", task_description=task, summary=memory.summary or "-",
                            steps=left.render(prompts))
    summary = meter.call(meter.llm, [HumanMessage(prompt)], SUMMARY_TOKENS)[0].text.strip()
    through = memory.left[-1].number
    memory.summarize(summary, through)
    events.on_summary(summary, through)
