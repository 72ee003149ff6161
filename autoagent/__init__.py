"""autoagent: an autonomous agent in the AutoGPT lineage, built on LangChain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Agent", "AgentOptions", "AutoGPT", "PlanAndExecute", "Settings", "__version__", "build_agent"]

if TYPE_CHECKING:
    from .agent import AutoGPT
    from .loop.lifecycle import Agent, AgentOptions
    from .plan_mode import PlanAndExecute
    from .settings import Settings, build_agent


def __getattr__(name: str) -> Any:
    # Imported on first use, so `autoagent --help` does not pay for LangChain.
    if name == "AutoGPT":
        from .agent import AutoGPT

        return AutoGPT
    if name in ("Agent", "AgentOptions"):
        from .loop import lifecycle

        return getattr(lifecycle, name)
    if name == "PlanAndExecute":
        from .plan_mode import PlanAndExecute

        return PlanAndExecute
    if name in ("Settings", "build_agent"):
        from . import settings

        return getattr(settings, name)
    raise AttributeError(f"module 'autoagent' has no attribute {name!r}")
