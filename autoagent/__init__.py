"""autoagent: an autonomous agent in the AutoGPT lineage, built on LangChain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["AutoGPT", "__version__"]

if TYPE_CHECKING:
    from .agent import AutoGPT


def __getattr__(name: str) -> Any:
    # Imported on first use, so `autoagent --help` does not pay for LangChain.
    if name == "AutoGPT":
        from .agent import AutoGPT

        return AutoGPT
    raise AttributeError(f"module 'autoagent' has no attribute {name!r}")
