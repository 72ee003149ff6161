"""Deprecated: `autoagent.config` is now `autoagent.settings` (Settings, build_agent)."""

import warnings

from .settings import PERMISSIONS, Settings, build_agent, small_model_likely

__all__ = ["PERMISSIONS", "Settings", "build_agent", "small_model_likely"]

warnings.warn("autoagent.config is deprecated: import from autoagent.settings (or autoagent)", DeprecationWarning,
              stacklevel=2)
