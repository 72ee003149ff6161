"""The request a task gives (its first paragraph: what follows may be context, such as the REPL's earlier
exchanges), read once into a typed value: what it mentions, the change it asks for, the day or the kind of file it
asks about; units.py and settled.py read from it what its units, percentages or arithmetic settle. Its words are
words.toml data; the patterns here hold only their order, which is the language's, and the digits, file names and
operators around them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ..action_schema import FILE_NAME
from .counts import Given, counted_givens
from .words import EN, ZH, alternation, entries, kinds, one_of, words

READ_REQUESTS = 256  # the requests (and parts of them) kept read: a run asks of its own request many times

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# A number standing alone (not part of a word or a file name; "1,200" is one) or a file name with an extension of
# 2-10 letters ("messages_en.properties"), not a part of an e-mail address.
_MENTION = re.compile(r"(?<![A-Za-z0-9_.\-/@])(?:[\w\-]+\.[A-Za-z][A-Za-z0-9]{1,9}(?!@)"
                      r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|\d+(?:\.\d+)?)(?![A-Za-z0-9_])")
THOUSANDS = re.compile(r"(?<=\d),(?=\d{3})")  # the separator of "1,200"
# A folder the request names ("into the archive folder", "the folder named reports", "移到 archive 文件夹"): a
# given like a file name, written with a trailing "/" ("archive/"); a path must hold it as a whole part.
_FOLDERS = (re.compile(rf"([A-Za-z0-9_\-]+)\s+{one_of('folder.words', EN)}", re.I),
            re.compile(rf"{one_of('folder.words', EN)}\s+{one_of('folder.named', EN)}\s+[\"']?([A-Za-z0-9_\-]+)",
                       re.I),
            re.compile(rf"([A-Za-z0-9_\-]+)\s*{one_of('folder.words', ZH)}"))
_NOT_A_FOLDER_NAME = frozenset(words("folder.not_a_name"))
# Every file of a kind the request names ("every .tmp file", "all the .log files", "所有 .tmp 文件"): a given
# written as the pattern of their names ("*.tmp"), which a path takes as it stands or a path it matches does.
_KIND_OF_FILE = re.compile(rf"{one_of('every', EN)}\s+\*?\.([A-Za-z0-9]{{1,10}})\s+{one_of('file', EN)}"
                           rf"|{one_of('every', ZH)}\s*\*?\.([A-Za-z0-9]{{1,10}})\s*{one_of('file', ZH)}", re.I)


def _weekday(language: str) -> str:
    """A group matching any name of a day of the week in `language`."""
    return alternation(tuple(name for names in entries("weekdays", language) for name in names))


# A day named from today, which a date tool must take: today itself needs no argument ("what is today's date");
# counted from today in other words: "one week from today", "2 weeks ago", "next friday", "3天后", "下周五"
_COUNT = rf"(?:\d+|{one_of('number_words', EN)})"
RELATIVE_DAY = re.compile(
    rf"{one_of('relative_day.named')}"
    rf"|\b(?:{one_of('relative_day.in', EN)}\s+)?{_COUNT}\s+{one_of('span', EN)}\s+"  # not "in 9 days": a span
    rf"{one_of('relative_day.later', EN)}"
    rf"|\b{_COUNT}\s+{one_of('span', EN)}\s+{one_of('relative_day.earlier', EN)}"
    rf"|\b{one_of('relative_day.next', EN)}\s+(?:{one_of('relative_day.next_of', EN)}|{_weekday('en')})\b"
    rf"|\d+\s*{one_of('span', ZH)}\s*{alternation(words('relative_day.later', ZH) + words('relative_day.earlier', ZH))}"
    rf"|{one_of('relative_day.next', ZH)}{one_of('relative_day.next_of', ZH)}{_weekday('zh')}?", re.I)
_PERCENT_AFTER = re.compile(rf"\s*(?:%|\s{one_of('percent.after')})", re.I)  # after a number: a percentage
_PERCENT_BEFORE = words("percent.before")  # ... before it ("百分之15")

# A request that asks to change the workspace: a verb of change, in a sentence that names a file or folder
_KINDS = kinds("change")
_CHANGE = re.compile(alternation(tuple(verb for verbs in _KINDS.values() for verb in verbs)), re.I)
_SENTENCE = re.compile(r"(?<=[.?!])\s+|(?<=[\u3002\uff1f\uff01])")  # not the dot of a file name
_PLACE = re.compile(rf"(?<![\w.\-/]){FILE_NAME.pattern}(?![\w])|{one_of('place')}", re.I)
# a question asks about the workspace, it changes nothing
_QUESTION = re.compile(rf"\s*{one_of('question_starts')}|.*{one_of('question_words')}", re.I)
# a question about a date or a weekday: "what date", "which day", "what is the date", "几号", "星期几"
_ASKS_DAY = re.compile(one_of("asks.day"), re.I)
# the kind of file a question how many files asks about: a file ending (".txt", "text files (.txt)") or a word
# for one ("Python files")
_ASKED_KIND = (re.compile(rf"{one_of('asks.how_many_files', EN)}\s+(?:(?P<ending>\.\w{{1,8}})|(?P<word>[A-Za-z]+))"
                          rf"\s+{one_of('file', EN)}(?:\s*\(\s*\*?(?P<named>\.\w{{1,8}})\s*\))?", re.I),
               re.compile(rf"{one_of('asks.how_many_files', ZH)}\s*\*?(?P<ending>\.\w{{1,8}})\s*{one_of('file', ZH)}"))
_ENDINGS = {word.lower(): f".{ending}" for ending, named in kinds("file_kind").items() for word in named}
# a question which file mentions a word, and the word: "Which file mentions Oslo?", "哪个文件提到了合同"
_SEARCHED = re.compile(
    rf"{one_of('searched.which', EN)}\s+(?:\w+\s+)?{one_of('file', EN)}.*?{one_of('searched.verbs', EN)}\s+"
    rf"(?:{one_of('searched.naming', EN)}\s+)?[\"']?([\w\-]+)"
    rf"|{one_of('searched.which', ZH)}{one_of('file', ZH)}.*?{one_of('searched.verbs', ZH)}"
    rf"{one_of('searched.particle', ZH)}?\s*[\"'\u201c]?([\w\-]+)", re.I)
# Where a request's parts meet: sentence and clause punctuation, also full-width (not a decimal or file-name
# dot), "then", "and" (between spaces in English, as written in Chinese).
_CLAUSE_BREAK = re.compile(rf"[.!?](?:\s+|$)|[,;:\uff0c\uff1b\uff1a\u3002\uff01\uff1f]"
                           rf"|\s+{one_of('clause.breaks', EN)}\s+|{one_of('clause.breaks', ZH)}", re.I)


@dataclass(frozen=True)
class Request:
    """A task's request, as text, and what the coach reads from it: each read the first time it is asked for."""

    text: str

    @cached_property
    def plain(self) -> str:
        """The text with its numbers' thousands separators dropped ("1,200" is 1200), as arithmetic reads it."""
        return THOUSANDS.sub("", self.text)

    @cached_property
    def mentions(self) -> tuple[str, ...]:
        """The numbers, file names, folders ("archive/"), kinds of file ("*.tmp") and days counted from today
        ("tomorrow") the request gives, in order, each once."""
        return _mentions(self.text)

    @cached_property
    def change(self) -> str:
        """The verb of change the request asks for ("remove"), or empty (see `_change`)."""
        return _change(self.text)

    @cached_property
    def names_change(self) -> bool:
        """Whether the request uses a verb of change anywhere outside a question, with or without a file it names
        ("Rename a to b"): weaker than `change`, for telling a request for a change from one for a fact."""
        return bool(_CHANGE.search(self.text)) and not _QUESTION.match(self.text)

    @cached_property
    def day(self) -> str:
        """The day counted from today ("two weeks from today", "昨天") that a question about a date or a weekday
        gives, when it gives exactly one; empty otherwise, and for a request to change something."""
        if self.change or not _ASKS_DAY.search(self.text):
            return ""
        days = [item for item in self.mentions if RELATIVE_DAY.fullmatch(item)]
        return days[0] if len(days) == 1 else ""

    @cached_property
    def ending(self) -> str:
        """The file ending a question how many files of a kind asks about (".py" for "Python files"), or empty."""
        for pattern in _ASKED_KIND:
            match = pattern.search(self.text)
            if match is None:
                continue
            found = match.groupdict()
            ending = found.get("named") or found.get("ending") or _ENDINGS.get((found.get("word") or "").lower(), "")
            return ending.lower()
        return ""

    @cached_property
    def searched(self) -> str:
        """The word a question which file mentions it asks about ("Oslo"), or empty."""
        match = _SEARCHED.search(self.text)
        return (match.group(1) or match.group(2)) if match is not None else ""

    @cached_property
    def parts(self) -> tuple[str, ...]:
        """The request's parts ("Open prices.csv", "add up the second column"), where its clauses meet."""
        return tuple(part.strip() for part in _CLAUSE_BREAK.split(self.text) if part and part.strip())

    @cached_property
    def counted(self) -> tuple[list[Given], str, str] | None:
        """The counted things a question how many of them gives, the unit asked and its words (counts.py)."""
        return counted_givens(self.plain)


