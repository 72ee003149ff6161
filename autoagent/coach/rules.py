"""The coach's rules: each objection it can make, by id. A rule's value names the template the model reads."""

from __future__ import annotations

from enum import Enum


class Rule(str, Enum):
    """One objection of the coach's, made at most once a run unless its module says otherwise."""

    PREMATURE_FINISH = "premature_finish"  # a finish before any tool succeeded
    FAILED_FINISH = "failed_finish"  # a finish right after the call it rests on failed
    UNUSED_MENTIONS = "unused_mentions"  # a finish that left a number or file the task gives unused
    UNGROUNDED_ANSWER = "ungrounded_answer"  # an answer stating what no tool result shows
    UNIT_MISMATCH = "unit_mismatch"  # an answer that does not fit the units asked for
    PERCENT_MISMATCH = "percent_mismatch"  # ... nor the percentage the request works out
    ARITHMETIC_MISMATCH = "arithmetic_mismatch"  # ... nor the arithmetic it spells out
    NO_CHANGE = "no_change"  # a finish without the change the request asks for
    FILE_CLAIM = "file_claim"  # an answer saying of a file what the workspace does not show
    CHOSEN_FILES = "chosen_files"  # files moved, copied or removed that the request does not name (never sent back)
    UNFINISHED_PLAN = "unfinished_plan"  # a finish leaving the model's own plan half done
    DAY_CHECK = "day_check"  # a day counted from today that no call read: the calendar reads it
    REWRITE_FILE = "rewrite_file"  # a write over a file this run just wrote
    COPIED_NOTE = "copied_note"  # a note this run was given, written into a file
    COPIED_FENCE = "copied_fence"  # the framing a file's content was quoted in, written into a file
    UNWORKED_WRITE = "unworked_write"  # a calculation written into a file instead of its result
    FOLDER_AS_FILE = "folder_as_file"  # a folder the request names, written as a file

    @property
    def template(self) -> str:
        """The template of the note the model reads about it."""
        return self.value


UNIT_RULES = (Rule.UNIT_MISMATCH, Rule.PERCENT_MISMATCH, Rule.ARITHMETIC_MISMATCH)
