"""The step trace people read on stderr while an agent works: styled lines, rendered plain or with rich."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from ..steps import Step, StepKind
from ..text import escape_controls, shorten

OBSERVATION_CHARS = 400  # the trace shortens long observations; the run record keeps them whole
OBSERVATION_LINES = 6
ARGS_CHARS = 300  # a FINISH's arguments may hold the whole answer, which is printed at the end anyway
REPLY_CHARS = 200

Segment = tuple[str, str]  # a piece of text and its rich style ("" for none; "json" asks for JSON highlighting)
Line = list[Segment]


def _cut(text: str, chars: int = OBSERVATION_CHARS, lines: int = OBSERVATION_LINES) -> tuple[str, bool]:
    """`text` stripped and cut to at most `lines` lines and `chars` characters; True when something was cut."""
    text = text.strip()
    short = shorten("\n".join(text.splitlines()[:lines]), chars, mark="").rstrip()
    return short, short != text


def step_lines(step: Step, max_steps: int, run_id: str = "") -> list[Line]:
    """A step as a header and indented lines: thought and plan, action and arguments, observation."""
    header: Line = [(f"[step {step.number}/{max_steps}]", "bold")]
    if step.kind is StepKind.PARSE_ERROR:
        header.append((" unparseable reply", "bold red"))
    elif step.kind is StepKind.REPEATED:
        header.append((" repeated action: the model was asked to rethink", "bold yellow"))
    if step.seconds:
        header.append((f" · {step.seconds:.1f} s", "dim"))
    lines = [header]
    if step.decision is None:
        lines.append([("  reply: ", "dim"), (repr(step.reply.strip()[:REPLY_CHARS]), "red")])
    else:
        lines.append([("  thought: ", "dim"), (step.decision.thought.text, "italic")])
        lines += [[(f"    - {item}", "")] for item in step.decision.thought.plan]
        action = step.decision.action
        args, cut = _cut(json.dumps(action.args, ensure_ascii=False, default=str), ARGS_CHARS)
        lines.append([("  action: ", "dim"), (action.name, "bold cyan"), (" ", ""), (args, "json")])
        if cut:
            lines[-1].append((" …", "dim"))
    if step.kind is not StepKind.FINISH:
        lines += _observation_lines(step, run_id)
    return lines


def _observation_lines(step: Step, run_id: str) -> list[Line]:
    """The observation, shortened, its continuation lines indented; a hint where to read it whole."""
    observation, cut = _cut(step.observation)
    style = "" if step.success else "red"
    first, *rest = observation.splitlines() or [""]
    lines: list[Line] = [[("  observation: ", "dim"), (first, style)]]
    lines += [[(f"    {line}", style)] for line in rest]
    if cut:
        hint = f" (whole in the transcript: autoagent runs show {run_id})" if run_id else ""
        lines[-1].append((" …" + hint, "dim"))
    return lines


def format_step(step: Step, max_steps: int, run_id: str = "") -> str:
    """A few indented lines of plain text: thought, action and observation; control characters escaped."""
    lines = step_lines(step, max_steps, run_id)
    return escape_controls("\n".join("".join(text for text, _ in line) for line in lines))


def print_step(step: Step, max_steps: int, stream: TextIO | None = None) -> None:
    """Print a step to `stream` (stderr by default), so stdout stays for the answer."""
    from ..redact import redacted

    print(redacted(format_step(step, max_steps)), file=stream or sys.stderr, flush=True)
