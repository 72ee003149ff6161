"""A non-editable install works from any directory, with prompts and tools under `autoagent`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _isolated(site: Path) -> tuple[list[str], dict[str, str]]:
    """Python without site processing (so the checkout's editable-install finder can't fill in what the
    wheel lacks), seeing the installed copy first, then the dependencies."""
    paths = sysconfig.get_paths()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), paths["purelib"], paths["platlib"]])}
    return [sys.executable, "-S"], env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Build from a copy without build/ or *.egg-info, whose stale files would hide a missing package.
    source = tmp_path_factory.mktemp("source") / "autoagent"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", "workspace", ".*_cache"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        check=True, capture_output=True, timeout=300,
    )
    return next(out.glob("autoagent-*.whl"))


def test_wheel_maps_tools_and_prompts_under_autoagent(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "autoagent/tools/calculator.py" in names
    assert "autoagent/templates/en/main.templ" in names and "autoagent/templates/zh/main.templ" in names
    assert not [name for name in names if name.startswith(("tools/", "prompts/", "tests/"))]


def test_installed_copy_runs_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    assert not (site / "tools").exists()
    code = (
        "import pathlib, pkgutil, importlib, autoagent, autoagent.tools as t\n"
        "from autoagent.prompts import PromptTemplateBuilder\n"
        "for module in pkgutil.walk_packages(autoagent.__path__, 'autoagent.'):\n"
        "    if not module.name.endswith('__main__'):\n"
        "        importlib.import_module(module.name)\n"
        "print(autoagent.__file__)\n"
        "print(len(t.default_tools(pathlib.Path('ws'))), len(PromptTemplateBuilder().build('main').template))\n"
    )
    python, env = _isolated(site)
    result = subprocess.run([*python, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    location, counts = result.stdout.splitlines()
    assert location.startswith(str(site))
    tools, prompt_chars = counts.split()
    assert tools == "10" and int(prompt_chars) > 500


def test_installed_command_runs_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    python, env = _isolated(site)
    result = subprocess.run([*python, "-m", "autoagent", "--help"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "--protocol" in result.stdout and "memory" in result.stdout
