# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh16` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written blind, by a helper, on 2026-12-03, before any change it measures, and has never been run yet. Whoever
changes the agent must not read it (neither its tasks nor its failures), and nobody tunes to it. Report it as numbers
only; once it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh16 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (how many words, its sections and keys, which words it holds or lacks), not its wording.
"""

from __future__ import annotations

import configparser
import csv
import datetime as dt
import io
import json
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

from tasks import Check, Task, both, deleted, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, says_about, says_any, says_count
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_numbers, says_regex
from tasks_fresh8 import words_between
from tasks_fresh9 import csv_rows_in_order
from tasks_fresh14 import untouched


def _ini(content: str) -> dict[str, dict[str, str]] | None:
    """The sections of an INI text and their keys and values (quotes around a value aside), or None when it is not
    one."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(content)
    except configparser.Error:
        return None
    return {section: {key: value.strip().strip("'\"").strip() for key, value in parser[section].items()}
            for section in parser.sections()}


def ini_like(path: str, expected: dict[str, dict[str, str]]) -> Check:
    """`path` is an INI file with exactly the sections and keys of `expected`, each value the same text (case and
    quotes aside) or the same number."""

    def same(got: str, want: str) -> bool:
        number = r"-?\d+(?:\.\d+)?"
        if re.fullmatch(number, got) and re.fullmatch(number, want):
            return float(got) == float(want)
        return got.lower() == want.lower()

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = _ini(content)
        if got is None:
            return f"{path} is not an INI file: {content[:60]!r}"
        if set(got) != set(expected) or any(set(got[s]) != set(keys) for s, keys in expected.items()):
            return f"{path} has other sections or keys: {content[:80]!r}"
        wrong = [key for s, keys in expected.items() for key, value in keys.items() if not same(got[s][key], value)]
        return f"{path} has the wrong {', '.join(wrong)}" if wrong else None

    return check


def pool_config(path: str, database: dict[str, str]) -> Check:
    """`path` is an INI file with exactly the sections database and pool: database holds the keys and values of
    `database` (case aside; other keys may stand beside them), pool holds whole numbers min_size and max_size, with
    0 < min_size < max_size."""

    def whole(value: str | None) -> int | None:
        return int(value) if value is not None and re.fullmatch(r"\d+", value) else None

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        got = _ini(content)
        if got is None:
            return f"{path} is not an INI file: {content[:60]!r}"
        if {section.lower() for section in got} != {"database", "pool"}:
            return f"{path} has the sections {sorted(got)}"
        sections = {section.lower(): keys for section, keys in got.items()}
        wrong = [key for key, value in database.items() if sections["database"].get(key, "").lower() != value.lower()]
        if wrong:
            return f"{path} has the wrong database {', '.join(wrong)}"
        low, high = whole(sections["pool"].get("min_size")), whole(sections["pool"].get("max_size"))
        if low is None or high is None:
            return f"{path} has no whole-number min_size and max_size in pool"
        return None if 0 < low < high else f"{path} has min_size {low} and max_size {high}"

    return check


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


def headed_files(files: dict[str, str]) -> Check:
    """Every path of `files` exists and its first non-blank line is a Markdown heading naming its title (case and
    blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        for path, title in files.items():
            content = _read(workspace, path)
            if content is None:
                return f"{path} was not written"
            lines = _lines(content)
            heading = re.match(r"#{1,6}\s+(.*?)\s*#*$", lines[0]) if lines else None
            if heading is None or " ".join(heading.group(1).split()).lower() != title.lower():
                return f"{path} does not start with the heading {title}: {content[:60]!r}"
        return None

    return check


def numbered_notes(path: str, notes: list[tuple[int, str]]) -> Check:
    """`path` holds exactly one non-blank line per note, in order, its first number the note's line number and the
    note's text in it (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != len(notes):
            return f"{path} has {len(lines)} lines, not {len(notes)}: {content[:80]!r}"
        for line, (number, text) in zip(lines, notes, strict=True):
            said = re.search(r"\d+", line)
            if said is None or int(said.group(0)) != number or text.lower() not in line.lower():
                return f"{path} has {line!r} where line {number} with its note belongs"
        return None

    return check


