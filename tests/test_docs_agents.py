"""docs/agents.md: its Python examples run as written, in order, in one namespace (so they cannot rot)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "agents.md"
_PYTHON = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def python_blocks(text: str) -> list[str]:
    """The page's ```python blocks, in order."""
    return _PYTHON.findall(text)


def test_the_agents_page_examples_run() -> None:
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    namespace: dict[str, object] = {"__name__": "docs_agents"}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"{DOC.name} (python block {number})", "exec"), namespace)


def test_the_agents_file_on_the_page_is_a_valid_team(tmp_path: Path) -> None:
    from autoagent.subagents.team import load_agents_file

    toml = re.search(r"^```toml\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert toml is not None
    path = tmp_path / "team.toml"
    path.write_text(toml.group(1), encoding="utf-8")
    team = load_agents_file(path)
    assert team.entry.name == "router" and team.calls(team.entry) == ["dates", "math"]
