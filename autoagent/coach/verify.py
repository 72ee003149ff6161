"""A run earns "finished": a finish that no result supports is sent back (what counts as an answer at all is in
answers.py, the writes a run makes are questioned in writes.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch

from ..action_schema import FILE_NAME as _FILE_NAME
from ..action_schema import PATH_ARG
from ..steps import Step, StepKind, StopReason, ran
from .request import RELATIVE_DAY, THOUSANDS, read_request
from .rules import Rule
from .written_dates import unshown_dates

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
STRUCTURAL = frozenset({0.0, 1.0, 2.0})  # in a call's arguments: `row[1]`, `range(0, n)`, `round(x, 2)`, `x ** 2`
# A figure in a call's arguments; digits that end a name are none (utf-8, sha256, row2, report-2025.csv)
_FIGURE = re.compile(r"(?<![A-Za-z0-9_])(?<![A-Za-z_]-)\d+(?:\.\d+)?")
_DOTTED = re.compile(r"\d+(?:\.\d+)*")  # a number, or a run of them joined by dots (a version: 2.7.1)
_STATED = re.compile(r"(?<![A-Za-z0-9_.\-/])\d+(?:\.\d+)*(?![A-Za-z0-9_])(?!\.[A-Za-z])")  # in an answer
_BARE = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")  # an expression that is one number: nothing worked out
_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")  # a tool's result that shows a date ("2026-12-11T12:22")
OPERAND = r"\(?\s*-?\d+(?:\.\d+)?\s*\)?"
_CLAIM = re.compile(rf"({OPERAND}(?:\s*[-+*/^\u00d7\u00f7]\s*{OPERAND})+)\s*=\s*-?\d")  # "12 + 30 + 58 = 110"


@dataclass(frozen=True)
class Objection:
    """Why an action is not taken as it stands: the rule, and the variables of the note the model reads."""

    rule: Rule
    variables: dict[str, str]
    ends: StopReason | None = None  # the model was already told once: the run ends unfinished, for this reason

    @property
    def template(self) -> str:
        """The template of the note the model reads."""
        return self.rule.template

    @property
    def detail(self) -> str:
        """Why the run ended, for people (empty when it goes on)."""
        if self.ends is StopReason.STEP_FAILED:
            return "the model finished, but no tool it ran succeeded"
        if self.ends is StopReason.UNVERIFIED and self.rule is Rule.UNUSED_MENTIONS:
            return f"the task gives {self.variables.get('items', '')}, which no step used"
        if self.ends is StopReason.UNVERIFIED and self.rule is Rule.UNGROUNDED_ANSWER:
            return f"it states what no tool result shows: {self.variables.get('items', '')}"
        if self.ends is StopReason.UNVERIFIED and self.rule is Rule.CHOSEN_FILES:
            return f"it chose files the request does not name: {self.variables.get('items', '')}"
        if self.ends is StopReason.UNVERIFIED and self.rule is Rule.FILE_CLAIM:
            return f"the answer says of {self.variables.get('items', '')} what no step made so"
        if self.ends is StopReason.UNVERIFIED:
            return self.variables.get("items", "")
        return ""


def object_to_finish(task: str, steps: Sequence[Step], raised: Collection[Rule]) -> Objection | None:
    """Why finishing now is not earned, each reason said once a run (`raised`: the ones already said): no tool
    has succeeded; the tool just run failed; a number or file name the task gives was never used. A finish after
    that stands, except when tools ran and none succeeded, or something the task gives is still unused: then the
    task was plainly not done, and the run ends unfinished."""
    actions = ran(steps)
    succeeded = [step for step in actions if step.success]
    if not succeeded:
        if Rule.PREMATURE_FINISH not in raised:
            return Objection(Rule.PREMATURE_FINISH, {})
        return Objection(Rule.PREMATURE_FINISH, {}, ends=StopReason.STEP_FAILED) if actions else None
    if not actions[-1].success and steps[-1].kind is StepKind.ACTION and Rule.FAILED_FINISH not in raised:
        return Objection(Rule.FAILED_FINISH, {"number": str(actions[-1].number)})
    unused = unused_mentions(task, succeeded)
    if unused:  # said once; a second finish leaving it unused ends the run unfinished, not "finished"
        ends = StopReason.UNVERIFIED if Rule.UNUSED_MENTIONS in raised else None
        return Objection(Rule.UNUSED_MENTIONS, {"items": ", ".join(unused)}, ends=ends)
    return None


def mentions(task: str) -> list[str]:
    """The numbers, file names, folders ("archive/"), kinds of file ("*.tmp") and days counted from today
    ("tomorrow") a task's request gives (its first paragraph: what follows may be context, such as the REPL's
    earlier exchanges), in order, each once."""
    return list(read_request(task).mentions)


def is_percent(item: str) -> bool:
    """True for a number the request writes as a percentage, as `mentions` gives it ("15%")."""
    return item.endswith("%")


def is_pattern(item: str) -> bool:
    """True for every file of a kind the request names, as `mentions` writes it ("*.tmp")."""
    return item.startswith("*.")


def counted_day(item: str) -> bool:
    """True for a day counted from today, as `mentions` gives it ("two weeks from today", "明天")."""
    return bool(RELATIVE_DAY.fullmatch(item))


def is_folder(item: str) -> bool:
    """True for a folder the task names, as `mentions` writes it ("archive/")."""
    return item.endswith("/")


def pending_mentions(task: str, steps: Sequence[Step]) -> tuple[str, ...]:
    """Once a tool has worked: what the task gives that no successful action has used yet (shown to the model
    before it decides, so a task in parts is not finished after its first part)."""
    succeeded = [step for step in ran(steps) if step.success]
    return tuple(unused_mentions(task, succeeded)) if succeeded else ()


def named_tools(text: str, tools: Collection[str]) -> list[str]:
    """The tools of `tools` that `text` (a tool's error) names as whole words, in order of first mention."""
    found = []
    for name in tools:
        match = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text)
        if match is not None:
            found.append((match.start(), name))
    return [name for _, name in sorted(found)]


