"""Short-term memory: the last K steps of the current run, rendered into the prompt."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import replace

from langchain_core.prompts import PromptTemplate

from ..acting.fence import truncate, unfenced
from ..prompts import PromptTemplateBuilder, format_prompt
from ..steps import Step, StepKind

REPLY_CHARS = 300  # how much of an unparseable reply is shown back to the model
RESULTS_CHARS = 1200  # what the summarised steps' tools returned, shown in short beside the summary: at most this
RESULT_LINE_CHARS = 60  # ... and at least this much of each step's line (fewer lines where more would not fit)


class ShortTermMemory:
    """A window over the most recent steps; older steps fall out of the prompt, into `left` until a running
    summary of them (`summary`, autoagent/loop/compaction.py) takes them in (`folded`), shown before the window with
    what their tools returned in short: a small model's summary keeps the task's words and may drop the value a tool
    gave."""

    def __init__(self, window: int = 5) -> None:
        if window < 1:
            raise ValueError("the short-term memory window must hold at least one step")
        self._steps: deque[Step] = deque(maxlen=window)
        self.summary = ""  # the steps that left the window, told in a few sentences
        self.summarized = 0  # the number of the last step the summary tells
        self.left: list[Step] = []  # steps out of the window, not yet in the summary
        self.folded: list[Step] = []  # steps out of the window that the summary tells
        self.omitted = 0  # steps left out to fit the model's context window (see `trimmed`)
        self.shortened = False  # observations cut to fit it
        self.observation_chars: int | None = None  # where observations are cut when shown (see `trimmed`)
        self._blocks: dict[tuple[int, str], tuple[Step, str]] = {}  # (step, its block) by (id of step, template)

    def add(self, step: Step) -> None:
        """Remember a step; the oldest one leaves the window when it is full (kept in `left` for the summary)."""
        if len(self._steps) == self._steps.maxlen:
            oldest = self._steps[0]
            (self.left if oldest.number > self.summarized else self.folded).append(oldest)
        self._steps.append(step)

    def summarize(self, summary: str, through: int) -> None:
        """The steps up to `through` are told by `summary` from now on."""
        self.summary, self.summarized = summary, through
        self.folded += [step for step in self.left if step.number <= through]
        self.left = [step for step in self.left if step.number > through]

    def _told_as(self, copy: ShortTermMemory) -> ShortTermMemory:
        """`copy`, telling the steps before its window as this memory does (its own list of them: a copy that
        overflows its window adds to it)."""
        copy.summary, copy.summarized, copy.folded = self.summary, self.summarized, list(self.folded)
        return copy

    def __iter__(self) -> Iterator[Step]:
        return iter(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def tool_results(self) -> ShortTermMemory:
        """A copy holding only the steps whose tool ran, and of those only the ones that worked when any did:
        what a final answer is written from (finishes, refusals, unreadable replies and calls that failed before
        one worked only distract a small model into copying them: "invoice.txt" it guessed, not the file found)."""
        results = self._told_as(ShortTermMemory(max(len(self._steps), 1)))
        ran = [step for step in self._steps if step.kind is StepKind.ACTION]
        worked = [step for step in ran if step.success]
        for step in worked or ran:
            results.add(step)
        return results

    def trimmed(self, keep: int, observation_chars: int | None = None) -> ShortTermMemory:
        """A copy holding only the newest `keep` steps, whose observations are shown cut to `observation_chars`,
        to fit a context window; the rendering says what was left out."""
        kept = list(self._steps)[-keep:] if keep > 0 else []
        copy = self._told_as(ShortTermMemory(max(len(kept), 1)))
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
        return "\n".join(part for part in [self._told(builder), note, *blocks] if part)

    def _told(self, builder: PromptTemplateBuilder) -> str:
        """The summary of the steps before the window, and what their tools returned in short; empty when none."""
        if not self.summary:
            return ""
        told = builder.render("memory_summary", summary=self.summary, through=str(self.summarized)).strip()
        results = results_in_short(self.folded)
        return f"{told}\n{builder.render('memory_results', results=results).strip()}" if results else told

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


def results_in_short(steps: list[Step]) -> str:
    """What the tools of `steps` returned, a line a step (its call, then what it returned as a quoted string),
    within RESULTS_CHARS: each line gets an equal share, at least RESULT_LINE_CHARS, and where even that would not
    fit, the first and the last steps' lines are kept (the first read what the task rests on, the last are the
    latest)."""
    ran = [step for step in steps if step.kind is StepKind.ACTION and step.action]
    if not ran:
        return ""
    most = RESULTS_CHARS // RESULT_LINE_CHARS
    kept: list[Step | None] = list(ran)
    if len(ran) > most:
        kept = [*ran[:most // 2], None, *ran[len(ran) - (most - most // 2 - 1):]]
    share = max(RESULT_LINE_CHARS, RESULTS_CHARS // len(kept))
    return "\n".join("…" if step is None else _result_line(step, share) for step in kept)


def _result_line(step: Step, share: int) -> str:
    """One step's call and what it returned on one line of about `share` characters: the call's arguments cut to a
    third of it, and of a quoted file or page the text alone (the fence's heading and markers would take the line),
    cut to fit before it is quoted, so the string always closes."""
    action = step.action
    assert action is not None
    arguments = _cut(" ".join(json.dumps(action.args, ensure_ascii=False).split()), share // 3)
    call = f"{step.number}. {action.name} {arguments} -> "
    returned = _cut(" ".join(unfenced(step.observation).split()), max(share - len(call) - 2, 1))
    return call + json.dumps(returned, ensure_ascii=False)


def _cut(text: str, limit: int) -> str:
    """`text`, or its first `limit` - 1 characters and "…"."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
