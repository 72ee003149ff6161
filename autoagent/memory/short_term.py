"""Short-term memory: the last K steps of the current run, rendered into the prompt."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import replace

from langchain_core.prompts import PromptTemplate

from ..acting.fence import truncate
from ..prompts import PromptTemplateBuilder, format_prompt
from ..steps import Step, StepKind

REPLY_CHARS = 300  # how much of an unparseable reply is shown back to the model


class ShortTermMemory:
    """A window over the most recent steps; older steps fall out of the prompt, into `left` until a running
    summary of them (`summary`, autoagent/loop/compaction.py) takes them in, shown before the window."""

    def __init__(self, window: int = 5) -> None:
        if window < 1:
            raise ValueError("the short-term memory window must hold at least one step")
        self._steps: deque[Step] = deque(maxlen=window)
        self.summary = ""  # the steps that left the window, told in a few sentences
        self.summarized = 0  # the number of the last step the summary tells
        self.left: list[Step] = []  # steps out of the window, not yet in the summary
        self.omitted = 0  # steps left out to fit the model's context window (see `trimmed`)
        self.shortened = False  # observations cut to fit it
        self.observation_chars: int | None = None  # where observations are cut when shown (see `trimmed`)
        self._blocks: dict[tuple[int, str], tuple[Step, str]] = {}  # (step, its block) by (id of step, template)

    def add(self, step: Step) -> None:
        """Remember a step; the oldest one leaves the window when it is full (kept in `left` for the summary)."""
        if len(self._steps) == self._steps.maxlen and self._steps[0].number > self.summarized:
            self.left.append(self._steps[0])
        self._steps.append(step)

    def summarize(self, summary: str, through: int) -> None:
        """The steps up to `through` are told by `summary` from now on."""
        self.summary, self.summarized = summary, through
        self.left = [step for step in self.left if step.number > through]

    def __iter__(self) -> Iterator[Step]:
        return iter(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def tool_results(self) -> ShortTermMemory:
        """A copy holding only the steps whose tool ran, and of those only the ones that worked when any did:
        what a final answer is written from (finishes, refusals, unreadable replies and calls that failed before
        one worked only distract a small model into copying them: "invoice.txt" it guessed, not the file found)."""
        results = ShortTermMemory(max(len(self._steps), 1))
        results.summary, results.summarized = self.summary, self.summarized
        ran = [step for step in self._steps if step.kind is StepKind.ACTION]
        worked = [step for step in ran if step.success]
        for step in worked or ran:
            results.add(step)
        return results

    def trimmed(self, keep: int, observation_chars: int | None = None) -> ShortTermMemory:
        """A copy holding only the newest `keep` steps, whose observations are shown cut to `observation_chars`,
        to fit a context window; the rendering says what was left out."""
        kept = list(self._steps)[-keep:] if keep > 0 else []
        copy = ShortTermMemory(max(len(kept), 1))
        copy.summary, copy.summarized = self.summary, self.summarized
        for step in kept:
            copy.add(step)
        copy.observation_chars = observation_chars
        copy.shortened = observation_chars is not None and any(len(s.observation) > observation_chars for s in kept)
        copy.omitted = self.omitted + len(self._steps) - len(kept)
        return copy

    def shown(self, builder: PromptTemplateBuilder) -> list[Step]:
        """The steps as the model is shown them: observations cut to `observation_chars`, the cut noted in the
        language of `builder`."""
        return [self._shown(step, builder) for step in self._steps]

    def _shown(self, step: Step, builder: PromptTemplateBuilder) -> Step:
        limit = self.observation_chars
        if limit is None or len(step.observation) <= limit:
            return step
        return replace(step, observation=truncate(step.observation, limit, builder))

    def trim_note(self, builder: PromptTemplateBuilder) -> str:
        """What the model is told about steps left out or cut to fit its context window; empty when none."""
        if not (self.omitted or self.shortened):
            return ""
        return builder.render("memory_trimmed", omitted=str(self.omitted)).strip()

    def render(self, builder: PromptTemplateBuilder, template_name: str = "memory_step") -> str:
        """The window as prompt text, one block per step from `template_name`.templ."""
        if not self._steps and not self.omitted:
            return builder.render("empty_memory").strip()
        template = builder.build(template_name)
        blocks = []
        for step in self._steps:
            key = (id(step), template_name)
            cached = self._blocks.get(key)
            if cached is None or cached[0] is not step:  # a step never changes: render its block once
                block = self._render_step(self._shown(step, builder), template, template_name)
                cached = self._blocks[key] = (step, block)
            blocks.append(cached[1])
        live = {id(step) for step in self._steps}
        self._blocks = {key: block for key, block in self._blocks.items() if key[0] in live}
        note = self.trim_note(builder)
        told = [builder.render("memory_summary", summary=self.summary, through=str(self.summarized)).strip()] \
            if self.summary else []
        return "\n".join([*told, note, *blocks] if note else [*told, *blocks])

    @staticmethod
    def _render_step(step: Step, template: PromptTemplate, template_name: str) -> str:
        """One step's block."""
        thought = step.decision.thought.text if step.decision else step.reply.strip()[:REPLY_CHARS]
        action = step.action
        arguments = json.dumps(action.args, ensure_ascii=False) if action else ""
        return format_prompt(
            template,
            template_name,
            number=str(step.number),
            thought=thought,
            action=f"{action.name} {arguments}" if action else "-",
            action_name=action.name if action else "-",
            action_input=arguments,
            observation=step.observation,
        ).strip()
