"""Whether anything listens to a run's model and tool calls: LangChain callbacks, tracing, debug output, a configure
hook. Where nothing does, a call may go straight to the model's or the tool's own code (autoagent/direct.py):
the same call, without LangChain's callback machinery around it."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManager, Callbacks
from langchain_core.runnables.config import var_child_runnable_config


class Unheard(CallbackManager):
    """The callbacks of a run that nothing listens to: no handler was given, inherited or configured (tracing,
    debug, a hook such as `collect_runs`) when it started. Empty, so it works wherever callbacks go."""


def unheard_if_silent(callbacks: Callbacks) -> Callbacks:
    """`Unheard` when `callbacks` and LangChain's own configuration give no handler at all (judged once a run:
    LangChain's check costs as much as a step of our own); else `callbacks` as given."""
    if var_child_runnable_config.get() is not None:  # run inside another runnable: its config is inherited
        return callbacks
    if CallbackManager.configure(callbacks).handlers:
        return callbacks
    return Unheard(handlers=[])


def heard(callbacks: Callbacks, component: Any) -> bool:
    """Whether a call of `component` (a chat model or a tool) in a run with `callbacks` has a handler to tell:
    the run's, or the component's own (its callbacks, or verbose output)."""
    return not isinstance(callbacks, Unheard) or bool(component.callbacks) or bool(component.verbose)
