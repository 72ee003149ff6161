"""The model's own word on a finished run's answer: asked, with the task, what the last step printed and the answer
(and nothing else of the run), whether the answer is right and answers every part of the task, a small model that
leans too little to "Yes" stops the run unverified, its answer shown as unsure. The score is the log-odds of "Yes"
over "No" in the model's next-token logits (one prompt evaluated, nothing generated), so it applies where the model
gives them: the embedded model. The question is asked in English whatever the task's language: that is the wording
measured (bench/self_check.py; bench/RESULTS.md, twenty-third session)."""

from __future__ import annotations

from collections.abc import Sequence

from ..checks import CheckContext, Verdict
from ..prompts import PromptTemplateBuilder
from ..steps import Step, StepKind

THRESHOLD = 1.25  # chosen on the development sets (fresh1, fresh11, fresh20, the suite), then held to fresh ones
PRINTED_CHARS = 100  # as much of the last step's output as the measured prompt showed
ANSWER_CHARS = 300  # and of the answer


def printed(steps: Sequence[Step]) -> str:
    """The start of what the run's last tool step printed, its line breaks and quotes escaped as Python writes
    a string (the measured prompt's form), or "" before any."""
    for step in reversed(steps):
        if step.kind is StepKind.ACTION:
            return repr(step.observation[:PRINTED_CHARS]).strip("'")
    return ""


def self_check_verdict(context: CheckContext, prompts: PromptTemplateBuilder) -> Verdict | None:
    """A stop, unverified, where the model scores the drafted answer under THRESHOLD; None where it scores it at
    or above, or gives no score."""
    question = prompts.render("self_check", task=context.task, printed=printed(context.steps),
                              answer=context.answer[:ANSWER_CHARS]).strip()
    score = context.confidence(prompts.render("self_check_system").strip(), question)
    if score is None or score >= THRESHOLD:
        return None
    return Verdict.stop(prompts.render("self_check_doubt", score=f"{score:.2f}", threshold=f"{THRESHOLD:g}").strip())