def claimed_calculation(answer: str) -> str | None:
    """The arithmetic an answer works out in its own words ("12 + 30 + 58 = 110" gives "12 + 30 + 58"), so a
    tool can check it; None when it shows none."""
    match = _CLAIM.search(answer.replace(",", ""))
    if match is None:
        return None
    return " ".join(match.group(1).replace("\u00d7", "*").replace("\u00f7", "/").split())


def unused_mentions(task: str, succeeded: Sequence[Step]) -> list[str]:
    """What the task gives that no successful action took as an argument: a part of the task not yet done. An
    expression that is a bare number ("26") works nothing out: it takes nothing."""
    succeeded = [step for step in succeeded if not _bare(step)]
    used = " ".join(json.dumps(step.action.args, ensure_ascii=False).lower() for step in succeeded
                    if step.action is not None)
    numbers = {float(number) for number in _NUMBER.findall(THOUSANDS.sub("", used))}
    paths = [value for step in succeeded if step.action is not None for value in _places(step.action.args)]
    dated = " ".join(json.dumps(step.action.args) for step in succeeded  # calls that gave a date
                     if step.action is not None and _DATE.search(step.observation))
    unused = [item for item in mentions(task) if not _used(item, used, paths, numbers)
              and not _dated(item, dated)]
    return [item for item in unused if item not in worked_out(unused, numbers)]


def _bare(step: Step) -> bool:
    """Whether `step` called a tool with an expression that is only a number (calculator("26"))."""
    expression = step.action.args.get("expression") if step.action is not None else None
    return isinstance(expression, str) and _BARE.fullmatch(expression) is not None


def _dated(item: str, dated: str) -> bool:
    """Whether a day counted from today in numbers ("10 days from today", "3天后") was taken, in other words, by a
    call that gave a date: its number is in that call's arguments ("today + 10 days")."""
    count = _NUMBER.search(item)
    return bool(count and RELATIVE_DAY.fullmatch(item) and re.search(rf"(?<![\d.]){count[0]}(?![\d.])", dated))


def _used(item: str, used: str, paths: Sequence[str], numbers: Collection[float]) -> bool:
    """Whether a successful call took `item`: a folder or file name as (a whole part of) a place it works on, a
    number as a whole figure in its arguments (`numbers`: the 20 of "20 November" is not in "2026-11-01"), a word
    anywhere in them (`used`, lower case), a percentage as one ("15%", "0.15", or 15 beside a division by 100:
    "5030 * 15 / 100", not "5030 + 15")."""
    if is_percent(item):
        share = item[:-1]
        return float(share) / 100 in numbers or (float(share) in numbers and 100.0 in numbers) or bool(
            re.search(rf"(?<![\d.]){re.escape(share)}\s*(?:%|percent)", used))
    if is_folder(item):
        return _folder_in(item, paths)
    if is_pattern(item):
        return any(item.lower() in path.lower() or fnmatch(path.strip().lower(), item.lower()) for path in paths)
    if _FILE_NAME.fullmatch(item):
        return any(item.lower() in path.lower() for path in paths)
    if _NUMBER.fullmatch(item):
        return float(item) in numbers
    return item.lower() in used


def _places(args: dict[str, object]) -> list[str]:
    """The path-like arguments of a call (a file name in the text it writes is no use of that file); every string
    argument of a tool that takes no path."""
    strings = {key: value for key, value in args.items() if isinstance(value, str)}
    places = [value for key, value in strings.items() if PATH_ARG.search(key)]
    return places if places else list(strings.values())


