"""The README's terminal picture is what docs/scripts/make_screenshot.py draws now, numbers aside."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PICTURE = ROOT / "docs/assets/run.svg"


def shown_text(svg: str) -> list[str]:
    """The picture's text, one item per text element, with every number written N (times, token counts)."""
    texts = (html.unescape(text).replace("\xa0", " ") for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    return [re.sub(r"\d[\d,.]*", "N", text) for text in texts if text.strip()]


def test_the_committed_picture_is_what_the_script_draws_now(tmp_path: Path) -> None:
    fresh = tmp_path / "run.svg"
    subprocess.run([sys.executable, str(ROOT / "docs/scripts/make_screenshot.py"), str(fresh)], check=True,
                   cwd=tmp_path, timeout=120)
    drawn = fresh.read_text(encoding="utf-8")
    assert "372" in drawn and "result.txt" in drawn and "finished" in drawn
    assert shown_text(PICTURE.read_text(encoding="utf-8")) == shown_text(drawn), "run `make docs-screenshot`"
