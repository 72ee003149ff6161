"""What the coach asks the model to write anew at a finish, from the results of the calls that changed nothing: the
whole content of a file the run wrote, and an input of a tool (a calculator expression, a program) that works out
what the task asks for. Each is drawn at a temperature with its own seed (`CheckContext.draw`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..acting.approval import is_read_only
from ..acting.toolbox import Toolbox
from ..checks import CheckContext
from ..llm.reply_caps import ReplyCaps
from ..loop.drafting import SHORT_ANSWER_TOKENS
from ..memory.short_term import ShortTermMemory
from ..prompts import PromptTemplateBuilder
from ..protocols.code import TOOL as PROGRAM_TOOL
from ..steps import Step, StepKind


class Drafts:
    """The drafts of one run's finishes: per finish (`begin`), each file's and each tool's drawn once however often
    asked; a file's seeds go on over the run's finishes, so a later finish draws new drafts of it."""

    def __init__(self, prompts: PromptTemplateBuilder, toolbox: Toolbox, step_tokens: int) -> None:
        self.prompts, self.toolbox, self.caps = prompts, toolbox, ReplyCaps(step_tokens)
        self.seeds: Counter[str] = Counter()  # per file, the seeds its drafts took so far
        self._context: CheckContext | None = None
        self._contents: dict[str, list[str]] = {}
        self._inputs: dict[str, list[str]] = {}

    def begin(self, context: CheckContext) -> Drafts:
        """A finish begins: what it draws, it draws from `context`."""
        self._context, self._contents, self._inputs = context, {}, {}
        return self

    @property
    def context(self) -> CheckContext:
        """The finish's context: its task, its steps, its draft."""
        if self._context is None:
            raise RuntimeError("Drafts.begin was not called for this finish")
        return self._context

    def contents(self, path: str, count: int) -> list[str]:
        """`count` drafts of the whole content the task asks `path` to hold, each written anew from the results of
        the calls that changed nothing (a write's own content is not shown, so a draft that matches it was worked
        out again, not copied)."""
        context = self.context
        drawn = self._contents.setdefault(path, [])
        needed = count - len(drawn)
        if needed > 0:
            prompt = self.prompts.render("write_again", task_description=context.task, path=path,
                                         short_term_memory=self._looked(context.steps).render(self.prompts))
            drawn.extend(context.draw(prompt, needed, self.caps.answer, first_seed=self.seeds[path] + 1))
            self.seeds[path] += needed
        return drawn[:count]

    def inputs(self, tool: str, count: int) -> list[str]:
        """`count` inputs of `tool` that work out what the task asks for (the calculator: an expression; the python
        tool: a program that prints it), each written anew from the results of the calls of other tools that
        changed nothing (the run's own calls of `tool` are not shown, so an input that comes to the same number was
        worked out again, not copied)."""
        context = self.context
        if len(self._inputs.get(tool, ())) < count:
            program = tool == PROGRAM_TOOL
            template, cap = ("program_again", self.caps.step) if program else ("work_again", SHORT_ANSWER_TOKENS)
            prompt = self.prompts.render(template, task_description=context.task, tool=tool,
                                         short_term_memory=self._looked(context.steps, tool).render(self.prompts))
            self._inputs[tool] = [text.strip() for text in context.draw(prompt, count, cap)]
        return self._inputs[tool][:count]

    def _looked(self, steps: Sequence[Step], leaving_out: str = "") -> ShortTermMemory:
        """The steps whose calls worked and changed nothing (but those of the tool `leaving_out`), as a memory."""
        looked = ShortTermMemory(max(len(steps), 1))
        for step in steps:
            tool = self.toolbox.find(step.action.name) if step.action else None
            if step.kind is StepKind.ACTION and step.success and tool is not None and is_read_only(tool) \
                    and tool.name != leaving_out:
                looked.add(step)
        return looked
