# ruff: noqa: RUF001  (Chinese punctuation, dashes and quotes, as people write them)
"""Markdown the agent writes: tables, headings, items and sections in their places."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from pathlib import Path

from .reading import _lines, _read
from .registry import Check, register


@register
def markdown_table(path: str, rows: list[list[str]]) -> Check:
    """`path` holds a Markdown table whose rows (the header first, the |---| rule aside) are `rows`, cells compared
    without case or surrounding blanks; a title or a line of text may stand around the table."""
    rule = re.compile(r"^:?-+:?$")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = []
        for line in _lines(content):
            if "|" not in line:
                continue
            cells = [cell.strip().lower() for cell in line.strip().strip("|").split("|")]
            if not all(rule.match(cell.replace(" ", "")) for cell in cells):
                table.append(cells)
        want = [[cell.lower() for cell in row] for row in rows]
        return None if table == want else f"{path} does not hold the table: {content[:80]!r}"

    return check


def _plain(text: str) -> str:
    """`text` in lower case without accents ("Bogotá" as "bogota")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower().strip()


@register
def table_of(path: str, header: list[str], rows: int, first_column: dict[str, set[str]]) -> Check:
    """`path` holds one Markdown table: the header `header` (case aside), its |---| rule, then `rows` rows of as many
    non-empty cells, each row's first cell a different key of `first_column` and its second cell one of that key's
    values (case and accents aside). A title or a line of text may stand around the table."""
    rule = re.compile(r"^:?-{3,}:?$")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [[cell.strip() for cell in line.strip().strip("|").split("|")]
                 for line in _lines(content) if "|" in line]
        if len(table) < 2 or [_plain(cell) for cell in table[0]] != [_plain(name) for name in header]:
            return f"{path} does not start its table with the header {' | '.join(header)}: {content[:80]!r}"
        if not all(rule.match(cell.replace(" ", "")) for cell in table[1]) or len(table[1]) != len(header):
            return f"{path} has no |---| rule under its header"
        body = table[2:]
        if len(body) != rows or any(len(row) != len(header) or not all(row) for row in body):
            return f"{path} does not have {rows} full rows: {content[:120]!r}"
        keys = [_plain(row[0]) for row in body]
        if len(set(keys)) != rows or not all(key in first_column for key in keys):
            return f"{path} has a row that is not a different one of those asked for: {keys}"
        wrong = [row[0] for row in body if not any(ok in _plain(row[1]) for ok in first_column[_plain(row[0])])]
        return f"{path} gives the wrong {header[1]} for {', '.join(wrong)}" if wrong else None

    return check