def zh_weights(path: str, rows: list[tuple[str, float]], units: tuple[str, ...], old_unit: str) -> Check:
    """`path` holds one non-blank line per row, in order: it starts with the row's name, states the row's value as
    its only number, names one of `units` and no longer names `old_unit` on its own."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if len(lines) != len(rows):
            return f"{path} has {len(lines)} lines, not {len(rows)}: {content[:80]!r}"
        for line, (name, value) in zip(lines, rows, strict=True):
            numbers = numbers_in(line)
            if (not line.startswith(name) or len(numbers) != 1 or abs(numbers[0] - value) > 1e-9
                    or not any(unit in line.lower() for unit in units) or re.search(rf"(?<!公){old_unit}", line)):
                return f"{path} has {line!r} where {name} {value:g} belongs"
        return None

    return check


def says_day_short(day: dt.date) -> Check:
    """The answer gives `day`, with its year or without it, its month written out or cut short ("Nov 14", "14 Nov.",
    "11月14日")."""
    month = day.strftime("%b").lower()
    number = rf"(?<!\d){day.day}(?:st|nd|rd|th)?(?!\d)"
    return either(says_day_of_month(day), says_regex(rf"\b{month}\.?\s*{number}|{number}\s*{month}\b", day.isoformat()))


def names_keys(*keys: str) -> Check:
    """The answer names every one of `keys`, an underscore in it written as such, as a blank or as a hyphen."""
    return both(*(says_regex(r"\b" + r"[\s_-]?".join(map(re.escape, key.split("_"))) + r"\b", key) for key in keys))


# the workspaces
TYRE_PSI = 36
TYRE_BAR = TYRE_PSI * 6894.757293168 / 100000  # a psi in pascals; a bar is 100 000 of them

COLOUR = "#2E8B57"
COLOUR_RGB = [int(COLOUR[n:n + 2], 16) for n in (1, 3, 5)]
assert not set(COLOUR_RGB) & set(numbers_in(COLOUR))

SPRINT_DAY = dt.date(2027, 9, 23)
SPRINT_WEEK = SPRINT_DAY.isocalendar()[1]
assert SPRINT_WEEK not in (SPRINT_DAY.day, SPRINT_DAY.month)

AUTH_LOG = """2026-11-30 07:58:03 gate sshd[812]: Failed password for root from 203.0.113.9 port 50122 ssh2
2026-11-30 08:01:12 gate sshd[820]: Accepted publickey for deploy from 10.0.0.12 port 41022 ssh2
2026-11-30 08:14:40 gate sshd[833]: Accepted password for alice from 10.0.0.31 port 52210 ssh2
2026-11-30 08:15:02 gate sshd[840]: Failed password for invalid user admin from 198.51.100.4 port 60001 ssh2
2026-11-30 09:02:55 gate sshd[851]: pam_unix(sshd:session): session closed for user alice
2026-11-30 09:30:18 gate sshd[866]: Accepted publickey for deploy from 10.0.0.12 port 41090 ssh2
2026-11-30 10:11:47 gate sshd[871]: Failed password for dave from 10.0.0.44 port 50312 ssh2
2026-11-30 10:12:09 gate sshd[872]: Failed password for dave from 10.0.0.44 port 50318 ssh2
2026-11-30 11:45:33 gate sshd[890]: Accepted password for bob from 10.0.0.27 port 49876 ssh2
2026-11-30 13:20:05 gate sshd[902]: Failed password for alice from 10.0.0.31 port 52398 ssh2
2026-11-30 14:03:51 gate sshd[915]: Accepted publickey for carol from 10.0.0.19 port 58122 ssh2
2026-11-30 16:40:26 gate sshd[931]: Accepted password for alice from 10.0.0.31 port 52977 ssh2
"""
_ACCEPTED = re.findall(r"Accepted \w+ for (\S+)", AUTH_LOG)
LOGGED_IN = len(set(_ACCEPTED))
_NAMED = set(re.findall(r"for (?:invalid user |user )?(\w+)", AUTH_LOG))
assert len(_ACCEPTED) != LOGGED_IN and len(_NAMED) != LOGGED_IN


def _file(name: str, size: int) -> dict[str, Any]:
    return {"name": name, "type": "file", "size": size}


def _folder(name: str, *children: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "type": "dir", "children": list(children)}


TREE = _folder("site", _file("index.html", 4210),
               _folder("css", _file("main.css", 18342), _file("print.css", 1207)),
               _folder("img", _file("logo.svg", 3311),
                       _folder("photos", _file("team.jpg", 482113), _file("office.jpg", 390876)), _folder("icons")),
               _folder("js", _file("app.js", 75530)), _file("robots.txt", 68))
TREE_JSON = json.dumps(TREE, indent=2) + "\n"


def _walk(node: dict[str, Any]) -> list[int]:
    """The sizes of every file under `node`."""
    if node["type"] == "file":
        return [node["size"]]
    return [size for child in node.get("children", []) for size in _walk(child)]


_SIZES = _walk(json.loads(TREE_JSON))
TREE_FILES, TREE_BYTES = len(_SIZES), sum(_SIZES)
assert sum(child["type"] == "file" for child in TREE["children"]) != TREE_FILES

MEETING_MD = """# Product sync, 2 December 2026

