"""The code blocks of README.md and docs/**/*.md, as tests/test_docs_examples.py runs them.

A fence's info string is the language, then optional attributes: ```bash title="not run: builds llama.cpp"```
marks a block the tests cannot run (mkdocs-material shows the title above the block, so readers see it too),
```python title="my_tools.py"``` is that file: it is written to the example's folder before it runs, and
```bash title="slow: starts a local Ray instance"``` runs with the slow tests only, and
```python title="run by tests/test_docs.py (needs espeak-ng)"``` is run by that test file, not here. A ```console
block's commands are its `$ ` lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = {"python": "python", "py": "python", "bash": "bash", "sh": "bash", "shell": "bash", "console": "bash"}
SHOWN = {"json", "jsonl", "text", "toml", "mermaid", "ini", "dotenv", "env", "yaml", "html", "svg"}  # output, shapes
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})(?P<info>.*)$")
_TITLE = re.compile(r'title="(?P<title>[^"]*)"')
_FILE_NAME = re.compile(r"^[\w.-]+\.\w+$")


@dataclass(frozen=True)
class Block:
    """One fenced code block: where it is, its language and title, and its code."""

    path: Path
    line: int
    lang: str
    title: str
    code: str

    @property
    def where(self) -> str:
        """`docs/tools.md:42`, for messages."""
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{self.line}"

    @property
    def not_run(self) -> str:
        """Why the block is not run ('' when it is)."""
        return self.title.removeprefix("not run:").strip() if self.title.startswith("not run:") else ""

    @property
    def run_by(self) -> str:
        """The test file that runs this block instead ('' when none does)."""
        return self.title.removeprefix("run by ").split()[0] if self.title.startswith("run by ") else ""

    @property
    def slow(self) -> bool:
        """True for a block that runs only with the slow tests."""
        return self.title.startswith("slow:")

    @property
    def file_name(self) -> str:
        """The file this block is, when its title names one ('' otherwise)."""
        return self.title if _FILE_NAME.match(self.title) else ""

    @property
    def runs(self) -> bool:
        """True for an example the tests execute."""
        return self.lang in RUN and not self.not_run and not self.run_by


def doc_files() -> list[Path]:
    """README.md and every page under docs/ (new pages are picked up without a change here)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of one Markdown file, in order."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, ticks, info = opening["indent"], opening["ticks"], opening["info"].strip()
        body: list[str] = []
        index += 1
        while index < len(lines) and lines[index].strip() != ticks:
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        lang = info.split(" ", 1)[0].split("{", 1)[0].lower() if info else ""
        title = _TITLE.search(info)
        start = index - len(body)
        if lang == "console":  # a terminal session: run the commands after its prompts, not the output shown
            body = [line.removeprefix("$ ") for line in body if line.startswith("$ ")]
        found.append(Block(path, start, lang, title["title"] if title else "", "\n".join(body) + "\n"))
        index += 1
    return found


def all_blocks() -> list[Block]:
    """Every block of every documentation file."""
    return [block for path in doc_files() for block in blocks(path)]
