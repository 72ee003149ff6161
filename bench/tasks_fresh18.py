# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh18` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written blind, by a helper, on 2026-12-03, before any change it measures, and has never been run yet. Whoever
changes the agent must not read it (neither its tasks nor its failures), and nobody tunes to it. Report it as numbers
only; once it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh18 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (its table's shape, its headings and how many words each answer has, the fields of its
lines), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import ipaddress
import itertools
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from tasks import Check, Task, both, deleted, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, says_about, says_any, says_count
from tasks_fresh4 import file_is_exactly, says_day_of_month, says_regex
from tasks_fresh14 import untouched
from tasks_fresh16 import says_day_short
from tasks_fresh17 import _zh_number, names_few_of

_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _say(value: int) -> str:
    """`value` (0 to 9999) in English words, British style ("two thousand six hundred and fifty")."""
    thousands, rest = divmod(value, 1000)
    hundreds, below = divmod(rest, 100)
    parts = []
    if thousands:
        parts.append(f"{_ONES[thousands]} thousand")
    if hundreds:
        parts.append(f"{_ONES[hundreds]} hundred")
    if below or not parts:
        tens, ones = divmod(below, 10)
        words = _ONES[below] if below < 20 else _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
        parts.append(("and " if parts else "") + words)
    return " ".join(parts)


def _plain(text: str) -> str:
    """`text` in lower case without accents ("Bogotá" as "bogota")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower().strip()


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


def crontab(path: str, entries: dict[str, tuple[set[str], ...]]) -> Check:
    """`path` is a crontab with one entry per command of `entries` and no other (comments, blank lines and
    NAME=value lines aside): each entry's five time fields are among the values `entries` allows (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = [line for line in _lines(content) if not line.startswith("#") and not re.match(r"\w+\s*=", line)]
        found: dict[str, list[str]] = {}
        for line in lines:
            fields = line.split(None, 5)
            command = fields[5].split()[0] if len(fields) == 6 else ""
            if command not in entries or command in found:
                return f"{path} has a line that is not one of the entries asked for: {line!r}"
            found[command] = [field.lower() for field in fields[:5]]
        if set(found) != set(entries):
            return f"{path} lacks an entry for {', '.join(sorted(set(entries) - set(found)))}"
        wrong = [command for command, allowed in entries.items()
                 if not all(field in ok for field, ok in zip(found[command], allowed, strict=True))]
        return f"{path} runs {', '.join(wrong)} at the wrong times" if wrong else None

    return check


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


# the workspaces
_AUTHORS = {"maya": "Maya Lindqvist <maya@lindqvist.dev>", "tomas": "Tomás Okafor <tomas.okafor@example.com>",
            "priya": "Priya Natarajan <priya@natarajan.io>", "jonah": "Jonah Weiss <jweiss@example.net>"}
_COMMITS = [("maya", dt.datetime(2026, 11, 2, 9, 14, 7), "Add CSV export to the reports page", 3, 12, 4),
            ("tomas", dt.datetime(2026, 11, 2, 16, 40, 51), "Rewrite the importer as a streaming parser", 6, 210, 187),
            ("priya", dt.datetime(2026, 11, 3, 11, 5, 33), "Fix the date filter on the orders list", 2, 33, 9),
            ("maya", dt.datetime(2026, 11, 4, 10, 22, 18), "Add tests for the CSV export", 2, 48, 0),
            ("jonah", dt.datetime(2026, 11, 4, 14, 3, 2), "Bump the base image to Debian 12", 1, 5, 5),
            ("priya", dt.datetime(2026, 11, 5, 9, 48, 40), "Translate the checkout emails", 4, 8, 2),
            ("tomas", dt.datetime(2026, 11, 6, 13, 17, 9), "Add retries to the payment client", 3, 95, 21),
            ("maya", dt.datetime(2026, 11, 9, 8, 55, 26), "Typo in the README", 1, 3, 3),
            ("priya", dt.datetime(2026, 11, 10, 15, 31, 12), "Add a dark theme", 7, 61, 14),
            ("maya", dt.datetime(2026, 11, 11, 12, 2, 45), "Remove the old export code", 2, 0, 130),
            ("jonah", dt.datetime(2026, 11, 12, 17, 26, 38), "Set up the staging deploy job", 2, 70, 1),
            ("tomas", dt.datetime(2026, 11, 13, 10, 44, 59), "Cache the exchange rates for an hour", 4, 140, 36),
            ("priya", dt.datetime(2026, 11, 16, 9, 9, 9), "Make the dark theme follow the system setting", 3, 19, 6),
            ("maya", dt.datetime(2026, 11, 17, 11, 38, 14), "Paginate the reports page", 3, 29, 11)]