@register
def checklist(path: str, words: tuple[str, ...], at_least: int) -> Check:
    """`path` starts with a Markdown heading naming one of `words` (case aside), and holds at least `at_least`
    unticked checkbox items ("- [ ] ...")."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if not lines or not re.match(r"#{1,6}\s+\S", lines[0]):
            return f"{path} does not start with a heading: {content[:60]!r}"
        if not any(word in lines[0].lower() for word in words):
            return f"the heading of {path} names none of {words}: {lines[0]!r}"
        items = [line for line in lines[1:] if re.fullmatch(r"[-*]\s+\[ \]\s+\S.*", line)]
        return None if len(items) >= at_least else f"{path} has {len(items)} unticked items, not {at_least} or more"

    return check


@register
def recipe_card(path: str, title_word: str, bullets: int, steps: int) -> Check:
    """`path` starts with a level-one Markdown heading naming `title_word` (case aside), has a heading Ingredients
    (level two or lower) with at least `bullets` bullet items under it and a heading Method with at least `steps`
    numbered items under it."""

    def section(lines: list[str], name: str, item: str) -> int:
        start = next((n for n, line in enumerate(lines) if re.fullmatch(rf"#{{2,6}}\s*{name}\s*:?", line, re.I)), None)
        if start is None:
            return -1
        count = 0
        for line in lines[start + 1:]:
            if line.startswith("#"):
                break
            count += bool(re.match(item, line))
        return count

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if not lines or not re.match(r"#\s+\S", lines[0]) or title_word not in lines[0].lower():
            return f"{path} does not start with a title naming {title_word}: {content[:60]!r}"
        have_bullets = section(lines, "ingredients", r"[-*+]\s+\S")
        if have_bullets < bullets:
            return f"{path} has no Ingredients heading with {bullets} or more bullets ({have_bullets})"
        have_steps = section(lines, "method", r"\d+[.)]\s+\S")
        return None if have_steps >= steps else f"{path} has no Method heading with {steps} or more steps"

    return check


@register
def faq(path: str, questions: int, most_words: int, *topic: str) -> Check:
    """`path` starts with a level-one Markdown heading and holds exactly `questions` level-two headings, each ending
    with a question mark and followed by an answer of 1 to `most_words` words before the next heading; it mentions
    one of `topic` (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if not lines or not re.match(r"#\s+\S", lines[0]):
            return f"{path} does not start with a level-one heading: {content[:60]!r}"
        asked = [place for place, line in enumerate(lines) if re.match(r"##\s+\S", line)]
        if len(asked) != questions:
            return f"{path} has {len(asked)} level-two headings, not {questions}"
        for place in asked:
            if not lines[place].rstrip("#").strip().endswith(("?", "？")):
                return f"{path} has a question heading without a question mark: {lines[place]!r}"
            after = lines[place + 1:]
            end = next((n for n, line in enumerate(after) if line.startswith("#")), len(after))
            words = len(" ".join(after[:end]).split())
            if not 1 <= words <= most_words:
                return f"{path} answers {lines[place]!r} in {words} words"
        if not any(word.lower() in content.lower() for word in topic):
            return f"{path} mentions none of {topic}"
        return None

    return check


@register
def agenda(path: str, items: int, total_minutes: int) -> Check:
    """`path` starts with a Markdown heading and holds exactly `items` numbered items (1., 2., ... in order), each
    with a duration in minutes in brackets ("(10 min)"), the durations adding up to `total_minutes`."""
    numbered = re.compile(r"^(\d+)[.)]\s+(\S.*)$")
    duration = re.compile(r"\((\d+)\s*(?:min|mins|minutes?)\.?\)", re.IGNORECASE)

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if not lines or not re.match(r"#{1,6}\s+\S", lines[0]):
            return f"{path} does not start with a heading: {content[:60]!r}"
        found = [match for match in (numbered.match(line) for line in lines) if match]
        if [int(match.group(1)) for match in found] != list(range(1, items + 1)):
            return f"{path} does not have the items 1 to {items}: {content[:120]!r}"
        minutes = []
        for match in found:
            said = duration.findall(match.group(2))
            if len(said) != 1:
                return f"item {match.group(1)} of {path} does not give one duration in minutes in brackets"
            minutes.append(int(said[0]))
        return None if sum(minutes) == total_minutes else f"the durations in {path} add up to {sum(minutes)}"

    return check


@register
def changelog_entry(path: str, version: str, day: dt.date, sections: tuple[str, ...], at_least: int,
                    original: str) -> Check:
    """`path` holds its first lines up to the first "## " entry as they were, then a new entry whose heading names
    `version` and `day` (ISO), holding a "### " subsection per name of `sections` with at least `at_least` bullet
    items each, then the old entries exactly as they were (blank lines and surrounding blanks aside)."""
    old = _lines(original)
    first_entry = next(place for place, line in enumerate(old) if line.startswith("## "))
    preamble, entries = old[:first_entry], old[first_entry:]
    heading = re.compile(rf"##\s+\[?{re.escape(version)}\]?\s*[-–—]?\s*{day.isoformat()}")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if lines[:len(preamble)] != preamble or lines[len(lines) - len(entries):] != entries:
            return f"{path} no longer holds its title or its older entries as they were"
        new = lines[len(preamble):len(lines) - len(entries)]
        if not new or not heading.fullmatch(new[0]) or any(line.startswith("## ") for line in new[1:]):
            return f"{path} does not have one new entry headed {version} - {day.isoformat()} on top"
        items: dict[str, int] = {}
        current = None
        for line in new[1:]:
            sub = re.fullmatch(r"###\s+(\w+)", line)
            if sub:
                current = sub.group(1).lower()
                items.setdefault(current, 0)
            elif current is not None and re.match(r"[-*]\s+\S", line):
                items[current] += 1
        short = [name for name in sections if items.get(name.lower(), 0) < at_least]
        return f"the new entry of {path} has fewer than {at_least} items under {', '.join(short)}" if short else None

    return check


@register
def rewrapped(path: str, original: str, width: int) -> Check:
    """`path` holds the paragraphs of `original` (blocks between blank lines), each with the same words in the same
    order, and no line longer than `width` characters (trailing blanks aside)."""
    paragraphs = [block.split() for block in re.split(r"\n\s*\n", original.strip())]

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        blocks = [block.split() for block in re.split(r"\n\s*\n", content.strip())]
        if blocks != paragraphs:
            return f"{path} no longer holds the same paragraphs with the same words"
        long = [line for line in content.splitlines() if len(line.rstrip()) > width]
        return f"{path} has a line of {len(long[0].rstrip())} characters" if long else None

    return check
