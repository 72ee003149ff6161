"""`autoagent batch` and an untrusted tasks file: budgets at most the command line's, models the command line
allows, values the command line would accept, and workspaces and results readable by the user alone."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from click.testing import CliRunner

from autoagent.cli import cli
from autoagent.commands import exit_codes as codes

from .batch_fakes import read_lines
from .cli_backend import FakeBackend
from .scripted import act

SUM = [act("calculator", expression="6*7"), act("FINISH"), "42"]


def batch(*args: str) -> tuple[int, str]:
    """`autoagent batch ...` in this process: the exit code and stderr."""
    result = CliRunner().invoke(cli, ["batch", *args], catch_exceptions=False)
    return result.exit_code, result.stderr


def write_tasks(path: Path, *settings: dict[str, object]) -> Path:
    """A tasks file of one task per settings object, ids t1, t2, ..."""
    path.write_text("".join(json.dumps({"id": f"t{number}", "task": "What is 6 * 7?", "settings": values}) + "\n"
                            for number, values in enumerate(settings, start=1)))
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_workspaces_and_results_are_the_users_alone(backend: FakeBackend, tmp_path: Path,
                                                    isolated_home: Path) -> None:
    backend.replies.extend(SUM)
    tasks = write_tasks(tmp_path / "tasks.jsonl", {})
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.OK, err
    [record] = read_lines(tmp_path / "out.jsonl")
    workspace = Path(record["workspace"])
    assert [mode(folder) for folder in (isolated_home / "batch", workspace.parent, workspace)] == [0o700] * 3
    assert mode(tmp_path / "out.jsonl") == 0o600
