"""Modules that moved keep their old import path for a while, with a DeprecationWarning."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(("old", "new", "name"), [("autoagent.config", "autoagent.settings", "build_agent")])
def test_old_path_warns_and_reexports(old: str, new: str, name: str) -> None:
    code = (f"import warnings; warnings.simplefilter('error', DeprecationWarning); import autoagent, {new}\n"
            f"try:\n    import {old}\nexcept DeprecationWarning as warning:\n    print('warned:', warning)\n"
            f"warnings.simplefilter('ignore'); import {old}\n"
            f"assert {old}.{name} is {new}.{name}")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.startswith(f"warned: {old} is deprecated")
