"""Small-model help, one advisor (autoagent/advice.py): checks that ground a finish in what the tools did, and leads
that steer a small model to the next part of its task. The core loop reads nothing of the request; the coach does.
An answer no tool can support (nothing in the request for a tool to take, and no tool worked), and a value worked out
from the results, stand only when the model gives them again (self-consistency: autoagent/consistency.py).

`build_agent` adds it for `--coach auto` (the default) where the model is the embedded one or its name says it is
small (see `coach_wanted`); `on` and `off` choose for any model. From Python: `AgentOptions(advisors=[Coach()])`.
Each verdict it gives that changes a run's course is a step of the transcript naming `coach`."""

from __future__ import annotations

from ..advice import Advisor, RunSetup
from ..llm.profile import ModelProfile
from .coaching import NAME, Coaching

__all__ = ["COACH_CHOICES", "Coach", "coach_wanted"]

COACH_CHOICES = ("auto", "on", "off")


class Coach(Advisor):
    """Small-model help: `start` gives the coach of one run (autoagent/coach/coaching.py)."""

    name = NAME

    def start(self, setup: RunSetup) -> Coaching:
        """The coach of the run `setup` describes."""
        return Coaching(setup)


def coach_wanted(setting: str, profile: ModelProfile) -> bool:
    """Whether the coach helps a model: `on`, `off`, or for `auto` a small one (the embedded model, or one whose
    name says it is as small as those measured to need it: "qwen2.5-coder:1.5b", "Llama-3.2-1B"): the bundled 0.5B
    and 1.5B models gained with it on held-out sets, while a capable model had only 5 of its 10 answers taken as
    given with it on (bench/coach_capable.py). A model behind a URL whose name gives no size is trusted as given."""
    if setting not in COACH_CHOICES:
        raise ValueError(f"unknown coach setting {setting!r} (choose from {', '.join(COACH_CHOICES)})")
    return setting == "on" if setting != "auto" else profile.small
