"""A project's standing instructions: `AGENTS.md` at the workspace's root (the convention of openai-agents, deepagents
and most coding agents), or the file `--instructions` names, read into every prompt of a run as the user's own
words, after the agent's role. They are prompt text only: no permission, budget or setting is read from them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigurationError

FILE_NAME = "AGENTS.md"
MAX_CHARS = 8000  # of the file kept; a longer one is cut, with one warning


@dataclass(frozen=True)
class ProjectInstructions:
    """The instructions' text (cut to MAX_CHARS), where it came from, and how long the file was."""

    source: str
    text: str
    chars: int  # of the whole file

    @property
    def cut(self) -> bool:
        return self.chars > len(self.text)

    def warning(self) -> str:
        """The one line a cut file is worth; empty for one read whole."""
        return (f"{self.source} has {self.chars:,} characters: only its first {MAX_CHARS:,} are given to the model"
                if self.cut else "")

    def record(self) -> dict[str, object]:
        """What a transcript keeps of them."""
        return {"source": self.source, "text": self.text, "chars": self.chars}


def read_instructions(workspace: Path, given: Path | None = None) -> ProjectInstructions | None:
    """The instructions of `given` (a file that must be readable), else the workspace's AGENTS.md where there is
    one; None where there are none, or the file holds nothing but blanks."""
    path = given if given is not None else workspace / FILE_NAME
    if given is None and not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigurationError(f"cannot read the project instructions {path}: {err}") from err
    text = text.strip()
    if not text:
        return None
    return ProjectInstructions(str(path), text[:MAX_CHARS].rstrip(), len(text))