def _stat(files: int, added: int, removed: int) -> str:
    """A --shortstat line, leaving out a zero count as git does."""
    parts = [f" {files} file{'s' if files > 1 else ''} changed"]
    parts += [f" {added} insertion{'s' if added != 1 else ''}(+)"] if added else []
    parts += [f" {removed} deletion{'s' if removed != 1 else ''}(-)"] if removed else []
    return ",".join(parts)


GITLOG_TXT = "\n".join(
    f"commit {hashlib.sha1(message.encode()).hexdigest()}\nAuthor: {_AUTHORS[who]}\n"
    f"Date:   {when:%a %b} {when.day} {when:%H:%M:%S %Y} +0100\n\n    {message}\n\n"
    f"{_stat(files, added, removed)}\n"
    for who, when, message, files, added, removed in reversed(_COMMITS))
_BY_AUTHOR: Counter[str] = Counter()
_ADDED: Counter[str] = Counter()
for _block in GITLOG_TXT.split("\ncommit "):
    _author = re.search(r"^Author: (.+?) <", _block, re.M)
    assert _author is not None
    _BY_AUTHOR[_author.group(1)] += 1
    _inserted = re.search(r"(\d+) insertions?\(\+\)", _block)
    _ADDED[_author.group(1)] += int(_inserted.group(1)) if _inserted else 0
(TOP_COMMITTER, _TOP_COMMITS), (_, _NEXT_COMMITS) = _BY_AUTHOR.most_common(2)
TOP_COMMITTER_ADDED = _ADDED[TOP_COMMITTER]
assert _TOP_COMMITS > _NEXT_COMMITS and _ADDED.most_common(1)[0][0] != TOP_COMMITTER
assert TOP_COMMITTER_ADDED not in numbers_in(GITLOG_TXT) and sum(_ADDED.values()) != TOP_COMMITTER_ADDED
TOP_FIRST, TOP_LAST = TOP_COMMITTER.split()

_REFS = [("article", "halvorsen2019tides", ["Halvorsen, Ingrid", "Brandt, Mikkel"],
          "Tidal mixing in two Norwegian fjords", "journal = {Journal of Coastal Research}", 2019),
         ("inproceedings", "brandt2020sensors", ["Brandt, Mikkel", "Halvorsen, Ingrid", "Oyelaran, Tunde"],
          "Low-cost salinity sensors for citizen science", "booktitle = {Proceedings of OCEANS 2020}", 2020),
         ("book", "moreau2016estuaries", ["Moreau, Claire"], "Estuaries: A Field Guide",
          "publisher = {Presses de la Mer}", 2016),
         ("article", "oyelaran2021plankton", ["Oyelaran, Tunde", "Silva, Rafael"],
          "Plankton blooms after storm surges", "journal = {Marine Ecology Letters}", 2021),
         ("article", "halvorsen2022ice", ["Ingrid Halvorsen", "Rafael Silva"],
          "Sea ice retreat and fjord circulation", "journal = {Polar Oceanography}", 2022),
         ("phdthesis", "silva2018thesis", ["Silva, Rafael"], "Sediment transport in tidal channels",
          "school = {University of Porto}", 2018),
         ("article", "nakamura2023model", ["Nakamura, Yui", "Halvorsen, Ingrid", "Moreau, Claire"],
          "A coupled model of estuarine mixing", "journal = {Ocean Modelling}", 2023),
         ("inproceedings", "brandt2023buoys", ["Brandt, Mikkel", "Nakamura, Yui"],
          "Drifting buoys on a budget", "booktitle = {Proceedings of OCEANS 2023}", 2023),
         ("article", "moreau2024review", ["Moreau, Claire", "Oyelaran, Tunde"],
          "Twenty years of estuary monitoring: a review", "journal = {Estuarine Science}", 2024),
         ("misc", "halvorsen2025data", ["Halvorsen, Ingrid"], "Fjord temperature profiles 2015-2024 (data set)",
          "howpublished = {Zenodo}", 2025)]
REFS_BIB = "\n".join(f"@{kind}{{{key},\n  author = {{{' and '.join(names)}}},\n  title = {{{title}}},\n  {where},\n"
                     f"  year = {{{year}}}\n}}\n" for kind, key, names, title, where, year in _REFS)
_ON_ENTRIES: Counter[str] = Counter()
for _field in re.findall(r"author = \{(.+?)\},", REFS_BIB):
    _ON_ENTRIES.update({(name.split(",")[0] if "," in name else name.split()[-1]).strip()
                        for name in _field.split(" and ")})