def _folder_in(folder: str, values: Sequence[str]) -> bool:
    """True when one of `values` is a path with `folder` ("archive/") as a whole part: "archive",
    "archive/notes.txt", not "archive.txt"."""
    part = re.compile(rf"(?:^|[/\\]){re.escape(folder.rstrip('/'))}(?:[/\\]|$)", re.I)
    return any(part.search(value.strip()) for value in values)


def worked_out(given: Sequence[str], values: Collection[float]) -> set[str]:
    """The given numbers an argument used in a value worked out from them: one of two combined ("4070" for 1650
    + 2420), or one as a percentage ("0.15" for 15%)."""
    numbers = [(item, float(item)) for item in given if _NUMBER.fullmatch(item)]
    found = {item for item, value in numbers if any(_same(value / 100, seen) for seen in values)}
    values = [seen for seen in values if not any(_same(value / 100, seen) for _, value in numbers)]  # explained
    for index, (first, a) in enumerate(numbers):
        for second, b in numbers[index + 1:]:
            results = [a + b, a - b, b - a, a * b, *([a / b] if b else []), *([b / a] if a else [])]
            if any(_same(result, seen) for result in results for seen in values):
                found |= {first, second}
    return found


def rounded(item: str, values: Collection[float]) -> bool:
    """Whether `item`, a number written with decimals, is one of `values` rounded to as many decimals ("406.62"
    for 406.6176…): the answer states a result, not a number of its own. A whole number is never taken as one
    rounded: "5" for 5.4 would ground too much."""
    places = len(item.partition(".")[2])
    if not places:
        return False
    stated, half = float(item), 0.5 * 10.0 ** -places
    return any(abs(value - stated) <= half * (1 + 1e-9) for value in values)


def _same(a: float, b: float) -> bool:
    """Two values equal up to rounding."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def object_to_answer(answer: str, known: str, steps: Sequence[Step], raised: Collection[Rule]) -> Objection | None:
    """Why a drafted final answer is not taken: it states a number that neither `known` (the task and the memories
    recalled for it) nor any tool result or argument shows, so it was worked out in the head. Said once; the
    second time the run ends unverified."""
    missing = ungrounded_numbers(answer, known, steps)
    if not missing:
        return None
    shown = " ".join(answer.split())
    ends = StopReason.UNVERIFIED if Rule.UNGROUNDED_ANSWER in raised else None
    return Objection(Rule.UNGROUNDED_ANSWER, {"answer": shown[:200], "items": ", ".join(missing)}, ends=ends)


def founded(known: str, steps: Sequence[Step]) -> list[Step]:
    """The calls that ran whose numbers came from somewhere: those whose arguments hold no number, or at least one
    that `known` (the request) or an earlier founded call shows. A call on numbers of its own (an example copied
    from a tool's description, a figure from the model's head) grounds nothing it gives."""
    seen = {float(number) for number in _NUMBER.findall(known.replace(",", ""))}
    calls = []
    for step in ran(steps):
        if step.action is None:
            continue
        taken = figures(step.action.args) - STRUCTURAL  # a program's index or step is no figure
        if taken and not taken & seen:
            continue
        calls.append(step)
        seen |= taken | {float(number) for number in _NUMBER.findall(step.observation.replace(",", ""))}
    return calls


def figures(value: object) -> set[float]:
    """The figures a call's arguments (`value`: a string, a number, or a list or mapping of them) hold; not the
    digits of a name (`encoding="utf-8"`, `sha256`, `row2`)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, (int, float)):
        return {float(value)}
    if isinstance(value, str):
        return {float(number) for number in _FIGURE.findall(value.replace(",", ""))}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return set().union(*(figures(item) for item in value))
    return set()


def ungrounded_numbers(answer: str, known: str, steps: Sequence[Step]) -> list[str]:
    """The numbers and days (in any form: see written_dates) `answer` states that appear nowhere in `known`, the
    results of the founded calls (see `founded`) or their arguments; a number with decimals may round one of
    them."""
    calls = founded(known, steps)
    evidence = " ".join([known, *(step.observation for step in calls),
                         *(json.dumps(step.action.args, ensure_ascii=False) for step in calls if step.action)])
    runs = _DOTTED.findall(evidence.replace(",", ""))
    values = {float(run) for run in runs if run.count(".") <= 1}
    dotted = {run for run in runs if run.count(".") > 1}  # a version or an address: "2.7.1" gives no 2.7 and no 1
    stated = dict.fromkeys(match.group(0) for match in _STATED.finditer(answer.replace(",", "")))
    dates = unshown_dates(answer, evidence)  # "7 December 2026" or "2026-12-07" for 2026-12-06

    def shown(item: str) -> bool:
        return item in dotted if item.count(".") > 1 else float(item) in values or rounded(item, values)

    return [item for item in stated if not shown(item)] + list(dict.fromkeys(dates))
