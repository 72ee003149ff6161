"""No benchmark task text in the code: a task's words in a docstring, comment, example or template tune the agent to
the benchmark. Fails when 5 consecutive words (8 consecutive CJK characters), case and punctuation aside, of any task
of the suite, the held-out sets or the fresh sets fresh1 to fresh7 (bench/sets/*.toml) stand in a file under
autoagent/, tools/ or prompts/. `python tests/test_no_task_text.py` lists those hits, and the fresh sets' runs found in
tests/ (tests may use the older sets' texts, not the fresh ones').
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bench.tasksets import load_set

ROOT = Path(__file__).resolve().parent.parent
CODE_DIRS = ("autoagent", "tools", "prompts")
WORDS = 5  # a run of this many words is the task's, not a common phrase
CJK_CHARS = 8
HIDDEN = {"fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7"}  # a failure names no text of these: unseen
SCANNED = ("main", "heldout1", "heldout2", "heldout3", "heldout4", *(f"fresh{n}" for n in range(1, 8)))

_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_APOSTROPHE = re.compile(r"(?<=\w)['\u2019](?=\w)")  # "don't" is one word


class TaskText(Protocol):
    """What this test reads of a bench task."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...


Suites = Mapping[str, Sequence[TaskText]]
Runs = dict[tuple[str, ...], tuple[str, str]]  # a run of words -> (set, task id)


@dataclass(frozen=True)
class Token:
    """One word (or one CJK character) of a text, and the line it stands on."""

    word: str
    line: int
    cjk: bool


@dataclass(frozen=True)
class Hit:
    """A run of a task's words found in a file."""

    path: str
    line: int
    suite: str
    task: str
    words: str

    def describe(self) -> str:
        """One line for the failure message; a hidden set's task is named by its set only."""
        if self.suite in HIDDEN:
            return f"{self.path}:{self.line}: a {self.suite} task"
        return f"{self.path}:{self.line}: {self.suite}/{self.task}: {self.words!r}"


def tokenize(text: str) -> list[Token]:
    """The words and CJK characters of `text`, lowercased; punctuation and spacing dropped."""
    tokens: list[Token] = []
    for number, line in enumerate(_APOSTROPHE.sub("", text.lower()).splitlines(), start=1):
        tokens.extend(Token(m.group(), number, bool(_CJK.fullmatch(m.group()))) for m in _TOKEN.finditer(line))
    return tokens


def runs(tokens: list[Token]) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(start index, words) of each run of WORDS words, or of CJK_CHARS CJK characters, in `tokens`."""
    for size, cjk in ((WORDS, False), (CJK_CHARS, True)):
        for start in range(len(tokens) - size + 1):
            window = tokens[start : start + size]
            if all(token.cjk == cjk for token in window):
                yield start, tuple(token.word for token in window)


def load_suites() -> Suites:
    """Every benchmark task set this test guards, by name."""
    return {name: load_set(name).tasks for name in SCANNED}


def task_runs(suites: Suites) -> Runs:
    """Each run of words of a task's text, and its task; the first set listed keeps a run two sets share."""
    found: Runs = {}
    for suite, tasks in suites.items():
        for task in tasks:
            for _, words in runs(tokenize(task.text)):
                found.setdefault(words, (suite, task.id))
    return found


def scan(path: Path, known: Runs, root: Path = ROOT) -> list[Hit]:
    """The task runs in one file; overlapping runs of one task make one hit."""
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return []
    tokens = tokenize(text)
    spans: dict[tuple[str, str, bool], list[list[int]]] = {}  # (set, task, CJK) -> [start, end) of merged runs
    for start, words in runs(tokens):
        owner = known.get(words)
        if owner is not None:
            merged = spans.setdefault((*owner, tokens[start].cjk), [])
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], start + len(words))
            else:
                merged.append([start, start + len(words)])
    relative = path.relative_to(root).as_posix()
    hits = []
    for (suite, task, cjk), merged in spans.items():
        for first, end in merged:
            shared = ("" if cjk else " ").join(token.word for token in tokens[first:end])
            hits.append(Hit(relative, tokens[first].line, suite, task, shared))
    return sorted(hits, key=lambda hit: hit.line)


def files_under(*dirs: str) -> Iterator[Path]:
    """The text files under `dirs` (compiled caches left out)."""
    for name in dirs:
        for path in sorted((ROOT / name).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".so"}:
                yield path


def hits_in(dirs: tuple[str, ...], known: Runs) -> list[Hit]:
    """Every hit of the `known` task runs in the files under `dirs`."""
    return [hit for path in files_under(*dirs) for hit in scan(path, known)]


def fresh_runs(suites: Suites) -> Runs:
    """The runs of the fresh sets' tasks that no older set's task has (tests may use those)."""
    older = task_runs({name: tasks for name, tasks in suites.items() if not name.startswith("fresh")})
    fresh = task_runs({name: tasks for name, tasks in suites.items() if name.startswith("fresh")})
    return {words: owner for words, owner in fresh.items() if words not in older}


def test_code_holds_no_task_text() -> None:
    """A 5-word run of a task in autoagent/, tools/ or prompts/ is named with its file and line."""
    found = [hit.describe() for hit in hits_in(CODE_DIRS, task_runs(load_suites()))]  # a hidden set's words unshown
    assert not found, "benchmark task text in the code:\n" + "\n".join(found)


@dataclass(frozen=True)
class _Task:
    """A task as the bench sets hold one, for the sample below."""

    id: str
    text: str


def test_runs_are_found_across_case_punctuation_and_lines_and_a_hidden_set_is_not_quoted(tmp_path: Path) -> None:
    known = task_runs({"main": [_Task("sum", "Add 3 and 4, then write the Sum to out.txt."),
                                _Task("zh", "今天天气很好我们去公园散步吧")],
                       "fresh2": [_Task("move", "Rename the old folder to new-folder please")]})
    sample = tmp_path / "sample.py"
    sample.write_text("# e.g. add 3 AND 4 -- then\n# write the sum\nx = 1  # 今天天气很好，我们去公园\n"
                      "rename the old folder to it\nadd 3 and 4 then stop\n", encoding="utf-8")
    hits = scan(sample, known, tmp_path)
    assert [(hit.line, hit.task, hit.words) for hit in hits] == [
        (1, "sum", "add 3 and 4 then write the sum"), (3, "zh", "今天天气很好我们去公园"),
        (4, "move", "rename the old folder to"), (5, "sum", "add 3 and 4 then")]
    assert hits[2].describe() == "sample.py:4: a fresh2 task"


if __name__ == "__main__":  # list every hit, and the fresh sets' runs in tests/: python tests/test_no_task_text.py
    everything = load_suites()
    for found in hits_in(CODE_DIRS, task_runs(everything)):
        print(found.describe())
    print("-- fresh task text in tests/ --")
    this = Path(__file__).resolve()
    for found in hits_in(("tests",), fresh_runs(everything)):
        if ROOT / found.path != this:
            print(found.describe())
