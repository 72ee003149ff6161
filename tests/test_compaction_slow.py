"""Compaction on the embedded model (`--compaction on`: auto leaves it off for a small model): a task whose answer is
what the first of about ten steps read is answered right with a window of 3 steps, the step that read it long out of
the window (a property of any good run: other CPUs give other tokens, so the test asks for the right answer, and says
how the run went)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]
CODE = "KX-4417"


def test_a_fact_read_first_is_answered_after_it_left_the_window(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "key.txt").write_text(f"The access code is {CODE}.\n", encoding="utf-8")
    for number in range(1, 8):
        (workspace / f"log{number}.txt").write_text(f"Day {number}: nothing to report.\n", encoding="utf-8")
    task = ("Read key.txt. Then read log1.txt, log2.txt, log3.txt, log4.txt, log5.txt, log6.txt and log7.txt, one at "
            "a time. Then answer: what is the access code that key.txt gave?")
    env = {key: value for key, value in os.environ.items() if not key.startswith("OPENAI_")}
    done = subprocess.run([sys.executable, "-m", "autoagent", "--model", "local", "--json", "--no-memory", "--yes",
                           "--workspace", str(workspace), "--memory-window", "3", "--max-steps", "12",
                           "--compaction", "on", task],
                          capture_output=True, text=True, env={**env, "AUTOAGENT_HOME": str(tmp_path / "home")},
                          timeout=1400)
    report = json.loads(done.stdout)
    read = [step["action"]["args"].get("path") for step in report["steps"]
            if step["action"] and step["action"]["name"] == "read_file"]
    print(f"\n[measure] compaction on the embedded model: {report['stop_reason']}, {len(report['steps'])} steps, "
          f"{report['usage']['calls']} model calls, {report['seconds']:.1f} s; read {read}; answer "
          f"{report['answer']!r}")
    assert CODE in report["answer"], report["answer"]