(MOST_PUBLISHED, MOST_ENTRIES), (_, _NEXT_ENTRIES) = _ON_ENTRIES.most_common(2)
assert MOST_ENTRIES > _NEXT_ENTRIES
assert MOST_ENTRIES not in (len(_REFS), REFS_BIB.lower().count(MOST_PUBLISHED.lower()))

_MOUNTS = [("/dev/nvme0n1p2", "468G", "401G", "44G", "/"), ("/dev/nvme0n1p1", "511M", "61M", "451M", "/boot/efi"),
           ("/dev/sda1", "1.8T", "1.7T", "98G", "/srv/media"), ("/dev/sdb1", "932G", "925G", "7.1G", "/backup"),
           ("/dev/sde1", "7.8G", "2.1G", "5.7G", "/scratch"),
           ("/dev/sdc1", "229G", "212G", "5.9G", "/var/lib/docker"), ("/dev/sdd1", "3.6T", "2.5T", "1.1T", "/archive"),
           ("/dev/mapper/vg0-home", "916G", "880G", "36G", "/home")]
_UNIT = {"K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30, "T": 2 ** 40}


def _bytes(size: str) -> float:
    """A `df -h` size ("7.1G") in bytes."""
    return float(size[:-1]) * _UNIT[size[-1]]


DF_TXT = "Filesystem            Size  Used Avail Use% Mounted on\n" + "".join(
    f"{device:<21} {size:>5} {used:>5} {avail:>5} {round(100 * _bytes(used) / _bytes(size)):>3}% {mount}\n"
    for device, size, used, avail, mount in _MOUNTS)
_AVAIL = {fields[5]: _bytes(fields[3]) for fields in (line.split() for line in DF_TXT.splitlines()[1:])}
LOW_SPACE = [mount for mount, free in _AVAIL.items() if free < 10 * 2 ** 30]
ROOMY = [mount for mount in _AVAIL if mount not in LOW_SPACE and mount != "/"]
_USE = {line.split()[5]: int(line.split()[4].rstrip("%")) for line in DF_TXT.splitlines()[1:]}
assert all(not 8 * 2 ** 30 <= free <= 12 * 2 ** 30 for free in _AVAIL.values())
assert any(_USE[mount] >= 95 for mount in ROOMY) and any(_USE[mount] < 50 for mount in LOW_SPACE)
assert not any(a != b and a in b for a in LOW_SPACE + ROOMY for b in _AVAIL)

REQUIREMENTS_TXT = """# web app
Django==4.2.11
requests>=2.31
psycopg[binary]==3.1.18
celery~=5.3.6
redis
gunicorn==21.2.0
Pillow>=10.0,<11
python-dateutil==2.9.0.post0
sentry-sdk
whitenoise==6.6.0

# development
pytest==8.1.1
black>=24.1
"""
_SPECS = [re.match(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*(.*)$", line) for line in _lines(REQUIREMENTS_TXT)
          if not line.startswith("#")]
PINNED = [match.group(1) for match in _SPECS if match and re.fullmatch(r"==[^,*]+", match.group(2))]
UNPINNED = [match.group(1) for match in _SPECS if match and match.group(1) not in PINNED]
assert len(PINNED) + len(UNPINNED) == len(_SPECS) and any("~=" in match.group(2) for match in _SPECS if match)
assert not any(a != b and a.lower() in b.lower() for a in PINNED + UNPINNED for b in PINNED + UNPINNED)

_ELEVATIONS = [112.4, 118.9, 131.2, 127.5, 140.8, 156.3, 149.0, 152.6, 171.9, 165.2, 143.7, 138.1, 146.5, 120.3,
               109.8]
_RIDE_START = dt.datetime(2026, 10, 18, 8, 2, 0)
RIDE_GPX = ('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="BikeLog" '
            'xmlns="http://www.topografix.com/GPX/1/1">\n  <trk>\n    <name>Sunday loop</name>\n    <trkseg>\n'
            + "".join(f'      <trkpt lat="{59.9100 + 0.0031 * n:.4f}" lon="{10.7500 + 0.0047 * n:.4f}">'
                      f"<ele>{ele}</ele><time>{_RIDE_START + dt.timedelta(seconds=95 * n):%Y-%m-%dT%H:%M:%S}Z</time>"
                      "</trkpt>\n" for n, ele in enumerate(_ELEVATIONS))
            + "    </trkseg>\n  </trk>\n</gpx>\n")
_GPX = "{http://www.topografix.com/GPX/1/1}"
_ELES = [Decimal(point.findtext(f"{_GPX}ele") or "0") for point in ET.fromstring(RIDE_GPX).iter(f"{_GPX}trkpt")]
CLIMBED = float(sum(max(b - a, Decimal(0)) for a, b in itertools.pairwise(_ELES)))
assert len(_ELES) == len(_ELEVATIONS) and abs(CLIMBED - float(max(_ELES) - min(_ELES))) > 5
assert all(abs(CLIMBED - number) > 1 for number in numbers_in(RIDE_GPX))

# dates
RELEASE_YEAR, RELEASE_WEEK = 2027, 10
RELEASE_MONDAY = dt.date.fromisocalendar(RELEASE_YEAR, RELEASE_WEEK, 1)
assert dt.date(RELEASE_YEAR, 1, 1) + dt.timedelta(weeks=RELEASE_WEEK - 1) != RELEASE_MONDAY

FY_START_MONTH = 4
FY_DAY = dt.date(2028, 2, 14)
FY_QUARTER = (FY_DAY.month - FY_START_MONTH) % 12 // 3 + 1
_Q_START_MONTH = (FY_START_MONTH - 1 + 3 * (FY_QUARTER - 1)) % 12 + 1
_Q_START = dt.date(FY_DAY.year - (FY_DAY.month < _Q_START_MONTH), _Q_START_MONTH, 1)
_Q_NEXT = dt.date(_Q_START.year + (_Q_START.month + 3 > 12), (_Q_START.month + 2) % 12 + 1, 1)
FY_DAYS_LEFT = (_Q_NEXT - FY_DAY).days
assert _Q_START <= FY_DAY < _Q_NEXT and (FY_DAY.month - 1) // 3 + 1 != FY_QUARTER
assert FY_DAYS_LEFT not in (FY_DAY.day, FY_DAY.month, FY_START_MONTH)
_ORDINAL = ["first", "second", "third", "fourth"][FY_QUARTER - 1]
SAYS_FY_QUARTER = says_regex(rf"\bQ\s*{FY_QUARTER}\b|\b{_ORDINAL}\s+(?:fiscal\s+|financial\s+)?quarter\b"
                             rf"|\bquarter\s*{FY_QUARTER}\b", f"Q{FY_QUARTER}")

# workspace chores
ENV_TXT = """# App
APP_ENV=production
APP_SECRET=7f3c9e1b2a4d
DEBUG=false

# Database
DATABASE_URL=postgres://app:s3cret@db:5432/app
DB_POOL=10

# Mail
SMTP_HOST=smtp.mailgun.org
SMTP_PORT=587
SMTP_PASSWORD="p@ss word"
"""
ENV_EXAMPLE = [line if line.startswith("#") else line.split("=", 1)[0] + "=" for line in _lines(ENV_TXT)]
assert not any(line.endswith("=") for line in _lines(ENV_TXT)) and sum(line.endswith("=") for line in ENV_EXAMPLE) == 8

PHOTOS = {f"photos/IMG_{n}.jpg": f"JPEG image {n}\n" for n in range(4101, 4108)}
RENAMES_CSV = """old,new
IMG_4101.jpg,2026-07-14-lake.jpg
IMG_4102.jpg,2026-07-14-cabin.jpg
IMG_4104.jpg,2026-07-15-canoe.jpg
IMG_4105.jpg,2026-07-15-sunset.jpg
IMG_4107.jpg,2026-07-16-drive-home.jpg
"""
PHOTO_RENAMES = {f"photos/{row['old']}": f"photos/{row['new']}" for row in csv.DictReader(io.StringIO(RENAMES_CSV))}
PHOTOS_KEPT = {path: text for path, text in PHOTOS.items() if path not in PHOTO_RENAMES}
assert set(PHOTO_RENAMES) < set(PHOTOS) and len(PHOTOS_KEPT) == 2


def _post(title: str, day: str, draft: str | None, body: str) -> str:
    return f"---\ntitle: {title}\ndate: {day}\n" + (f"draft: {draft}\n" if draft else "") + f"---\n\n{body}\n"


POSTS = {"posts/2026-09-02-hello.md": _post("Hello again", "2026-09-02", "false", "The blog is back."),
         "posts/2026-09-20-garden.md": _post("What grew this summer", "2026-09-20", None, "Mostly courgettes."),
         "posts/2026-10-05-sourdough.md": _post("Sourdough, week one", "2026-10-05", "true", "TODO: photos."),
         "posts/2026-10-19-first-draft.md": _post("Tips for your first draft", "2026-10-19", "false",
                                                  "A first draft only has to exist. Finish it, then fix it."),
         "posts/2026-11-01-winter.md": _post("Getting the bikes ready for winter", "2026-11-01", "true",
                                             "Lights, mudguards, tyres."),
         "posts/2026-11-28-books.md": _post("Books of the year", "2026-11-28", "false", "Five I loved.")}
DRAFTS = [path for path, text in POSTS.items()
          if re.search(r"^draft:\s*true\s*$", text.split("---")[1], re.M)]
PUBLISHED = {path: text for path, text in POSTS.items() if path not in DRAFTS}
assert len(DRAFTS) == 2 and any("draft" in path for path in PUBLISHED)

ALLOWLIST = ["10.0.0.10", "192.168.1.20", "10.0.0.9", "172.16.4.1", "192.168.1.3", "10.0.0.10", "10.0.1.2",
             "192.168.1.100", "8.8.4.4", "172.16.10.1", "172.16.4.1"]
ALLOWLIST_TXT = "".join(f"{address}\n" for address in ALLOWLIST)
ALLOWLIST_SORTED = sorted(set(_lines(ALLOWLIST_TXT)), key=ipaddress.ip_address)
assert sorted(set(ALLOWLIST)) != ALLOWLIST_SORTED and len(ALLOWLIST_SORTED) < len(ALLOWLIST)

NOTICE_TXT = ("From Monday 7 December the east entrance of the building will be closed while the lifts are replaced. "
              "Please use the west entrance on Harbour Street instead; it has step-free access, and the reception "
              "desk will move there for the duration of the works.\n\nDeliveries should still go to the loading bay "
              "at the back. If you have any questions about access, parking or accessibility during the works, "
              "contact the facilities team on extension 4410 or at facilities@example.org.\n")
NOTICE_WIDTH = 60
assert all(len(line) > 2 * NOTICE_WIDTH for line in _lines(NOTICE_TXT))

# made-up content and given content in a format
SOUTH_AMERICA = {"argentina": {"buenos aires"}, "bolivia": {"sucre", "la paz"}, "brazil": {"brasilia"},
                 "chile": {"santiago", "santiago de chile"}, "colombia": {"bogota"}, "ecuador": {"quito"},
                 "guyana": {"georgetown"}, "paraguay": {"asuncion"}, "peru": {"lima"}, "suriname": {"paramaribo"},
                 "uruguay": {"montevideo"}, "venezuela": {"caracas"}}

BACKUP_AT, SYNC_MINUTE = "03:15", 30
_BACKUP_HOUR, _BACKUP_MINUTE = (int(part) for part in BACKUP_AT.split(":"))
_ANY = {"*", "*/1"}
CRON_ENTRIES = {"/home/ana/bin/backup.sh": ({str(_BACKUP_MINUTE), f"{_BACKUP_MINUTE:02d}"},
                                            {str(_BACKUP_HOUR), f"{_BACKUP_HOUR:02d}"}, _ANY, _ANY,
                                            {"0", "7", "sun"}),
                "/home/ana/bin/sync.sh": ({str(SYNC_MINUTE)}, _ANY, _ANY, _ANY, _ANY)}

# arithmetic in words
KNOTS, SAIL_HOURS = 18, 2.5
SAILED_KM = KNOTS * SAIL_HOURS * 1852 / 1000  # a knot is a nautical mile (1852 m) an hour
assert SAILED_KM not in (KNOTS * SAIL_HOURS, KNOTS * SAIL_HOURS * 1.609344)

PAY, SHARE, SAVE_MONTHS = 2650, 5, 12 + 12 // 2
SAVED = PAY // SHARE * SAVE_MONTHS
assert PAY % SHARE == 0 and SAVED not in (PAY, PAY * SAVE_MONTHS)

# several steps
TEMPLATE_TXT = """Dear {first_name},

We would be delighted to see you at the Harbour Rowing Club's winter dinner.
You are seated at table {table}, and your menu choice is {menu}.

With best wishes,
The dinner committee
"""
GUESTS_CSV = """first_name,last_name,table,menu
Ana,Ferreira,3,vegetarian
Bilal,Chaudhry,1,fish
Clara,Jensen,3,beef
Dmitri,Volkov,2,vegetarian
"""
INVITES = {f"invites/{row['first_name'].lower()}.txt": _lines(TEMPLATE_TXT.format_map(row))
           for row in csv.DictReader(io.StringIO(GUESTS_CSV))}
assert len(INVITES) == 4 and not any("{" in line for lines in INVITES.values() for line in lines)


def _mail(sender: str, subject: str, day: dt.datetime, body: str) -> str:
    return (f"From: {sender}\nTo: Robin Hale <robin@halebuild.example>\nSubject: {subject}\n"
            f"Date: {day:%a}, {day.day} {day:%b %Y %H:%M:%S} +0000\nContent-Type: text/plain; charset=utf-8\n\n"
            f"{body}\n")


MAIL = {"mail/2026-11-03-invoice-2211.eml": _mail(
            "Acme Supplies Billing <billing@acme-supplies.com>", "Invoice 2211", dt.datetime(2026, 11, 3, 9, 12),
            "Hello Robin,\n\nPlease find invoice 2211 for the timber order.\nInvoice total: 412.50 EUR\n\nAcme"),
        "mail/2026-11-05-newsletter.eml": _mail(
            "Garden World <news@gardenworld.example>", "Bulbs are back", dt.datetime(2026, 11, 5, 7, 0),
            "Spring bulbs are in stock again, 20% off until Sunday."),
        "mail/2026-11-10-invoice-2240.eml": _mail(
            "Acme Supplies Accounts <accounts@acme-supplies.com>", "Invoice 2240", dt.datetime(2026, 11, 10, 14, 30),
            "Dear customer,\n\nInvoice 2240 covers the roofing felt and the fixings.\nInvoice total: 1,086.00 EUR"),
        "mail/2026-11-12-fwd-invoice.eml": _mail(
            "Jamie Cole <jamie@halebuild.example>", "Fwd: Invoice 2211", dt.datetime(2026, 11, 12, 16, 45),
            "Robin, did we pay this one?\n\n---------- Forwarded message ----------\n"
            "From: billing@acme-supplies.com\nInvoice total: 412.50 EUR"),
        "mail/2026-11-18-invoice-7781.eml": _mail(
            "Acme Supplies UK <invoices@acme-supplies.co.uk>", "Invoice 7781", dt.datetime(2026, 11, 18, 10, 5),
            "Hello,\n\nInvoice 7781 for the sample pack.\nInvoice total: 95.00 EUR"),
        "mail/2026-11-24-invoice-2297.eml": _mail(
            "Acme Supplies Billing <billing@acme-supplies.com>", "Invoice 2297", dt.datetime(2026, 11, 24, 8, 40),
            "Hello Robin,\n\nInvoice 2297 for the extra plasterboard.\nInvoice total: 238.75 EUR\n\nAcme"),
        "mail/2026-11-27-dentist.eml": _mail(
            "SmileCare <reception@smilecare.example>", "Your appointment", dt.datetime(2026, 11, 27, 12, 0),
            "A reminder of your check-up on 3 December at 10:40. Fee: 60.00 EUR")}
ACME = "acme-supplies.com"
FROM_ACME = [path for path, text in MAIL.items()
             if re.search(rf"^From:.*@{re.escape(ACME)}>?$", text.split("\n\n")[0], re.M)]
MAIL_KEPT = {path: text for path, text in MAIL.items() if path not in FROM_ACME}
_TOTALS = {path: [Decimal(amount.replace(",", "")) for amount in re.findall(r"Invoice total: ([\d,.]+)", text)]
           for path, text in MAIL.items()}
ACME_TOTAL = sum(amount for path in FROM_ACME for amount in _TOTALS[path])
_MENTIONING = sum(amount for path, text in MAIL.items() if ACME.split(".")[0] in text for amount in _TOTALS[path])
assert len(FROM_ACME) == 3 and _MENTIONING != ACME_TOTAL and float(ACME_TOTAL) not in numbers_in("".join(MAIL.values()))

# Chinese
PILL_FIRST, PILL_EVERY, PILL_NTH = dt.datetime(2027, 1, 5, 8, 0), 8, 20
PILL_AT = PILL_FIRST + dt.timedelta(hours=PILL_EVERY * (PILL_NTH - 1))
assert PILL_AT.date() != (PILL_FIRST + dt.timedelta(hours=PILL_EVERY * PILL_NTH)).date()
assert 13 <= PILL_AT.hour <= 21 and PILL_AT.minute == 0
_H12 = PILL_AT.hour - 12
SAYS_PILL_TIME = says_regex(rf"(?<![\d:]){PILL_AT.hour}\s*[:：点时]"
                            rf"|(?:晚上|傍晚|下午|晚)\s*(?:{_H12}|{_zh_number(_H12)})\s*[:：点时]"
                            rf"|(?<![\d:]){_H12}(?:[:.]00)?\s*p\.?m", f"{PILL_AT:%H:%M}")

CHI, CUN, CUN_PER_CHI, METRE_PER_CHI = 5, 6, 10, Fraction(1, 3)
HEIGHT_CM = float((CHI + Fraction(CUN, CUN_PER_CHI)) * METRE_PER_CHI * 100)
assert abs(HEIGHT_CM - round(HEIGHT_CM)) > 0.2

DIARY = ["2026/11/3 晴 和小李去爬山，山顶风很大", "2026/11/8 阴 在家把《三体》看了1/3", "2026/11/14 雨 加班到九点",
         "2026/11/21 晴 给外婆打电话，她说腌了两坛咸菜", "2026/11/29 多云 把阳台的花都搬进了屋"]
DIARY_TXT = "".join(f"{line}\n" for line in DIARY)
DIARY_AFTER = [re.sub(r"(?<!\d)(\d{4})/(\d{1,2})/(\d{1,2})(?!\d)", r"\1年\2月\3日", line) for line in _lines(DIARY_TXT)]
DIARY_EXAMPLE = dt.date(2026, 1, 1)
assert sum(a != b for a, b in zip(DIARY, DIARY_AFTER, strict=True)) == len(DIARY) and "1/3" in DIARY_AFTER[1]
assert f"{DIARY_EXAMPLE.year}年{DIARY_EXAMPLE.month}月{DIARY_EXAMPLE.day}日" not in "".join(DIARY_AFTER)

FRESH_18: list[Task] = [
    # answers computed from files
    Task("f18-commits", "Going by gitlog.txt, who made the most commits, and how many lines did that person add "
         "altogether?", both(says_any(TOP_FIRST, TOP_LAST), says_number(TOP_COMMITTER_ADDED)),
         files={"gitlog.txt": GITLOG_TXT}),
    Task("f18-bibtex", "Which author is on the most entries in refs.bib, and on how many entries?",
         both(says_text(MOST_PUBLISHED), says_count(MOST_ENTRIES)), files={"refs.bib": REFS_BIB}),
    Task("f18-disk", "df.txt is what df -h printed on our file server. Which filesystems have less than 10 GB of "
         "space left? Give me their mount points.", both(says_text(*LOW_SPACE), names_few_of(ROOMY, 1)),
         files={"df.txt": DF_TXT}),
    Task("f18-pins", "Which packages in requirements.txt are not pinned to one exact version?",
         both(says_text(*UNPINNED), names_few_of(PINNED, 3)), files={"requirements.txt": REQUIREMENTS_TXT}),
    Task("f18-climb", "ride.gpx is the track of my Sunday bike ride. How many metres of climbing did I do in total, "
         "adding up every uphill stretch?", says_about(CLIMBED, 0.5), files={"ride.gpx": RIDE_GPX}),
    # dates from given dates
    Task("f18-iso-monday", f"Our planning board says the release is in ISO week {RELEASE_WEEK} of {RELEASE_YEAR}. "
         "What is the date of the Monday of that week?", says_day_of_month(RELEASE_MONDAY)),
    Task("f18-fiscal", f"Our financial year starts on 1 {dt.date(2000, FY_START_MONTH, 1):%B}. Which quarter of the "
         f"financial year is {FY_DAY.day} {FY_DAY:%B %Y} in, and how many days are left in that quarter, counting "
         "that day itself?", both(SAYS_FY_QUARTER, says_number(FY_DAYS_LEFT))),
    # workspace chores and file edits
    Task("f18-env", "Create a .env.example from .env that I can commit: the same comments and the same keys in the "
         "same order, but every value left empty (just KEY= with nothing after the equals sign). Don't change .env.",
         both(file_is_exactly(".env.example", ENV_EXAMPLE), untouched({".env": ENV_TXT})), files={".env": ENV_TXT}),
    Task("f18-renames", "renames.csv says what each photo in the photos folder should be called. Rename them "
         "accordingly, keeping them in the photos folder; photos that aren't in the list keep their names.",
         both(*(moved(old, new, PHOTOS[old]) for old, new in PHOTO_RENAMES.items()), untouched(PHOTOS_KEPT)),
         files={**PHOTOS, "renames.csv": RENAMES_CSV}),
    Task("f18-drafts", "In the posts folder, delete every post whose front matter marks it as a draft. Keep all "
         "the others.", both(*(deleted(path) for path in DRAFTS), untouched(PUBLISHED)), files=POSTS),
    Task("f18-allowlist", "Tidy allowlist.txt: put the IP addresses in numerical order (so 10.0.0.9 comes before "
         "10.0.0.10), list each address only once, and save the result back into allowlist.txt.",
         file_is_exactly("allowlist.txt", ALLOWLIST_SORTED), files={"allowlist.txt": ALLOWLIST_TXT}),
    Task("f18-wrap", f"Re-wrap notice.txt so that no line is longer than {NOTICE_WIDTH} characters. Break lines only "
         "between words, keep every word in its order, and keep the blank line between the two paragraphs.",
         rewrapped("notice.txt", NOTICE_TXT, NOTICE_WIDTH), files={"notice.txt": NOTICE_TXT}),
    # knowledge
    Task("f18-resistance", "What is the SI unit of electrical resistance?", says_regex(r"\bohms?\b|Ω", "ohm")),
    # made-up content, and given content in a format
    Task("f18-table", "Make countries.md: a Markdown table with the columns Country, Capital and Currency, and a row "
         "for each of five different South American countries.",
         table_of("countries.md", ["Country", "Capital", "Currency"], 5, SOUTH_AMERICA)),
    Task("f18-faq", "Write faq.md for my bike rental shop: a level-one heading first, then exactly four questions "
         "customers might ask, each as a level-two heading ending with a question mark, with an answer of no more "
         "than 40 words under each.", faq("faq.md", 4, 40, "bike", "bicycle", "cycl")),
    Task("f18-cron", f"Write crontab.txt with two crontab entries: one that runs /home/ana/bin/backup.sh at "
         f"{BACKUP_AT} every Sunday, and one that runs /home/ana/bin/sync.sh at {SYNC_MINUTE} minutes past every "
         "hour.", crontab("crontab.txt", CRON_ENTRIES)),
    # arithmetic in words
    Task("f18-ferry", f"A ferry cruises at {_say(KNOTS)} knots. How many kilometres does it cover in "
         f"{_say(int(SAIL_HOURS))} and a half hours?", says_about(SAILED_KM, 0.35)),
    Task("f18-savings", f"If I put aside a fifth of my monthly pay of {_say(PAY)}, how much will I have saved after "
         "a year and a half?", says_number(SAVED)),
    # several steps
    Task("f18-invites", "Using template.txt and guests.csv, write one invitation per guest into a new invites "
         "folder, named after the guest's first name in lower case (invites/ana.txt and so on), with every "
         "{placeholder} in the template filled in from that guest's row. Leave the template and the CSV as they are.",
         both(*(file_is_exactly(path, lines) for path, lines in INVITES.items()),
              untouched({"template.txt": TEMPLATE_TXT, "guests.csv": GUESTS_CSV})),
         files={"template.txt": TEMPLATE_TXT, "guests.csv": GUESTS_CSV}),
    Task("f18-acme", f"Move every email in the mail folder that was sent from an {ACME} address into mail/acme, "
         "keeping the file names, and tell me what the invoice totals in those emails add up to.",
         both(*(moved(path, path.replace("mail/", "mail/acme/"), MAIL[path]) for path in FROM_ACME),
              untouched(MAIL_KEPT), says_about(float(ACME_TOTAL), 0.005)), files=MAIL),
    # Chinese, with --lang zh
    Task("f18-zh-pills", f"医生让我每{PILL_EVERY}小时吃一次药，第一次是{PILL_FIRST.year}年{PILL_FIRST.month}月"
         f"{PILL_FIRST.day}日早上{PILL_FIRST.hour}点。第{PILL_NTH}次吃药是几月几号几点？",
         both(says_day_short(PILL_AT.date()), SAYS_PILL_TIME), lang="zh"),
    Task("f18-zh-solstice", "二十四节气里，北半球白天最长的是哪一个？", says_any("夏至"), lang="zh"),
    Task("f18-zh-height", f"我爷爷说他年轻时身高{_zh_number(CHI)}尺{_zh_number(CUN)}寸。按市制一尺等于三分之一米、"
         f"一尺等于{_zh_number(CUN_PER_CHI)}寸算，合多少厘米？", says_about(HEIGHT_CM, 0.5), lang="zh"),
    Task("f18-zh-diary", "把 日记.txt 里的日期都改成“"
         f"{DIARY_EXAMPLE.year}年{DIARY_EXAMPLE.month}月{DIARY_EXAMPLE.day}日”这种写法，其他内容一律不变。",
         file_is_exactly("日记.txt", DIARY_AFTER), files={"日记.txt": DIARY_TXT}, lang="zh"),
]

assert len(FRESH_18) == 24 and sum(task.lang == "zh" for task in FRESH_18) == 4
assert len({task.name for task in FRESH_18}) == len(FRESH_18)
