"""The task-success suite: ordinary tasks a user gives the agent, each with an objective check of the answer
and of the workspace afterwards.

A check never passes on an answer that only repeats the task's own numbers: every expected value is one the
task does not contain. Dates are checked against the real clock at check time.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

Check = Callable[[str, Path], str | None]  # (answer, workspace) -> None when right, else what is wrong


@dataclass(frozen=True)
class Task:
    """One task: its text, the files the workspace starts with, its language and its check."""

    name: str
    text: str
    check: Check
    files: dict[str, str] = field(default_factory=dict)
    lang: str = "en"


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    """Every number written in `text` ("7,006,669" and "177.50" included)."""
    found = []
    for match in _NUMBER.findall(text):
        try:
            found.append(float(match.replace(",", "")))
        except ValueError:
            continue
    return found


def says_number(value: float) -> Check:
    """The answer states `value`."""

    def check(answer: str, workspace: Path) -> str | None:
        if any(abs(number - value) < 1e-6 for number in numbers_in(answer)):
            return None
        return f"answer does not state {value:g}"

    return check


def says_text(*needles: str) -> Check:
    """The answer mentions each needle (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        missing = [needle for needle in needles if needle.lower() not in answer.lower()]
        return f"answer does not mention {', '.join(missing)}" if missing else None

    return check


def file_holds(path: str, value: float | str, *, exact: bool = False) -> Check:
    """The workspace file `path` exists and holds `value` (a number it states, or a text it contains;
    `exact`: nothing else besides surrounding blanks and quotes)."""

    def check(answer: str, workspace: Path) -> str | None:
        target = workspace / path
        if not target.is_file():
            return f"{path} was not written"
        content = target.read_text(encoding="utf-8", errors="replace")
        if isinstance(value, str):
            got = content.strip().strip("'\"").strip()
            ok = got.lower() == value.lower() if exact else value.lower() in content.lower()
        else:
            ok = any(abs(number - value) < 1e-6 for number in numbers_in(content))
        return None if ok else f"{path} holds {content[:60]!r}"

    return check


def moved(source: str, destination: str, content: str) -> Check:
    """`source` is gone and `destination` holds its content."""

    def check(answer: str, workspace: Path) -> str | None:
        if (workspace / source).exists():
            return f"{source} is still there"
        target = workspace / destination
        if not target.is_file() or target.read_text(encoding="utf-8") != content:
            return f"{destination} does not hold the moved file"
        return None

    return check


def copied(source: str, destination: str, content: str) -> Check:
    """Both files exist and hold the original content."""

    def check(answer: str, workspace: Path) -> str | None:
        for path in (source, destination):
            target = workspace / path
            if not target.is_file() or target.read_text(encoding="utf-8") != content:
                return f"{path} does not hold the original content"
        return None

    return check


def deleted(path: str, *kept: str) -> Check:
    """`path` is gone and every file in `kept` is still there."""

    def check(answer: str, workspace: Path) -> str | None:
        if (workspace / path).exists():
            return f"{path} is still there"
        lost = [name for name in kept if not (workspace / name).exists()]
        return f"also lost {', '.join(lost)}" if lost else None

    return check


def both(*checks: Check) -> Check:
    """Every check passes."""

    def check(answer: str, workspace: Path) -> str | None:
        for one in checks:
            problem = one(answer, workspace)
            if problem:
                return problem
        return None

    return check


def _date_forms(day: dt.date) -> list[str]:
    """The ways an answer may write `day`."""
    month = day.strftime("%B")
    return [
        day.isoformat(),
        f"{day.year}/{day.month:02d}/{day.day:02d}",
        f"{day.month}/{day.day}/{day.year}",
        f"{day.month:02d}/{day.day:02d}/{day.year}",
        f"{month} {day.day}, {day.year}",
        f"{month} {day.day} {day.year}",
        f"{day.day} {month} {day.year}",
        f"{month[:3]} {day.day}, {day.year}",
        f"{day.year}年{day.month}月{day.day}日",
        f"{day.month}月{day.day}日",
    ]


RUN_DAY: list[dt.date] = []  # the day the task being checked ran on (success.py sets it): "today" is that day


def today() -> dt.date:
    """The day a check counts "today" from: the day the task ran, else the clock's (a run may end after midnight)."""
    return RUN_DAY[-1] if RUN_DAY else dt.date.today()


def says_date(days_from_today: int) -> Check:
    """The answer gives the date `days_from_today` days after today (the day the task ran)."""

    def check(answer: str, workspace: Path) -> str | None:
        day = today() + dt.timedelta(days=days_from_today)
        flat = " ".join(answer.split())
        if any(form.lower() in flat.lower() for form in _date_forms(day)):
            return None
        return f"answer does not give {day.isoformat()}"

    return check


def says_weekday(days_from_today: int) -> Check:
    """The answer names the weekday `days_from_today` days after today, and no other weekday."""

    def check(answer: str, workspace: Path) -> str | None:
        day = today() + dt.timedelta(days=days_from_today)
        named = {name for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
                 if name in answer.lower()}
        return None if named == {day.strftime("%A").lower()} else f"answer does not name {day.strftime('%A')}"

    return check


FIVE_LINES = "buy milk\ncall the bank\nbook flights\nwater the plants\nsend the invoice\n"

TASKS: list[Task] = [
    # arithmetic, one tool call
    Task("mul-add", "What is 1234 * 5678 + 17?", says_number(7006669)),
    Task("percent", "What is 15% of 2480?", says_number(372)),
    Task("sqrt", "What is the square root of 20736?", says_number(144)),
    Task("seconds", "How many seconds are there in 9 days?", says_number(777600)),
    Task("speed", "A train travels 342 km in 3 hours. What is its average speed in km per hour?", says_number(114)),
    Task("power", "What is 7 to the power of 6?", says_number(117649)),
    # arithmetic, two tool calls
    Task("chain-add", "Compute 123 * 45, then add 6789 to that result.", says_number(12324)),
    Task("chain-div", "Take 20% of 3550, then divide that amount by 4.", says_number(177.5)),
    Task("chain-pct", "Add 1250 and 3780, then take 15% of the sum.", says_number(754.5)),
    Task("chain-sub", "Multiply 48 by 37, then subtract 999 from the product.", says_number(777)),
    # a computed result written to a file
    Task("write-product", "Compute 345 * 12 and write the result into a file named result.txt.",
         file_holds("result.txt", 4140)),
    Task("write-power", "Calculate 2 to the power of 16 and save the number in power.txt.",
         file_holds("power.txt", 65536)),
    Task("write-word", "Write the word hello into a file named hi.txt.", file_holds("hi.txt", "hello", exact=True)),
    Task("write-note", "Save the text 'meeting at 10am' into a file called note.txt.",
         file_holds("note.txt", "meeting at 10am")),
    # a file read and its content used
    Task("read-sum", "Read numbers.txt and tell me the sum of the numbers in it.", says_number(100),
         files={"numbers.txt": "12\n30\n58\n"}),
    Task("read-price", "Read price.txt and compute the cost of 12 units at that unit price.", says_number(234),
         files={"price.txt": "The unit price is 19.5 dollars.\n"}),
    Task("read-motd", "What does the file motd.txt say?", says_text("maintenance", "friday"),
         files={"motd.txt": "Server maintenance on Friday night.\n"}),
    Task("read-port", "Read config.txt and tell me which port is configured.", says_number(8443),
         files={"config.txt": "host=example.org\nport=8443\nuser=admin\n"}),
    Task("read-write", "Read qty.txt, multiply the number in it by 7, and write the result to total.txt.",
         file_holds("total.txt", 91), files={"qty.txt": "13\n"}),
    # finding, counting, copying, renaming, moving, deleting
    Task("count-files", "How many files are in the workspace?", says_number(4),
         files={"a.txt": "alpha\n", "b.txt": "beta\n", "c.md": "gamma\n", "d.csv": "x,y\n"}),
    Task("find-word", "Which file in the workspace mentions an invoice?", says_text("bills.txt"),
         files={"notes.txt": "call mum\n", "bills.txt": "invoice 2231 due soon\n", "todo.txt": "buy milk\n"}),
    Task("list-csv", "Which CSV files are in the workspace?", says_text("sales.csv", "costs.csv"),
         files={"sales.csv": "q,amount\n", "costs.csv": "q,amount\n", "readme.md": "# data\n"}),
    Task("count-lines", "How many lines does the file todo.txt have?", says_number(5),
         files={"todo.txt": FIVE_LINES}),
    Task("copy", "Copy report.txt to report_backup.txt.", copied("report.txt", "report_backup.txt", "Q3 report\n"),
         files={"report.txt": "Q3 report\n"}),
    Task("rename", "Rename draft.txt to final.txt.", moved("draft.txt", "final.txt", "my draft\n"),
         files={"draft.txt": "my draft\n"}),
    Task("move", "Move notes.txt into the archive folder.", moved("notes.txt", "archive/notes.txt", "old notes\n"),
         files={"notes.txt": "old notes\n", "archive/keep.txt": "kept\n"}),
    Task("delete", "Delete the file old.log.", deleted("old.log", "app.log"),
         files={"old.log": "stale\n", "app.log": "fresh\n"}),
    # dates
    Task("date-10days", "What date is it 10 days from today?", says_date(10)),
    Task("date-today", "What is today's date?", says_date(0)),
    Task("weekday-tomorrow", "What day of the week will it be tomorrow?", says_weekday(1)),
    Task("date-after-tomorrow", "What date is the day after tomorrow?", says_date(2)),
    # Chinese, with --lang zh
    Task("zh-mul-add", "计算 1234 * 5678 + 17 的结果。", says_number(7006669), lang="zh"),
    Task("zh-write", "把 25 乘以 16 的结果写入文件 answer.txt。", file_holds("answer.txt", 400), lang="zh"),
    Task("zh-read-sum", "读取文件 data.txt，告诉我里面所有数字的和。", says_number(45),
         files={"data.txt": "5\n15\n25\n"}, lang="zh"),
    Task("zh-date", "10天后是几月几号", says_date(10), lang="zh"),
]


def prepare(task: Task, workspace: Path) -> None:
    """Lay out the task's starting files in an empty workspace."""
    workspace.mkdir(parents=True, exist_ok=True)
    for name, content in task.files.items():
        target = workspace / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
