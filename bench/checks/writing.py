# ruff: noqa: RUF001  (Chinese punctuation, dashes and quotes, as people write them)
"""Text the agent makes up, judged by its properties (length, words, lines), never its wording."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from .dates import says_day_of_month
from .reading import _WORD, _lines, _read
from .registry import Check, register


@register
def file_lines(path: str, at_least: int, *, mentions: tuple[str, ...] = (), min_chars: int = 1) -> Check:
    """`path` exists with at least `at_least` non-blank lines and `min_chars` characters, mentioning one of
    `mentions` (case-insensitive) when given."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        if len(_lines(content)) < at_least or len(content.strip()) < min_chars:
            return f"{path} has {len(_lines(content))} lines, {len(content.strip())} characters: {content[:60]!r}"
        if mentions and not any(word.lower() in content.lower() for word in mentions):
            return f"{path} mentions none of {mentions}"
        return None

    return check


@register
def file_shape(path: str, lines: tuple[int, int], *words: str) -> Check:
    """`path` exists with `lines[0]` to `lines[1]` non-blank lines and mentions every one of `words`
    (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        count = len(_lines(content))
        if not lines[0] <= count <= lines[1]:
            return f"{path} has {count} non-blank lines: {content[:60]!r}"
        missing = [word for word in words if word.lower() not in content.lower()]
        return f"{path} does not mention {', '.join(missing)}" if missing else None

    return check


@register
def words_between(path: str, fewest: int, most: int, word: str) -> Check:
    """`path` holds from `fewest` to `most` words, `word` among them (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        count = len(content.split())
        if not fewest <= count <= most:
            return f"{path} has {count} words"
        return None if re.search(rf"\b{word}\b", content, re.IGNORECASE) else f"{path} does not say {word}"

    return check


@register
def exact_words(path: str, count: int, word: str) -> Check:
    """`path` holds exactly `count` words (a hyphenated word or a contraction counted once), `word` or its plural
    among them (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        words = _WORD.findall(content)
        if len(words) != count:
            return f"{path} has {len(words)} words, not {count}: {content[:80]!r}"
        return None if re.search(rf"\b{word}s?\b", content, re.IGNORECASE) else f"{path} does not say {word}"

    return check


@register
def short_lines(path: str, count: int, max_chars: int, word: str) -> Check:
    """`path` holds exactly `count` non-blank lines, each (a leading number or bullet aside) at most `max_chars`
    characters long and mentioning `word` (case aside)."""
    marker = re.compile(r"^(?:[-*•]\s*|\d+[.)]\s*)")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = [marker.sub("", line).strip().strip("'\"") for line in _lines(content)]
        if len(lines) != count:
            return f"{path} has {len(lines)} lines, not {count}: {content[:80]!r}"
        bad = [line for line in lines if len(line) > max_chars or word.lower() not in line.lower()]
        return f"{path} has a line too long or without {word}: {bad[0]!r}" if bad else None

    return check


@register
def short_post(path: str, first_word: str, max_chars: int, word: str) -> Check:
    """`path` holds a text (surrounding blanks and quotes aside) of at most `max_chars` characters whose first word
    is `first_word` and which mentions `word` (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        text = content.strip().strip("'\"“”").strip()
        if not text or len(text) > max_chars:
            return f"{path} holds {len(text)} characters, more than {max_chars} or none"
        words = _WORD.findall(text)
        if not words or words[0].lower() != first_word.lower():
            return f"{path} does not start with {first_word}: {text[:40]!r}"
        return None if word.lower() in text.lower() else f"{path} does not mention {word}"

    return check


@register
def third_person(path: str, fewest: int, most: int, word: str) -> Check:
    """`path` holds from `fewest` to `most` words, `word` among them, and no word of the first person singular."""
    words = words_between(path, fewest, most, word)

    def check(answer: str, workspace: Path) -> str | None:
        problem = words(answer, workspace)
        if problem is not None:
            return problem
        content = _read(workspace, path) or ""
        first = re.search(r"\bI\b|\b(?:[Mm]y|[Mm]e|[Mm]yself|[Mm]ine)\b", content)
        return None if first is None else f"{path} speaks in the first person: {first.group(0)!r}"

    return check


@register
def away_note(path: str, fewest: int, most: int, email: str, day: dt.date) -> Check:
    """`path` holds from `fewest` to `most` words, gives the address `email` and names the date `day` (its year
    written or not)."""
    words, names_day = words_between(path, fewest, most, re.escape(email)), says_day_of_month(day)

    def check(answer: str, workspace: Path) -> str | None:
        problem = words(answer, workspace)
        if problem is not None:
            return problem
        content = _read(workspace, path) or ""
        return None if names_day(content, workspace) is None else f"{path} does not name {day.isoformat()}"

    return check


@register
def words_start_with(path: str, letter: str, at_least: int) -> Check:
    """`path` holds at least `at_least` words (a hyphenated word or a contraction counted once), every one of them
    starting with `letter` (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        words = _WORD.findall(content)
        if len(words) < at_least:
            return f"{path} has {len(words)} words, fewer than {at_least}: {content[:60]!r}"
        other = [word for word in words if not word.lower().startswith(letter.lower())]
        return f"{path} has words not starting with {letter}: {', '.join(other[:3])}" if other else None

    return check


@register
def acrostic(path: str, word: str) -> Check:
    """The non-blank lines of `path` (a title line aside) start, letter by letter, with `word` (case aside; leading
    numbering, bullets or punctuation skipped)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        initials = "".join(next((char for char in line if char.isalpha()), "").lower() for line in _lines(content))
        ok = word.lower() in (initials, initials[1:])
        return None if ok else f"the lines of {path} start with {initials!r}, not {word}"

    return check


@register
def questions(path: str, count: int) -> Check:
    """`path` holds exactly `count` lines ending in a question mark, and at most one other line (a title)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        asked = [line for line in lines if line.endswith(("?", "？"))]
        ok = len(asked) == count and len(lines) - len(asked) <= 1
        return None if ok else f"{path} does not hold {count} questions: {content[:80]!r}"

    return check


@register
def poem_lines(path: str, count: int, word: str) -> Check:
    """`path` holds exactly `count` non-blank lines, `word` somewhere among them (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != count:
            return f"{path} has {len(lines)} non-blank lines, not {count}: {content[:80]!r}"
        return None if word.lower() in content.lower() else f"{path} does not mention {word}"

    return check


@register
def pangram(path: str, banned: str, fewest_words: int) -> Check:
    """`path` uses every letter from a to z (case aside), has at least `fewest_words` words, does not contain
    `banned` and is not the alphabet written out."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lower = content.lower()
        missing = sorted(set("abcdefghijklmnopqrstuvwxyz") - set(lower))
        if missing:
            return f"{path} lacks the letters {''.join(missing)}"
        if banned in " ".join(re.findall(r"[a-z]+", lower)) or "abcdef" in re.sub(r"[^a-z]", "", lower):
            return f"{path} holds the well-known pangram or the alphabet"
        count = len(re.findall(r"[a-z]+(?:'[a-z]+)?", lower))
        return None if count >= fewest_words else f"{path} has {count} words"

    return check


@register
def numbered_items(path: str, count: int, last_mentions: str) -> Check:
    """`path` holds exactly `count` items numbered 1 to `count` ("1." or "1)"), the last one mentioning
    `last_mentions` (case-insensitive); other lines (a title) may stand around them."""
    item = re.compile(r"^\s*(?:[-*]\s*)?(\d+)[.)]\s+(\S.*)$")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        found = [match for match in (item.match(line) for line in content.splitlines()) if match]
        if [int(match.group(1)) for match in found] != list(range(1, count + 1)):
            return f"{path} does not hold items numbered 1 to {count}: {content[:80]!r}"
        if last_mentions.lower() not in found[-1].group(2).lower():
            return f"the last item of {path} does not mention {last_mentions}"
        return None

    return check
