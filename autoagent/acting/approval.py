"""Approvals: a side-effecting action runs only when the user allows it (or ran with --yes)."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from langchain_core.tools import BaseTool

from ..prompts import PromptTemplateBuilder
from ..text import escape_controls, shorten

# What the user reads (what the model reads when an action was not run is in prompts/<lang>/approval_*.templ).
ACTION_SHOWN = "\nThe agent wants to run {tool} with:\n{args}\n"
WHOLE_SHOWN = "\nThe whole action, {tool} with:\n{args}\n"
QUESTION = (
    "Allow? y = yes, y -N = yes to this and the next N actions, a = always allow {tool} (this session), n = no, "
    "{view}or type feedback for the agent: "
)
VIEW = "v = view it all, "  # offered when something was cut
CUT = "⟨... {count:,} more characters: answer v to see them⟩"
SPACES = "⟨{count:,} spaces⟩"
SHOWN_VALUE_CHARS = 2000  # a long argument (a file's content) is cut in the question; `v` shows it whole
_SPACE_RUN = re.compile(r"[ \u00a0\u2000-\u200b\u3000]{10,}")  # padding that would push text out of sight
_YES = {"y", "yes"}
_NO = {"n", "no"}
_ALWAYS = {"a", "always"}
_VIEW = {"v", "view", "show"}
_YES_TO_NEXT = re.compile(r"y(?:es)?\s*-\s*(\d+)")


def is_read_only(tool: BaseTool) -> bool:
    """Whether `tool` only reads: its metadata says `read_only: True` (or `side_effects: False`, as the
    built-in tools say). A tool with no such marking counts as side-effecting and asks: the safe default."""
    metadata = tool.metadata or {}
    return metadata.get("read_only") is True or metadata.get("side_effects") is False


@dataclass(frozen=True)
class Verdict:
    """Whether an action may run; when not, the model reads the template `refusal` instead, filled with the
    tool's name and the user's `feedback`."""

    allowed: bool
    refusal: str = "approval_denied"
    feedback: str = ""

    def explain(self, tool_name: str, prompts: PromptTemplateBuilder) -> str:
        """Why the action did not run, for the model, in the language of `prompts`."""
        return prompts.render(self.refusal, tool=tool_name, feedback=self.feedback).strip()


ALLOWED = Verdict(True)
DENIED = Verdict(False, "approval_denied")
NO_TERMINAL = Verdict(False, "approval_no_terminal")


def _shown(value: Any, whole: bool) -> Any:
    """`value` for the user's eyes: runs of spaces counted, not printed; long strings cut unless `whole`."""
    if isinstance(value, str):
        value = _SPACE_RUN.sub(lambda run: SPACES.format(count=len(run.group())), value)
        return value if whole else shorten(value, SHOWN_VALUE_CHARS, lambda count: CUT.format(count=count))
    if isinstance(value, dict):
        return {key: _shown(item, whole) for key, item in value.items()}
    if isinstance(value, list):
        return [_shown(item, whole) for item in value]
    return value


def show_args(args: dict[str, Any], *, whole: bool = False) -> str:
    """The arguments as indented JSON: every control character escaped, runs of spaces as `⟨280 spaces⟩`,
    and (unless `whole`) strings longer than SHOWN_VALUE_CHARS cut with a note."""
    return escape_controls(json.dumps(_shown(args, whole), ensure_ascii=False, indent=2, default=str))


def _is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is an open terminal someone can answer on."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # not a file, or closed
        return False


class Approver:
    """Asks the user before each side-effecting action; `auto_approve` (--yes) allows everything.

    Without a terminal to ask on, a side-effecting action is refused at once: never run silently, never a hang.
    """

    def __init__(
        self, auto_approve: bool = False, input_stream: TextIO | None = None, output_stream: TextIO | None = None
    ) -> None:
        self.auto_approve = auto_approve
        self._input = input_stream  # None: sys.stdin at the time of asking
        self._output = output_stream  # None: sys.stderr, so stdout stays for the answer
        self._approvals_left = 0  # from "y -N"
        self._always: set[str] = set()  # tools allowed for the rest of the session

    def would_ask(self, tool_name: str) -> bool:
        """Whether reviewing an action of `tool_name` now would ask the user (no policy or earlier answer allows
        it): a tool that can try read-only first then does, and is asked about only if it needs to write."""
        return not (self.auto_approve or tool_name in self._always or self._approvals_left > 0)

    def review(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        """Whether the action may run: by policy, by an earlier answer, or by asking the user now."""
        if self.auto_approve or tool_name in self._always:
            return ALLOWED
        if self._approvals_left > 0:
            self._approvals_left -= 1
            return ALLOWED
        return self.ask(tool_name, args)

    def ask(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        """The user's verdict on this action, asked now: on the terminal, refused when there is none (another
        front end, such as `autoagent serve`, asks its own way and judges the answer with `judge`)."""
        stream = self._input if self._input is not None else sys.stdin
        if not _is_terminal(stream):
            return NO_TERMINAL
        return self._ask(tool_name, args, stream)

    def _ask(self, tool_name: str, args: dict[str, Any], stream: TextIO) -> Verdict:
        """Show the action and read answers until one is not empty; end of input denies."""
        output = self._output if self._output is not None else sys.stderr
        shown, whole = show_args(args), show_args(args, whole=True)
        output.write(ACTION_SHOWN.format(tool=escape_controls(tool_name), args=shown))
        view = VIEW if shown != whole else ""
        while True:
            output.write(QUESTION.format(tool=escape_controls(tool_name), view=view))
            output.flush()
            try:
                line = stream.readline()
            except OSError:  # the terminal went away
                line = ""
            if not line:  # end of input (Ctrl-D)
                output.write("\n")
                return DENIED
            answer = line.strip()
            if answer.lower() in _VIEW:
                output.write(WHOLE_SHOWN.format(tool=escape_controls(tool_name), args=whole))
            elif answer:
                return self.judge(tool_name, answer)

    def judge(self, tool_name: str, answer: str) -> Verdict:
        """The verdict one answer gives, remembering `y -N` and `a` for the actions to come."""
        word = answer.lower()
        if word in _YES:
            return ALLOWED
        if word in _NO:
            return DENIED
        if word in _ALWAYS:
            self._always.add(tool_name)
            return ALLOWED
        more = _YES_TO_NEXT.fullmatch(word)
        if more:
            self._approvals_left = int(more.group(1))
            return ALLOWED
        return Verdict(False, "approval_feedback", answer)
