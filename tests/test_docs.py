"""The docs' Python examples run as written, and print what their comments say they print."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PYTHON_BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)  # after an info string
PRINTED = re.compile(r"^\s*print\(.*\)\s+# (.+)$", re.MULTILINE)  # `print(x)  # what it prints`


def python_blocks(page: str) -> list[str]:
    """The ```python blocks of a docs page, in order."""
    return PYTHON_BLOCK.findall((DOCS / page).read_text(encoding="utf-8"))


def run_blocks(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Run each block of `page` in the current directory; each prints the lines its comments give."""
    for number, block in enumerate(python_blocks(page), 1):
        exec(compile(block, f"{page} block {number}", "exec"), {"__name__": f"docs_block_{number}"})
        assert capsys.readouterr().out.splitlines() == PRINTED.findall(block), f"{page} block {number}"


def test_the_speech_page_has_examples_that_compile() -> None:
    blocks = python_blocks("speech.md")
    assert len(blocks) == 2
    for block in blocks:
        compile(block, "speech.md", "exec")


@pytest.mark.slow
def test_the_speech_page_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    from .test_speech_slow import MIN_RMS, MIN_SECONDS, _missing, measure

    missing = _missing()
    if missing is not None:
        pytest.skip(missing)
    monkeypatch.chdir(tmp_path)
    run_blocks("speech.md", capsys)
    for name in ("weather.wav", "answer.wav"):
        seconds, rms = measure(tmp_path / name)
        assert seconds > MIN_SECONDS and rms > MIN_RMS
