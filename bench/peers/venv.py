"""bench/.venvs/peers: smolagents in a virtual environment of its own, with this checkout's autoagent (editable, no
extras) for the tools it wraps; created on first use, and again when what it should hold changes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository: bench/peers/venv.py
VENV = ROOT / "bench" / ".venvs" / "peers"
# smolagents apart from the project's venv: its pins (huggingface-hub, rich, ...) are not the project's concern.
REQUIREMENTS = ("smolagents>=1.20,<2", "openai")
STAMP = ".peers-installed"


def venv_python(venv: Path = VENV) -> Path:
    """The python of the peers venv."""
    return venv / "bin" / "python"


def wanted(root: Path = ROOT) -> str:
    """What the stamp of a complete venv says: the requirements and the checkout installed into it."""
    return "\n".join([*REQUIREMENTS, f"-e {root}"]) + "\n"


def ensure_venv(venv: Path = VENV, root: Path = ROOT) -> Path:
    """The peers venv's python, creating the venv and installing into it unless its stamp says it is done."""
    stamp = venv / STAMP
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted(root) and venv_python(venv).is_file():
        return venv_python(venv)
    print(f"installing smolagents into {venv} (once; a minute or two)", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    pip = [str(venv_python(venv)), "-m", "pip", "install", "--quiet", "--progress-bar", "off",
           "--disable-pip-version-check"]
    subprocess.run([*pip, *REQUIREMENTS], check=True)
    subprocess.run([*pip, "-e", str(root)], check=True)
    stamp.write_text(wanted(root), encoding="utf-8")
    return venv_python(venv)


def versions(python: Path) -> dict[str, str]:
    """The installed versions of smolagents and openai in the venv of `python`."""
    script = "import importlib.metadata as m; print(m.version('smolagents'), m.version('openai'))"
    found = subprocess.run([str(python), "-c", script], capture_output=True, text=True, check=True).stdout.split()
    return dict(zip(("smolagents", "openai"), found, strict=True))
