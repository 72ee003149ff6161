"""Speak mode as a run observer: each step's `speak` line (its thought where the reply has none), then the answer."""

from __future__ import annotations

import re

from ..events import RunObserver
from ..steps import RunResult, Step, StepKind, StopReason
from ..text import shorten
from .speaker import Speaker

MAX_SPOKEN_CHARS = 600  # a long answer is read from its start; the rest is on the screen
_FENCED_CODE = re.compile(r"```.*?(```|$)", re.DOTALL)
_MARKS = re.compile(r"[*`]+")  # emphasis and code marks, dropped
# A heading's or a quote's mark at a line's start, a table's bars, a link (its text kept).
_SEPARATORS = re.compile(r"^[ \t]*(?:#+|>+)|\||\[([^\]]*)\]\([^)]*\)", re.MULTILINE)


def spoken_line(step: Step) -> str:
    """What a step says: the thought's `speak` where the reply format has one, else its text; nothing for a
    finishing step (the answer follows) or an unreadable reply."""
    if step.decision is None or step.kind is StepKind.FINISH:
        return ""
    thought = step.decision.thought
    return speakable(thought.speak or thought.text)


def speakable(text: str) -> str:
    """`text` as it is read aloud: no code blocks or Markdown marks, one line, at most MAX_SPOKEN_CHARS."""
    text = _FENCED_CODE.sub(" ", text)
    text = _SEPARATORS.sub(lambda match: match.group(1) or " ", _MARKS.sub("", text))
    return shorten(" ".join(text.split()), MAX_SPOKEN_CHARS, "…")


class SpeakAloud(RunObserver):
    """Gives a Speaker each step's line and the final answer; an interrupted run silences it."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker
        self.answered = False

    def on_step(self, step: Step) -> None:
        line = spoken_line(step)
        if line:
            self.speaker.say(line)

    def on_answer(self, run: RunResult) -> None:
        line = speakable(run.answer)
        if line:
            self.speaker.say(line)
            self.answered = True

    def on_run_end(self, run: RunResult) -> None:
        if run.stop_reason is StopReason.INTERRUPTED:
            self.speaker.stop()
        elif not self.answered:  # plan mode tells no answer event
            self.on_answer(run)
