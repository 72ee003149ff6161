"""The results file of a batch: one JSON line per task that ran, appended and synced as each finishes, so a killed
batch loses at most the tasks that were running; a re-run reads it to skip the tasks already done. One batch at a
time holds it (`hold_results`): a second one on the same file would run every task again, in the same workspaces."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .. import json_input
from ..errors import ConfigurationError
from ..paths import private_file
from ..redact import redacted

RETRIED = ("error",)  # a task that ended on an error (a server down, a missing key) runs again on a re-run


def result_done(record: dict[str, Any]) -> bool:
    """Whether a result line settles its task: any outcome but an error."""
    return record.get("stop_reason") not in RETRIED


class ResultsInUseError(ConfigurationError):
    """Another batch is writing to this results file now."""


@contextlib.contextmanager
def hold_results(path: Path) -> Iterator[None]:
    """Hold the results file for this batch (an exclusive lock on it, which the kernel lets go of however the batch
    ends); ResultsInUseError at once when another batch holds it."""
    try:
        descriptor = os.open(private_file(path), os.O_RDONLY)
    except OSError as err:
        raise ConfigurationError(f"the results file {path} cannot be written: {err}") from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ResultsInUseError(f"another autoagent batch is writing its results to {path} now: wait until it "
                                    "ends, or give this one another --out") from None
        yield
    finally:
        os.close(descriptor)


def results_held(path: Path) -> bool:
    """Whether a batch is writing to the results file now (it holds the file's lock)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)  # closing it lets go of a lock taken here
    return False


def read_results(path: Path) -> list[dict[str, Any]]:
    """The result lines already in `path` (none when it does not exist); a line torn by a killed batch is skipped."""
    if not path.exists():
        return []
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as err:
        raise ConfigurationError(f"the results file {path} cannot be read: {err}") from None
    records = []
    for line in lines:
        try:
            record = json_input.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            records.append(record)
    return records


def done_ids(records: list[dict[str, Any]]) -> set[str]:
    """The ids a re-run skips: each settled by its latest line."""
    latest = {record["id"]: record for record in records}
    return {task_id for task_id, record in latest.items() if result_done(record)}


class ResultsWriter:
    """Appends one JSON line per finished task to the results file, flushed and synced at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            private_file(path)  # the tasks' answers: the user's alone (0600), as transcripts are
            with path.open("ab+") as raw:  # a line torn by a killed batch is ended, so the next one starts clean
                torn = raw.seek(0, os.SEEK_END) > 0 and raw.seek(-1, os.SEEK_END) >= 0 and raw.read(1) != b"\n"
            self._file: IO[str] = path.open("a", encoding="utf-8")
        except OSError as err:
            raise ConfigurationError(f"the results file {path} cannot be written: {err}") from None
        if torn:
            self._file.write("\n")

    def write(self, record: dict[str, Any]) -> None:
        """Append `record` as one line (every secret in force redacted), on disk before this returns."""
        self._file.write(json.dumps(redacted(record), ensure_ascii=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file."""
        self._file.close()