@lru_cache(maxsize=READ_REQUESTS)
def read_request(task: str) -> Request:
    """The request of `task` (its first paragraph), read once per task."""
    return Request(task.strip().split("\n\n")[0])


def is_question(text: str) -> bool:
    """Whether a part of a request asks something ("which of these files is the largest", "后天星期几")."""
    return bool(_QUESTION.match(text))


def _mentions(request: str) -> tuple[str, ...]:
    """What `request` gives, in order, each once (see `Request.mentions`)."""
    days = list(RELATIVE_DAY.finditer(request))
    within = [match for match in _MENTION.finditer(request)  # the 5 of "5 days ago" is the phrase's, not a given
              if not any(day.start() <= match.start() < day.end() for day in days)]
    found = [(match.start(), _as_given(match, request)) for match in within]
    found += [(match.start(), match.group(0)) for match in days]
    for match in (match for folder in _FOLDERS for match in folder.finditer(request)):
        name = match.group(1)
        if name.lower() not in _NOT_A_FOLDER_NAME and not _NUMBER.fullmatch(name):
            found.append((match.start(1), f"{name}/"))
    found += [(match.start(), f"*.{match.group(1) or match.group(2)}") for match in _KIND_OF_FILE.finditer(request)]
    return tuple(dict.fromkeys(item for _, item in sorted(found)))


def _as_given(match: re.Match[str], request: str) -> str:
    """A mention as a given: a number without its thousands separators ("1200" for "1,200"); a number the request
    writes as a percentage is one ("15%" for "15%", "15 percent", "百分之15"), which a call must take as a
    percentage."""
    given = THOUSANDS.sub("", match.group(0))
    if _NUMBER.fullmatch(given) and (_PERCENT_AFTER.match(request, match.end())
                                     or request[:match.start()].rstrip().endswith(_PERCENT_BEFORE)):
        return f"{given}%"
    return given


def _change(request: str) -> str:
    """The verb of change `request` asks for, in a sentence that names a file or folder ("remove" in "Remove
    draft.md from the folder"), not in a question about one ("Which files did I create?"); of several, one that
    says more than a write ("copy" in "Put a copy of it in backup"); empty when it asks for none."""
    for sentence in _SENTENCE.split(request):
        verbs = [match.group(0).lower() for match in _CHANGE.finditer(sentence)]
        if verbs and _PLACE.search(sentence) and not _QUESTION.match(sentence):
            # the verb that says most: "put a copy of notes.md in archive" is a copy, not a write
            return next((verb for verb in verbs if verb not in _KINDS["write"]), verbs[0])
    return ""
