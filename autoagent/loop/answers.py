"""What counts as a final answer: not the reply format's JSON, a call written out, a copied note or the task
itself (the last good observation stands in for those); and a call that only restates the last result, which is
the model saying it is done."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import json_repair

from ..acting.fence import fence_tags, unfenced
from ..reply import FINISH, Action, ThoughtAndAction
from ..steps import Step, ran

FORMAT_KEYS = {"thought", "action"}  # the reply format's own keys: an answer holding them is not an answer
_ECHO = re.compile(r"^(FINISH\b|Action\s*:|Step \d+\.)", re.I)  # a line of the reply format or the steps, copied
_ACTION_LINE = re.compile(r"^\s*Action(?:\s+Input)?\s*:", re.M | re.I)  # a ReAct action line, copied into an answer
_WRITTEN_CALL = re.compile(r"([A-Za-z_]\w*)\s*(?:\(.*\)|\{.*\})?", re.S)  # a tool's name, maybe with its arguments
_FENCE = re.compile(r"^```[\w-]*\s*|\s*```$")
MIN_COPIED_CHARS = 12  # an answer this long found whole in the prompt's own words is a copy of them
COPIED_RUN_CHARS, COPIED_RUN_STEP = 40, 8  # a run of the prompt's words this long in an answer is a copy of them


def is_format_json(text: str) -> bool:
    """True when `text` is the reply format (its JSON, an action line, a step copied), not an answer for people."""
    stripped = _FENCE.sub("", text.strip()).strip()
    if _ECHO.match(stripped):
        return True
    if not stripped.startswith("{"):
        return False
    try:
        data = json_repair.loads(stripped)
    except (ValueError, RecursionError):
        return False
    if isinstance(data, list):
        data = next((item for item in data if isinstance(item, dict)), {})
    return isinstance(data, dict) and bool(FORMAT_KEYS & set(data))


def echoes_result(action: Action, steps: Sequence[Step]) -> bool:
    """True when the one argument of `action` only restates the last good result (calculator("7006669") right
    after 7006669): a small model's way of saying it is done, taken as a finish."""
    last = _plain(answer_from_observations(steps))
    values = list(action.args.values())
    return bool(last) and len(values) == 1 and isinstance(values[0], (str, int, float)) \
        and not isinstance(values[0], bool) and _plain(str(values[0])) == last


def _plain(text: str) -> str:
    """A value as compared with a result: no blanks around it, no thousands separators."""
    return text.strip().replace(",", "")


def as_finish(decision: ThoughtAndAction) -> ThoughtAndAction:
    """`decision` with its action taken as FINISH (its thought kept), for a call that says the task is done."""
    return decision.model_copy(update={"action": Action(name=FINISH, args={})})


def answer_from_observations(steps: Sequence[Step]) -> str:
    """The last successful tool observation: what the run found, when no answer could be written."""
    good = [step for step in ran(steps) if step.success and step.observation.strip()]
    return unfenced(good[-1].observation).strip() if good else ""


def is_answer(text: str, steps: Sequence[Step], scaffold: str = "", task: str = "") -> bool:
    """False when `text` is no answer: empty, the reply format's JSON, a call written out, a fence's note copied
    from a tool result, a sentence copied whole from `scaffold` (the prompt's own words), or the `task` itself."""
    text = text.strip()
    tags = {tag for step in ran(steps) for tag in fence_tags(step.observation)}
    copied = (len(text) >= MIN_COPIED_CHARS and text.rstrip("。.") in scaffold) or copies_of(scaffold, text) or (
        bool(task) and _words(text) == _words(task.strip().split("\n\n")[0]))
    tools = {step.action.name for step in ran(steps) if step.action is not None}
    return bool(text) and not is_format_json(text) and not writes_a_call(text, tools) \
        and not any(tag in text for tag in tags) and not copied


def copies_of(scaffold: str, text: str) -> bool:
    """True when `text` holds a long run of the prompt's own words (`scaffold`, its placeholders aside): the model
    copied its instructions ("The final answer is: state the result itself ...") instead of answering."""
    scaffold, text = scaffold.lower(), text.lower()
    for start in range(0, max(0, len(scaffold) - COPIED_RUN_CHARS), COPIED_RUN_STEP):
        run = scaffold[start:start + COPIED_RUN_CHARS]
        if "{" not in run and "}" not in run and run in text:
            return True
    return False


def writes_a_call(text: str, tools: Collection[str]) -> bool:
    """True when `text` is a tool call written out, not an answer: an "Action:" line anywhere, or a tool's name
    alone or with its arguments ("current_datetime", "read_file({"path": "config.txt"})")."""
    if _ACTION_LINE.search(text):
        return True
    call = _WRITTEN_CALL.fullmatch(text.strip())
    return call is not None and call.group(1) in tools


def _words(text: str) -> str:
    """`text` compared as words: case, blanks and end punctuation aside."""
    return " ".join(text.lower().split()).rstrip("。.?\uff1f!\uff01")

