"""Short-term memory: the last K steps of the current run, rendered into the prompt."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator

from ..prompts import PromptTemplateBuilder, format_prompt
from ..reply import Action
from ..steps import Step, StepKind

REPLY_CHARS = 300  # how much of an unparseable reply is shown back to the model


class ShortTermMemory:
    """A window over the most recent steps; older steps fall out of the prompt."""

    def __init__(self, window: int = 5) -> None:
        if window < 1:
            raise ValueError("the short-term memory window must hold at least one step")
        self._steps: deque[Step] = deque(maxlen=window)

    def add(self, step: Step) -> None:
        """Remember a step, forgetting the oldest one when the window is full."""
        self._steps.append(step)

    def __iter__(self) -> Iterator[Step]:
        return iter(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def earlier(self, action: Action) -> list[Step]:
        """Steps in the window that ran or attempted the same action with the same arguments."""
        signature = action.signature()
        return [
            step
            for step in self._steps
            if step.kind in (StepKind.ACTION, StepKind.REPEATED)
            and step.action is not None
            and step.action.signature() == signature
        ]

    def render(self, builder: PromptTemplateBuilder, template_name: str = "memory_step") -> str:
        """The window as prompt text, one block per step from `template_name`.templ."""
        if not self._steps:
            return builder.render("empty_memory").strip()
        template = builder.build(template_name)
        blocks = []
        for step in self._steps:
            thought = step.decision.thought.text if step.decision else step.reply.strip()[:REPLY_CHARS]
            action = step.action
            arguments = json.dumps(action.args, ensure_ascii=False) if action else ""
            blocks.append(
                format_prompt(
                    template,
                    template_name,
                    number=str(step.number),
                    thought=thought,
                    action=f"{action.name} {arguments}" if action else "-",
                    action_name=action.name if action else "-",
                    action_input=arguments,
                    observation=step.observation,
                ).strip()
            )
        return "\n".join(blocks)
