"""The step trace people read on stderr while an agent works."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from .steps import Step, StepKind

OBSERVATION_CHARS = 400  # the trace shortens long observations; the run record keeps them whole


def format_step(step: Step, max_steps: int) -> str:
    """A few indented lines: thought, action and observation."""
    lines = [f"[step {step.number}/{max_steps}]"]
    if step.decision is None:
        lines.append(f"  unparseable reply: {step.reply.strip()[:200]!r}")
    else:
        lines.append(f"  thought: {step.decision.thought.text}")
        for item in step.decision.thought.plan:
            lines.append(f"    - {item}")
        action = step.decision.action
        lines.append(f"  action: {action.name} {json.dumps(action.args, ensure_ascii=False)}")
    if step.kind is not StepKind.FINISH:
        observation = step.observation.strip()
        if len(observation) > OBSERVATION_CHARS:
            observation = observation[:OBSERVATION_CHARS] + " …"
        lines.append(f"  observation: {observation}")
    return "\n".join(lines)


def print_step(step: Step, max_steps: int, stream: TextIO | None = None) -> None:
    """Print a step to `stream` (stderr by default), so stdout stays for the answer."""
    print(format_step(step, max_steps), file=stream or sys.stderr, flush=True)
