"""Deprecated: `autoagent.config` is now `autoagent.settings` (Settings, build_agent)."""

import warnings

from .settings import PERMISSIONS, Settings, build_agent

__all__ = ["PERMISSIONS", "Settings", "build_agent"]

warnings.warn("autoagent.config is deprecated: import from autoagent.settings (or autoagent)", DeprecationWarning,
              stacklevel=2)