## Notes
- The launch moves to the week of 11 January.
- Sam wants the budget numbers before Friday; Priya has them.

## Action items
- [ ] Sam: send the revised launch plan to marketing (due 2026-12-09)
- [ ] Priya: book the venue for the demo day (due 2026-12-03)
- [ ] Sam: update the pricing page copy (due 2026-12-04)
- [x] Sam: share last week's signup metrics (due 2026-12-01)
- [ ] Leo: fix the bug in the welcome email (due 2026-12-05)
- [ ] Sam: draft the FAQ for the support team (due 2026-12-11)
"""
_ITEMS = re.findall(r"^- \[( |x)\] (\w+): (.+) \(due (\d{4}-\d\d-\d\d)\)$", MEETING_MD, re.M)
_SAM_OPEN = [(due, what) for box, who, what, due in _ITEMS if box == " " and who == "Sam"]
SAM_OPEN = len(_SAM_OPEN)
SAM_FIRST = min(_SAM_OPEN)[1]
SAM_FIRST_WORD = "pricing"
assert [what for _, what in _SAM_OPEN].count(SAM_FIRST) == 1 and SAM_FIRST_WORD in SAM_FIRST
assert all(SAM_FIRST_WORD not in what for _, _, what, _ in _ITEMS if what != SAM_FIRST)
assert min(_ITEMS, key=lambda item: item[3])[2] != SAM_FIRST  # the earliest of all, or of Sam's all, is another
assert min(((due, what) for box, who, what, due in _ITEMS if who == "Sam"))[1] != SAM_FIRST

OPENING = Decimal("1240.00")
BANK = [("2026-11-01", "Rent", "-950.00"), ("2026-11-03", "Groceries", "-84.37"),
        ("2026-11-06", "Refund from shoe shop", "35.00"), ("2026-11-09", "Phone bill", "-42.50"),
        ("2026-11-12", "Car insurance", "-310.00"), ("2026-11-14", "Groceries", "-61.12"),
        ("2026-11-15", "Transfer from savings", "400.00"), ("2026-11-20", "Restaurant", "-58.40"),
        ("2026-11-25", "Salary", "2650.00"), ("2026-11-28", "Gym", "-29.99")]
BANK_CSV = "date,description,amount\n" + "".join(f"{day},{what},{amount}\n" for day, what, amount in BANK)
_BALANCES: list[tuple[Decimal, str]] = []
for _row in csv.DictReader(io.StringIO(BANK_CSV)):
    _BALANCES.append(((_BALANCES[-1][0] if _BALANCES else OPENING) + Decimal(_row["amount"]), _row["date"]))
LOWEST, LOWEST_ON = min(_BALANCES)
LOWEST_DAY = dt.date.fromisoformat(LOWEST_ON)
assert sorted(_BALANCES)[1][0] > LOWEST and LOWEST < 0
assert abs(LOWEST) not in {abs(Decimal(amount)) for _, _, amount in BANK}

STAGING = {"server": {"bind": "0.0.0.0", "port": "8080", "workers": "2"},
           "database": {"host": "db.staging.internal", "pool_size": "5", "timeout_s": "30"},
           "cache": {"backend": "redis", "ttl": "300"},
           "features": {"beta_banner": "on"}}
PRODUCTION = {"server": {"bind": "0.0.0.0", "port": "8080", "workers": "8"},
              "database": {"host": "db.prod.internal", "pool_size": "20", "timeout_s": "30"},
              "cache": {"backend": "redis", "ttl": "300"},
              "features": {"beta_banner": "off"}}


def _ini_text(sections: dict[str, dict[str, str]]) -> str:
    return "\n".join(f"[{name}]\n" + "".join(f"{key} = {value}\n" for key, value in keys.items())
                     for name, keys in sections.items())


STAGING_INI, PRODUCTION_INI = _ini_text(STAGING), _ini_text(PRODUCTION)
_STAGED, _LIVE = _ini(STAGING_INI), _ini(PRODUCTION_INI)
assert _STAGED is not None and _LIVE is not None
DIFFERENT = [key for section, keys in _STAGED.items() for key, value in keys.items() if _LIVE[section][key] != value]
assert 0 < len(DIFFERENT) < sum(len(keys) for keys in _STAGED.values())

_SOUP = "Lentil soup: onion, carrot, red lentils, stock, cumin.\nFlapjacks: oats, butter, syrup.\n"
NOTES = {"notes/recipes.txt": _SOUP,
         "notes/recipes-old.txt": _SOUP.replace(", cumin", ""),
         "notes/misc-3.txt": _SOUP,
         "notes/books.txt": "To read: The Overstory, Piranesi, Small Things Like These.\n",
         "notes/misc-1.txt": "Call the council about the bins.\n",
         "notes/misc-2.txt": "Call the council about the bins on Monday.\n"}
_BY_CONTENT: dict[str, list[str]] = defaultdict(list)
for _path, _text in NOTES.items():
    _BY_CONTENT[_text].append(_path.split("/")[-1])
TWINS = next(names for names in _BY_CONTENT.values() if len(names) > 1)
assert len(TWINS) == 2 and sum(len(names) > 1 for names in _BY_CONTENT.values()) == 1
_NAMES = [path.split("/")[-1] for path in NOTES]
assert not any(a != b and a in b for a in _NAMES for b in _NAMES)


def _filler(words: int, seed: str) -> str:
    return " ".join(f"{seed}{n}" for n in range(words)) + "\n"


CACHE = {"cache/thumbs-a.dat": _filler(40, "t"), "cache/thumbs-b.dat": _filler(900, "t"),
         "cache/session.tmp": _filler(12, "s"), "cache/search-index.dat": _filler(1500, "i"),
         "cache/fonts.dat": _filler(110, "f"), "cache/render-3.tmp": _filler(600, "r")}
CACHE_LIMIT = 2 * 1024
OUTSIDE_CACHE = {"archive-2025.txt": _filler(1200, "a"), "notes.txt": "cache clean-up on Friday\n"}
_SIZE = {path: len(text.encode("utf-8")) for path, text in CACHE.items()}
CACHE_BIG = [path for path, size in _SIZE.items() if size > CACHE_LIMIT]
CACHE_SMALL = {path: text for path, text in CACHE.items() if _SIZE[path] <= CACHE_LIMIT}
assert all(not 1900 <= size <= 2100 for size in _SIZE.values())  # "2 KB" read as 2000 or 2048 bytes alike
assert 0 < len(CACHE_BIG) < len(CACHE) and len(OUTSIDE_CACHE["archive-2025.txt"]) > CACHE_LIMIT

SCANS = {"scans/2024-11-02_boiler-receipt.pdf": "%PDF-1.4 boiler receipt\n",
         "scans/2025-01-17_tax-letter.pdf": "%PDF-1.4 tax letter\n",
         "scans/2024-06-30_car-insurance.pdf": "%PDF-1.4 car insurance\n",
         "scans/2026-03-08_passport.pdf": "%PDF-1.4 passport\n",
         "scans/2025-09-21_vet-bill.pdf": "%PDF-1.4 vet bill\n"}
SCANS_KEPT = {"scans/index.txt": "What the scans are, in case I forget.\n"}
SCANS_MOVED = {path: "scans/" + path.split("/")[1][:4] + "/" + path.split("/")[1] for path in SCANS}
assert len({dest.split("/")[1] for dest in SCANS_MOVED.values()}) == 3

SETTINGS = {"server": {"host": "127.0.0.1", "port": 9000},
            "logging": {"level": "warning", "file": "logs/app.log"},
            "mail": {"sender": "noreply@shop.example", "smtp_port": 587}}
SETTINGS_JSON = json.dumps(SETTINGS, indent=2) + "\n"
SETTINGS_INI = {section: {key: str(value) for key, value in keys.items()}
                for section, keys in json.loads(SETTINGS_JSON).items()}

DEPLOYS_LOG = """2026-11-02 09:14:07 INFO deploy service=api version=2.3.0 by=maria
2026-11-02 09:20:45 INFO healthcheck service=api status=ok
2026-11-04 16:03:12 INFO deploy service=web version=5.1.2 by=tom
2026-11-05 11:47:30 WARN rollback service=web version=5.1.1 by=tom
2026-11-09 10:02:58 INFO deploy service=worker version=1.0.9 by=maria
2026-11-12 14:31:22 INFO deploy service=api version=2.3.1 by=li
2026-11-12 14:35:01 INFO healthcheck service=api status=ok
2026-11-18 08:55:40 INFO deploy service=web version=5.2.0 by=tom
"""
DEPLOY_ROWS = [list(row) for row in
               re.findall(r"^(\S+) \S+ \w+ deploy service=(\S+) version=(\S+)", DEPLOYS_LOG, re.M)]
assert len(DEPLOY_ROWS) == 5

LEADERBOARD = [("Ollie", "87", "12"), ("Bea", "103", "14"), ("Kwame", "9", "3"), ("Dana", "141", "15"),
               ("Ines", "62", "11"), ("Arjun", "118", "13"), ("Sol", "95", "12")]
LEADERBOARD_HEADER = ["name", "points", "games"]
LEADERBOARD_CSV = ",".join(LEADERBOARD_HEADER) + "\n" + "".join(",".join(row) + "\n" for row in LEADERBOARD)
LEADERBOARD_SORTED = sorted(([row["name"], row["points"], row["games"]]
                             for row in csv.DictReader(io.StringIO(LEADERBOARD_CSV))),
                            key=lambda row: -int(row[1]))
assert len({points for _, points, _ in LEADERBOARD}) == len(LEADERBOARD)
assert sorted(LEADERBOARD_SORTED, key=lambda row: row[1], reverse=True) != LEADERBOARD_SORTED  # not as text

GUIDE = ["# Home network guide", "", "Everything about the flat's network, for whoever house-sits.", "",
         "## Router", "", "The router is in the hall cupboard, behind the coats.", "", "### Admin password", "",
         "It is on the sticker under the router.", "", "## Wi-Fi", "", "Two networks: home and home-guest.", "",
         "### Guest network", "", "The password changes every month; ask me.", "", "## Printer", "",
         "It only wakes up when you press its power button twice."]
GUIDE_MD = "".join(f"{line}\n" for line in GUIDE)
GUIDE_AFTER = [re.sub(r"^(#+)(\s)", r"#\1\2", line) for line in GUIDE if line]
assert sum(a != b for a, b in zip([line for line in GUIDE if line], GUIDE_AFTER, strict=True)) == 6

PROJECTS = ["Garden Shed Repair", "Kitchen Shelves", "Bike Service", "Loft Insulation"]
PROJECTS_TXT = "".join(f"{line}\n" for line in PROJECTS)
PROJECT_FILES = {f"projects/{name.lower().replace(' ', '-')}.md": name for name in _lines(PROJECTS_TXT)}

APP_PY = '''"""Tiny invoice tool."""

import json
import sys


def load(path):
    # TODO: handle a missing file gracefully
    with open(path) as handle:
        return json.load(handle)


def total(invoice):
    lines = invoice["lines"]
    # TODO: apply the customer's discount
    return sum(line["qty"] * line["price"] for line in lines)


def main():
    invoice = load(sys.argv[1])
    print(f"{total(invoice):.2f}")  # TODO: print the currency too


if __name__ == "__main__":
    main()
'''
TODOS = [(number, match.group(1).strip()) for number, line in enumerate(APP_PY.splitlines(), start=1)
         for match in [re.search(r"#\s*TODO:?\s*(.+)$", line)] if match]
assert len(TODOS) == 3

DB_SETTINGS = {"host": "localhost", "port": "5432", "name": "shop"}

SPEAKER = "Ruiz"

# Chinese
HEXAGON_SIDES = 6
HEXAGON_ANGLE = (HEXAGON_SIDES - 2) * 180 // HEXAGON_SIDES

_TOKYO, _NEW_YORK = dt.timezone(dt.timedelta(hours=9)), dt.timezone(dt.timedelta(hours=-5))
MEETING_TOKYO = dt.datetime(2027, 1, 15, 9, 0, tzinfo=_TOKYO)
MEETING_NY = MEETING_TOKYO.astimezone(_NEW_YORK)
assert MEETING_NY.date() != MEETING_TOKYO.date() and 13 <= MEETING_NY.hour <= 21 and MEETING_NY.minute == 0
_H12 = MEETING_NY.hour - 12
_ZH_HOUR = "零一二三四五六七八九十"[_H12]
SAYS_NY_TIME = says_regex(rf"(?<![\d:]){MEETING_NY.hour}\s*[:：点时]"
                          rf"|(?:晚上|傍晚|下午|晚)\s*(?:{_H12}|{_ZH_HOUR})\s*[:：点时]"
                          rf"|(?<![\d:]){_H12}(?:[:.]00)?\s*p\.?m", f"{MEETING_NY:%H:%M}")

SALARIES = [("张伟", "销售部", 8500), ("李娜", "技术部", 15000), ("王强", "销售部", 9200), ("刘洋", "财务部", 7800),
            ("陈静", "技术部", 16500), ("杨帆", "销售部", 7600), ("赵磊", "技术部", 13800), ("黄丽", "财务部", 8200)]
SALARIES_CSV = "姓名,部门,月薪\n" + "".join(f"{name},{dept},{pay}\n" for name, dept, pay in SALARIES)
_DEPTS: dict[str, list[int]] = {}
for _row in csv.DictReader(io.StringIO(SALARIES_CSV)):
    _DEPTS.setdefault(_row["部门"], []).append(int(_row["月薪"]))
DEPT_ROWS = [[dept, str(len(pays)), str(sum(pays))] for dept, pays in _DEPTS.items()]
DEPT_HEADER = ["部门", "人数", "月薪合计"]

JIN = [("苹果", 6), ("大米", 25), ("五花肉", 3), ("鸡蛋", 4), ("土豆", 7)]
JIN_TXT = "".join(f"{item} {weight}斤\n" for item, weight in JIN)
JIN_KG = [(line.split()[0], numbers_in(line)[0] * 0.5) for line in _lines(JIN_TXT)]
assert any(kg != int(kg) for _, kg in JIN_KG)

FRESH_16: list[Task] = [
    # numbers, units and dates
    Task("f16-tyres", f"My car's manual says the front tyres should be at {TYRE_PSI} psi, but the gauge at the petrol "
         "station only shows bar. What should I pump them up to?", says_about(TYRE_BAR, 0.02)),
    Task("f16-colour", f"A designer sent me the colour {COLOUR}. What are its red, green and blue values as ordinary "
         "decimal numbers (0 to 255)?", says_numbers(*COLOUR_RGB)),
    Task("f16-iso-week", f"Our sprint planning uses ISO week numbers. Which ISO week is {SPRINT_DAY:%A} "
         f"{SPRINT_DAY.day} {SPRINT_DAY:%B %Y} in?", says_number(SPRINT_WEEK)),
    # knowledge
    Task("f16-liquid-metal", "Which metal is a liquid at ordinary room temperature?",
         says_any("mercury", "quicksilver")),
    # answers read from files
    Task("f16-logins", "How many different users logged in successfully, going by auth.log?", says_count(LOGGED_IN),
         files={"auth.log": AUTH_LOG}),
    Task("f16-tree", "tree.json describes the folder tree of our website. How many files are in it altogether, "
         "counting every subfolder, and what is their total size in bytes?",
         both(says_count(TREE_FILES), says_number(TREE_BYTES)), files={"tree.json": TREE_JSON}),
    Task("f16-actions", "How many open action items (not yet ticked) are assigned to Sam in meeting.md, and which of "
         "them is due first?", both(says_count(SAM_OPEN), says_text(SAM_FIRST_WORD)),
         files={"meeting.md": MEETING_MD}),
    Task("f16-overdrawn", f"bank.csv is my current account for November. The balance was {OPENING:,} at the start of "
         "the month. What was the lowest the balance got to during the month, and on which day?",
         both(either(says_about(float(LOWEST), 0.005), says_about(float(-LOWEST), 0.005)),
              says_day_short(LOWEST_DAY)), files={"bank.csv": BANK_CSV}),
    Task("f16-ini-diff", "Which settings are different between staging.ini and production.ini?",
         names_keys(*DIFFERENT), files={"staging.ini": STAGING_INI, "production.ini": PRODUCTION_INI}),
    Task("f16-twins", "Two of the files in my notes folder have exactly the same contents. Which two?",
         says_text(*TWINS), files=NOTES),
    # workspace chores and file edits
    Task("f16-cache", "Free up some space: delete every file in the cache folder that is bigger than 2 KB. Keep the "
         "smaller ones, and don't touch anything outside the cache folder.",
         both(*(deleted(path) for path in CACHE_BIG), untouched({**CACHE_SMALL, **OUTSIDE_CACHE})),
         files={**CACHE, **OUTSIDE_CACHE}),
    Task("f16-scans", "Sort my scans folder by year: move each scan into a subfolder of scans named after the year at "
         "the start of its file name (scans/2023 and so on). Keep the file names as they are, and leave files "
         "without a date where they are.",
         both(*(moved(path, SCANS_MOVED[path], text) for path, text in SCANS.items()), untouched(SCANS_KEPT)),
         files={**SCANS, **SCANS_KEPT}),
    Task("f16-json-ini", "Our new deploy tool wants INI. Convert settings.json into settings.ini: one section per "
         "top-level key, holding the same keys and values.", ini_like("settings.ini", SETTINGS_INI),
         files={"settings.json": SETTINGS_JSON}),
    Task("f16-deploys", "Make deploys.csv out of deploys.log: one row per deploy (leave out the rollbacks and health "
         "checks), with the columns date,service,version, in the order they happened. Just the date, not the time.",
         csv_rows_in_order("deploys.csv", ["date", "service", "version"], DEPLOY_ROWS),
         files={"deploys.log": DEPLOYS_LOG}),
    Task("f16-leaderboard", "Sort leaderboard.csv so the player with the most points comes first, and so on down. "
         "Keep the header row on top and keep every row as it is.",
         csv_rows_in_order("leaderboard.csv", LEADERBOARD_HEADER, LEADERBOARD_SORTED),
         files={"leaderboard.csv": LEADERBOARD_CSV}),
    Task("f16-headings", "I'm pasting guide.md into a bigger document, so make every heading in it one level deeper "
         "(# becomes ##, ## becomes ###, and so on). Change nothing else.", file_is_exactly("guide.md", GUIDE_AFTER),
         files={"guide.md": GUIDE_MD}),
    Task("f16-projects", "For each line in projects.txt, create a Markdown file in a new folder called projects, "
         "named after the line in lower case with the spaces turned into hyphens (so 'Paint The Fence' would become "
         "projects/paint-the-fence.md). Each file should start with the project's name as a heading.",
         headed_files(PROJECT_FILES), files={"projects.txt": PROJECTS_TXT}),
    Task("f16-todos", "List every TODO comment in app.py in a new file todos.txt, one per line, in the order they "
         "appear: the line number it's on, a colon, then the comment's text without the 'TODO:' part.",
         numbered_notes("todos.txt", TODOS), files={"app.py": APP_PY}),
    # text and settings it makes up
    Task("f16-db-ini", f"Create db.ini for our app with two sections: [database] with host = {DB_SETTINGS['host']}, "
         f"port = {DB_SETTINGS['port']} and name = {DB_SETTINGS['name']}, and [pool] with min_size and max_size set "
         "to sensible whole numbers, max_size larger than min_size.", pool_config("db.ini", DB_SETTINGS)),
    Task("f16-bio", "Write a short speaker bio for the conference programme and save it as bio.txt. Write it in the "
         f"third person, between 30 and 60 words. The speaker: Dr Ana {SPEAKER}, a marine biologist who studies coral "
         "reefs off the coast of Belize.", third_person("bio.txt", 30, 60, SPEAKER)),
    # Chinese, with --lang zh
    Task("f16-zh-hexagon", "正六边形的每个内角是多少度？",
         either(says_number(HEXAGON_ANGLE), says_regex("一百二十", str(HEXAGON_ANGLE))), lang="zh"),
    Task("f16-zh-tokyo", f"我们和东京的客户约在东京时间{MEETING_TOKYO.year}年{MEETING_TOKYO.month}月"
         f"{MEETING_TOKYO.day}日上午{MEETING_TOKYO.hour}点开视频会。我人在纽约，那时纽约是UTC-5，东京是UTC+9。"
         "换算成纽约时间，是几月几号几点？", both(says_day_short(MEETING_NY.date()), SAYS_NY_TIME), lang="zh"),
    Task("f16-zh-departments", "按部门汇总 工资.csv：新建 部门汇总.csv，表头是“部门,人数,月薪合计”，每个部门一行，"
         "部门按它在原表里第一次出现的顺序排列。", csv_rows_in_order("部门汇总.csv", DEPT_HEADER, DEPT_ROWS),
         files={"工资.csv": SALARIES_CSV}, lang="zh"),
    Task("f16-zh-jin", "采购单.txt 里的重量都是按斤记的。请直接在这个文件里把它们都换算成公斤（1斤=0.5公斤），"
         "比如“白菜 8斤”就改成“白菜 4公斤”，其他内容不变。",
         zh_weights("采购单.txt", JIN_KG, ("公斤", "千克", "kg"), "斤"), files={"采购单.txt": JIN_TXT}, lang="zh"),
]

assert len(FRESH_16) == 24 and sum(task.lang == "zh" for task in FRESH_16) == 4
assert len({task.name for task in FRESH_16}) == len(FRESH_16)
