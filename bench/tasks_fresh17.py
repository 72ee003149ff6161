# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh17` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written blind, by a helper, on 2026-12-03, before any change it measures, and has never been run yet. Whoever
changes the agent must not read it (neither its tasks nor its failures), and nobody tunes to it. Report it as numbers
only; once it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh17 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (its keys and options, its headings and items, how many characters it has), not its wording.
"""

from __future__ import annotations

import configparser
import csv
import datetime as dt
import io
import json
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

from tasks import Check, Task, both, deleted, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, file_json, says_about, says_any, says_count
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_regex
from tasks_fresh9 import csv_rows_in_order
from tasks_fresh12 import says_duration
from tasks_fresh14 import untouched

_HAN = re.compile(r"[\u4e00-\u9fff]")
_ZH_DIGITS = "零一二三四五六七八九"


def says_hms(seconds: int) -> Check:
    """The answer gives `seconds` as hours, minutes and seconds ("1:06:12", "1 hour 6 minutes 12 seconds", "1h 6m
    12s"), as minutes and seconds ("66:12", "66 min 12 s") or as a count of seconds."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    sep = r"[\s,]*(?:and\s*)?"
    clock = rf"(?<![\d:]){hours}:{minutes:02d}:{secs:02d}(?![\d:])"
    spelled = rf"(?<![\d:.]){hours}\s*h\w*{sep}0?{minutes}\s*m\w*{sep}0?{secs}\s*s"
    return either(says_regex(f"{clock}|{spelled}", f"{hours}:{minutes:02d}:{secs:02d}"), says_duration(seconds),
                  says_number(seconds))


def says_hour(hour: int) -> Check:
    """The answer names the clock hour `hour` (13 to 23) as an hour: "13:00", "13h", "13-14", "1 pm", "1-2 pm",
    "13点"."""
    pm, after = hour - 12, hour + 1
    pattern = (rf"(?<![\d:.]){hour}(?:[:.]00|\s*h\b|\s*(?:-|–|—|to|and|until)\s*{after}\b|\s*o'?clock|\s*点)"
               rf"|(?<![\d:.]){pm}(?::00)?\s*(?:-|–|to)?\s*(?:{pm + 1}(?::00)?\s*)?p\.?m\b|\bhour\s+{hour}\b")
    return says_regex(pattern, f"{hour}:00")


def names_few_of(names: list[str], most: int) -> Check:
    """The answer names at most `most` of `names` (an answer that lists them all has not picked)."""

    def check(answer: str, workspace: Path) -> str | None:
        named = [name for name in names if name.lower() in answer.lower()]
        return None if len(named) <= most else f"answer names {len(named)} of the {len(names)} that are not meant"

    return check


def says_phone(number: str) -> Check:
    """The answer gives the phone number `number`, its digits written with or without blanks or hyphens."""
    digits = re.sub(r"\D", "", number)
    return says_regex(r"(?<!\d)" + r"[\s-]?".join(digits) + r"(?!\d)", number)


def _unfolded(content: str) -> list[str]:
    """The lines of a vCard, its folded lines (those starting with a blank) joined to the one before."""
    lines: list[str] = []
    for line in content.splitlines():
        if line[:1] in (" ", "\t") and lines:
            lines[-1] += line[1:]
        elif line.strip():
            lines.append(line.strip())
    return lines


def vcard(path: str, given: str, family: str, phone: str, email: str, org: str) -> Check:
    """`path` is one vCard 3.0: BEGIN:VCARD first, END:VCARD last, VERSION:3.0, FN the full name, N the family name
    then the given one, a TEL with the digits of `phone`, an EMAIL `email` and an ORG starting with `org` (property
    names and their parameters case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _unfolded(content)
        if not lines or lines[0].upper() != "BEGIN:VCARD" or lines[-1].upper() != "END:VCARD":
            return f"{path} is not one vCard: {content[:60]!r}"
        props: dict[str, list[str]] = defaultdict(list)
        for line in lines[1:-1]:
            name, _, value = line.partition(":")
            props[name.split(";")[0].strip().upper()].append(value.strip())
        wanted = {"VERSION": lambda v: v == "3.0",
                  "FN": lambda v: " ".join(v.split()).lower() == f"{given} {family}".lower(),
                  "N": lambda v: [part.strip().lower() for part in v.split(";")[:2]] == [family.lower(), given.lower()],
                  "TEL": lambda v: re.sub(r"\D", "", v) == re.sub(r"\D", "", phone),
                  "EMAIL": lambda v: v.lower() == email.lower(),
                  "ORG": lambda v: v.lower().startswith(org.lower())}
        wrong = [name for name, ok in wanted.items() if not any(ok(value) for value in props.get(name, []))]
        return f"{path} lacks a right {', '.join(wrong)}" if wrong else None

    return check


def quiz(path: str, count: int, options: int) -> Check:
    """`path` holds a JSON list of `count` objects with exactly the keys question (a text, each a different one),
    options (`options` different non-empty texts) and answer (one of its options, word for word)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, list) or len(value) != count or not all(isinstance(item, dict) for item in value):
            return f"{path} does not hold a list of {count} objects: {content[:80]!r}"
        for place, item in enumerate(value, start=1):
            if set(item) != {"question", "options", "answer"}:
                return f"question {place} of {path} has the keys {sorted(item)}"
            choices = item["options"]
            if not isinstance(item["question"], str) or not item["question"].strip():
                return f"question {place} of {path} has no question text"
            if (not isinstance(choices, list) or len(choices) != options
                    or not all(isinstance(choice, str) and choice.strip() for choice in choices)
                    or len({choice.strip().lower() for choice in choices}) != options):
                return f"question {place} of {path} does not have {options} different options"
            if item["answer"] not in choices:
                return f"the answer to question {place} of {path} is not one of its options"
        if len({" ".join(item["question"].lower().split()) for item in value}) != count:
            return f"{path} asks a question twice"
        return None

    return check


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


def zh_length(path: str, fewest: int, most: int, *words: str) -> Check:
    """`path` holds every one of `words` and from `fewest` to `most` characters, counted either way Chinese counts
    them: the Chinese characters only, or every character but blanks."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        missing = [word for word in words if word not in content]
        if missing:
            return f"{path} does not mention {', '.join(missing)}"
        han, chars = len(_HAN.findall(content)), len(re.sub(r"\s", "", content))
        ok = fewest <= han <= most or fewest <= chars <= most
        return None if ok else f"{path} has {han} Chinese characters, {chars} in all"

    return check


def _zh_number(value: int) -> str:
    """`value` (1 to 99) in Chinese numerals."""
    tens, units = divmod(value, 10)
    head = "" if tens == 0 else ("十" if tens == 1 else _ZH_DIGITS[tens] + "十")
    return head + (_ZH_DIGITS[units] if units else "")


# the workspaces
TRACKS = [("Harbour Lights", "The Maple Set", "4:12"), ("Paper Moons", "Juno Reyes", "3:47"),
          ("Northbound", "Kite Theory", "5:31"), ("Salt and Glass", "Mira Oduya", "4:05"),
          ("Late Tram", "The Maple Set", "3:58"), ("Copper Sky", "Dalia Fenn", "6:14"),
          ("Small Hours", "Kite Theory", "4:49"), ("Lemon Tree Road", "Juno Reyes", "3:22"),
          ("Overpass", "Ostrander", "5:03"), ("Tidewater", "Mira Oduya", "4:36"),
          ("Blue Hour Radio", "Dalia Fenn", "4:27"), ("Quiet Engines", "Ostrander", "7:09"),
          ("Orchard", "The Maple Set", "3:51"), ("Last Ferry Home", "Kite Theory", "5:18")]
PLAYLIST_TSV = "no\ttitle\tartist\tlength\n" + "".join(
    f"{n}\t{title}\t{artist}\t{length}\n" for n, (title, artist, length) in enumerate(TRACKS, start=1))
_LENGTHS = [row["length"].split(":") for row in csv.DictReader(io.StringIO(PLAYLIST_TSV), delimiter="\t")]
PLAYLIST_SECONDS = sum(int(minutes) * 60 + int(seconds) for minutes, seconds in _LENGTHS)
assert PLAYLIST_SECONDS > 3600 and PLAYLIST_SECONDS not in numbers_in(PLAYLIST_TSV)

_REQUESTS = [("08:03:12", "GET /", 200), ("08:41:55", "GET /products", 200), ("09:02:09", "GET /products/17", 200),
             ("09:15:40", "POST /cart", 201), ("09:33:02", "GET /cart", 200), ("09:58:47", "GET /checkout", 200),
             ("10:07:31", "GET /", 200), ("10:26:18", "GET /search?q=kettle", 200), ("10:49:05", "GET /login", 200),
             ("11:01:44", "POST /login", 302), ("11:12:20", "GET /account", 200), ("11:30:51", "GET /", 200),
             ("11:47:13", "GET /products/4", 200), ("11:59:02", "POST /cart", 201), ("12:20:37", "GET /", 200),
             ("12:44:16", "GET /products", 200), ("13:00:58", "GET /", 200), ("13:08:21", "GET /products/17", 200),
             ("13:14:45", "POST /cart", 201), ("13:22:09", "GET /checkout", 200), ("13:37:30", "POST /checkout", 500),
             ("13:38:02", "POST /checkout", 201), ("13:51:19", "GET /orders/881", 200), ("14:05:44", "GET /", 200),
             ("14:28:10", "GET /search?q=toaster", 200), ("14:50:33", "GET /products/9", 404),
             ("15:11:27", "GET /", 200), ("15:40:06", "GET /products", 200), ("16:02:52", "POST /cart", 201),
             ("16:35:14", "GET /checkout", 200), ("16:36:40", "POST /checkout", 201), ("17:20:05", "GET /", 200)]
REQUESTS_LOG = "".join(f"2026-11-28 {time} {request} {status} {180 + 37 * n % 410}ms\n"
                       for n, (time, request, status) in enumerate(_REQUESTS))
_PER_HOUR = Counter(line.split()[1][:2] for line in _lines(REQUESTS_LOG))
(_BUSY, BUSY_COUNT), (_, _NEXT) = _PER_HOUR.most_common(2)
BUSY_HOUR = int(_BUSY)
assert BUSY_COUNT > _NEXT and 13 <= BUSY_HOUR <= 22

SERVICES = {"billing": ("https://billing.internal/api", "45s", 3), "search": ("https://search.internal", "1500ms", 5),
            "reports": ("https://reports.internal/v2", "2m", 1), "mailer": ("smtp://mail.internal:587", "90s", 4),
            "auth": ("https://auth.internal", "5000ms", 2), "geo": ("https://geo.internal", "30s", 3)}
SERVICES_INI = "\n".join(f"[{name}]\nurl = {url}\ntimeout = {timeout}\nretries = {retries}\n"
                         for name, (url, timeout, retries) in SERVICES.items())
_UNITS = {"ms": 0.001, "s": 1, "m": 60}
_INI = configparser.ConfigParser(interpolation=None)
_INI.read_string(SERVICES_INI)
_TIMEOUTS = {name: float(match.group(1)) * _UNITS[match.group(2)]
             for name in _INI.sections() for match in [re.fullmatch(r"([\d.]+)(ms|s|m)", _INI[name]["timeout"])]
             if match}
LONGEST = max(_TIMEOUTS, key=lambda name: _TIMEOUTS[name])
LONGEST_SECONDS = _TIMEOUTS[LONGEST]
assert len(_TIMEOUTS) == len(SERVICES) and sorted(_TIMEOUTS.values())[-2] < LONGEST_SECONDS
assert max(_INI.sections(), key=lambda name: float(re.sub(r"[a-z]", "", _INI[name]["timeout"]))) != LONGEST
assert LONGEST_SECONDS not in numbers_in(SERVICES_INI)

_EN = [("app.title", "Corner Shop"), ("nav.home", "Home"), ("nav.basket", "Basket"), ("nav.account", "My account"),
       ("basket.empty", "Your basket is empty"), ("basket.checkout", "Go to checkout"), ("checkout.pay", "Pay now"),
       ("checkout.address", "Delivery address"), ("checkout.success", "Thank you for your order!"),
       ("account.logout", "Sign out"), ("account.orders", "Your orders"), ("footer.contact", "Contact us")]
_DE = [("app.title", "Eckladen"), ("nav.home", "Startseite"), ("nav.account", "Mein Konto"),
       ("nav.basket", "Warenkorb"), ("nav.offers", "Angebote"), ("basket.empty", "Dein Warenkorb ist leer"),
       ("checkout.pay", "Jetzt bezahlen"), ("checkout.address", "Lieferadresse"), ("account.logout", "Abmelden"),
       ("footer.contact", "Kontakt")]
MESSAGES_EN = "# Shop UI strings, English\n\n" + "".join(f"{key} = {text}\n" for key, text in _EN)
MESSAGES_DE = "# Shop UI strings, German\n\n" + "".join(f"{key} = {text}\n" for key, text in _DE)


def _keys(properties: str) -> list[str]:
    return [line.split("=")[0].strip() for line in _lines(properties) if not line.startswith(("#", "!"))]


UNTRANSLATED = [key for key in _keys(MESSAGES_EN) if key not in _keys(MESSAGES_DE)]
TRANSLATED = [key for key in _keys(MESSAGES_EN) if key in _keys(MESSAGES_DE)]
assert len(UNTRANSLATED) == 3 and set(_keys(MESSAGES_DE)) - set(_keys(MESSAGES_EN))
assert not any(a != b and a in b for a in _keys(MESSAGES_EN) + _keys(MESSAGES_DE) for b in _keys(MESSAGES_EN))

_BOOKS = [("bk101", "yes", "The Left Hand of Darkness", "Ursula K. Le Guin", 1969, "9.50"),
          ("bk102", "no", "A Wizard of Earthsea", "Ursula K. Le Guin", 1968, "7.25"),
          ("bk103", "yes", "Things Fall Apart", "Chinua Achebe", 1958, "6.80"),
          ("bk104", "yes", "The Remains of the Day", "Kazuo Ishiguro", 1989, "8.40"),
          ("bk105", "no", "Beloved", "Toni Morrison", 1987, "11.00"),
          ("bk106", "yes", "Wide Sargasso Sea", "Jean Rhys", 1966, "5.95"),
          ("bk107", "no", "Invisible Cities", "Italo Calvino", 1972, "6.50"),
          ("bk108", "yes", "The Master and Margarita", "Mikhail Bulgakov", 1967, "12.30")]
CATALOG_XML = ('<?xml version="1.0" encoding="UTF-8"?>\n<catalog shop="Second Chapter Books" currency="GBP">\n'
               + "".join(f'  <book id="{ident}" available="{available}">\n    <title>{title}</title>\n'
                         f"    <author>{author}</author>\n    <year>{year}</year>\n    <price>{price}</price>\n"
                         "  </book>\n" for ident, available, title, author, year, price in _BOOKS)
               + "</catalog>\n")
_PRICES = [(book.get("available"), Decimal(book.findtext("price") or "0"))
           for book in ET.fromstring(CATALOG_XML).iter("book")]
AVAILABLE_TOTAL = sum(price for available, price in _PRICES if available == "yes")
assert len(_PRICES) == len(_BOOKS) and sum(price for _, price in _PRICES) != AVAILABLE_TOTAL
assert float(AVAILABLE_TOTAL) not in numbers_in(CATALOG_XML)

PICKUP, RETURNED = dt.datetime(2028, 2, 27, 10, 0), dt.datetime(2028, 3, 2, 16, 30)
RENTAL_DAYS = math.ceil((RETURNED - PICKUP) / dt.timedelta(hours=24))
_A_YEAR_EARLIER = math.ceil((RETURNED.replace(year=2027) - PICKUP.replace(year=2027)) / dt.timedelta(hours=24))
assert RENTAL_DAYS not in (_A_YEAR_EARLIER, (RETURNED.date() - PICKUP.date()).days)

DAY_NUMBER, DAY_YEAR = 256, 2028
NUMBERED_DAY = dt.date(DAY_YEAR, 1, 1) + dt.timedelta(days=DAY_NUMBER - 1)
assert (dt.date(DAY_YEAR - 1, 1, 1) + dt.timedelta(days=DAY_NUMBER - 1)).day != NUMBERED_DAY.day

EXPORTS = {"exports/2026-07-orders.csv": "order_id,customer,total\n5101,Hale,42.00\n5102,Ortiz,17.50\n"
                                         "5103,Baines,88.10\n",
           "exports/2026-08-orders.csv": "order_id,customer,total\n",
           "exports/2026-09-orders.csv": "order_id,customer,total\n5240,Kumar,23.99\n5241,Hale,61.00\n",
           "exports/2026-10-orders.csv": "order_id,customer,total\n\n",
           "exports/refunds-q2.csv": "refund_id,order_id,amount\nR77,4980,12.00\n",
           "exports/refunds-q3.csv": "refund_id,order_id,amount\n"}
EXPORTS_KEPT = {"exports/README.txt": "Monthly exports from the shop backend.\n",
                "summary.csv": "month,orders,revenue\n"}
HEADER_ONLY = [path for path, text in EXPORTS.items() if len(_lines(text)) == 1]
EXPORTS_WITH_DATA = {path: text for path, text in EXPORTS.items() if path not in HEADER_ONLY}
assert len(HEADER_ONLY) == 3 and len(_lines(EXPORTS_KEPT["summary.csv"])) == 1

SLIDES = {f"slides/slide{n}.png": f"PNG slide {n}\n" for n in range(1, 12)}
SLIDES_KEPT = {"slides/notes.txt": "Speaker notes are in the shared drive.\n"}
SLIDES_RENAMED = {path: re.sub(r"slide(\d)\.png$", r"slide0\1.png", path) for path in SLIDES}
SLIDES_SAME = {path: text for path, text in SLIDES.items() if SLIDES_RENAMED[path] == path}
assert len(SLIDES_SAME) == 2 and sorted(SLIDES_RENAMED.values()) == list(SLIDES_RENAMED.values())

CUSTOMERS_CSV = ("id,name,email,phone,city\n1,Amira Haddad,amira@example.com,+44 7700 900123,Leeds\n"
                 '2,"Brooks, Daniel",dan.brooks@example.com,+44 7700 900456,York\n'
                 "3,Chen Wei,chen.wei@example.com,+44 7700 900789,Bath\n"
                 '4,"O\'Neill, Siobhan",siobhan@example.com,+353 85 555 0142,Cork\n'
                 "5,Lukas Meyer,lukas@example.com,+49 151 5550 1234,Bremen\n")
_CUSTOMERS = list(csv.reader(io.StringIO(CUSTOMERS_CSV)))
_PHONE = _CUSTOMERS[0].index("phone")
CUSTOMERS_HEADER = [field for place, field in enumerate(_CUSTOMERS[0]) if place != _PHONE]
CUSTOMERS_ROWS = [[field for place, field in enumerate(row) if place != _PHONE] for row in _CUSTOMERS[1:]]
assert sum("," in row[1] for row in CUSTOMERS_ROWS) == 2

DEFAULTS = {"theme": "light", "language": "en",
            "notifications": {"email": True, "sms": False, "digest": "weekly"},
            "editor": {"tab_size": 4, "wrap": False, "font": "monospace"}}
OVERRIDES = {"language": "de", "notifications": {"sms": True}, "editor": {"wrap": True, "tab_size": 2},
             "beta": {"new_search": True}}
DEFAULTS_JSON, OVERRIDES_JSON = json.dumps(DEFAULTS, indent=2) + "\n", json.dumps(OVERRIDES, indent=2) + "\n"


def _merge(base: Any, over: Any) -> Any:
    """`over` laid onto `base`: objects merged key by key, any other value replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{key: _merge(base.get(key), value) for key, value in over.items()}}
    return over


MERGED = _merge(json.loads(DEFAULTS_JSON), json.loads(OVERRIDES_JSON))
assert MERGED != {**DEFAULTS, **OVERRIDES} and len(MERGED["notifications"]) == len(DEFAULTS["notifications"])

SRT_CUES = [("00:00:03,100", "00:00:05,900", "Where were you last night?"),
            ("00:00:06,400", "00:00:09,050", "Out. Walking. It doesn't matter."),
            ("00:00:59,800", "00:01:02,300", "It matters to me."),
            ("00:01:02,900", "00:01:06,000", "Then ask me tomorrow.")]
FILM_SRT = "\n".join(f"{n}\n{start} --> {end}\n{text}\n" for n, (start, end, text) in enumerate(SRT_CUES, start=1))
SRT_LATE = dt.timedelta(milliseconds=2500)


def _shift(stamp: str) -> str:
    """An SRT time `stamp` made SRT_LATE earlier."""
    hours, minutes, rest = stamp.split(":")
    seconds, millis = rest.split(",")
    moment = dt.timedelta(hours=int(hours), minutes=int(minutes), seconds=int(seconds), milliseconds=int(millis))
    total = (moment - SRT_LATE) // dt.timedelta(milliseconds=1)
    assert total >= 0
    return f"{total // 3600000:02d}:{total // 60000 % 60:02d}:{total // 1000 % 60:02d},{total % 1000:03d}"


FILM_FIXED = [re.sub(r"\d\d:\d\d:\d\d,\d\d\d", lambda match: _shift(match.group(0)), line)
              for line in FILM_SRT.splitlines() if line.strip()]
assert sum(a != b for a, b in zip(_lines(FILM_SRT), FILM_FIXED, strict=True)) == len(SRT_CUES)

CARD = {"given": "Elena", "family": "Petrova", "phone": "+44 7700 900318", "email": "elena.petrova@example.org",
        "org": "Northwind Surveys"}

CHANGELOG_MD = """# Changelog

All notable changes to Listo are documented here.

## [2.3.1] - 2027-02-02
### Fixed
- Reminders no longer fire twice after the phone restarts.

## [2.3.0] - 2027-01-12
### Added
- Shared lists.
### Fixed
- Dark mode colours on the settings screen.
"""
RELEASE_VERSION, RELEASE_DAY = "2.4.0", dt.date(2027, 3, 15)

NOTES = {"notes/note-1.txt": "Dentist moved to Thursday 10:40. Bring the insurance card.\n",
         "notes/note-2.txt": "Boiler service booked with Hearth & Flame Heating for the 14th.\n"
                             "Engineer: Tomasz, mobile 07700 900 614.\nHe needs to get at the loft hatch as well.\n",
         "notes/note-3.txt": "Plumber for the kitchen tap: Rhys, 07700 900 287. Ring after 5.\n",
         "notes/note-4.txt": "Gift ideas: a scarf for Mum, a puzzle book for Dad.\n",
         "notes/note-5.txt": "The radiator in the spare room is cold again. Bleed it on Sunday.\n"}
_BOILER = [path for path, text in NOTES.items() if "boiler" in text.lower()]
assert len(_BOILER) == 1
BOILER_NOTE = _BOILER[0]
ENGINEER_PHONE = re.findall(r"\d{5} \d{3} \d{3}", NOTES[BOILER_NOTE])[0]
NOTES_OTHER = {path: text for path, text in NOTES.items() if path != BOILER_NOTE}

RATES_INI = "[rates]\n; euros per hour\nben = 80\nchloe = 72.50\nana = 65\n"
HOURS_CSV = """date,person,hours,task
2026-11-02,ben,3.5,API review
2026-11-03,chloe,6,Data import
2026-11-05,ana,4.25,Design workshop
2026-11-09,ben,7,Load testing
2026-11-12,chloe,2.5,Data import
2026-11-16,ana,5.5,Design workshop
2026-11-19,ben,1.25,Release call
2026-11-23,chloe,8,Migration
2026-11-26,ana,3,Usability notes
"""
_RATES = configparser.ConfigParser(interpolation=None)
_RATES.read_string(RATES_INI)
_HOURS: dict[str, Decimal] = defaultdict(Decimal)
for _row in csv.DictReader(io.StringIO(HOURS_CSV)):
    _HOURS[_row["person"]] += Decimal(_row["hours"])
INVOICE_ROWS = [[person, str(hours), str((hours * Decimal(_RATES["rates"][person])).quantize(Decimal("0.01")))]
                for person, hours in sorted(_HOURS.items())]
INVOICE_TOTAL = sum(Decimal(row[2]) for row in INVOICE_ROWS)
assert set(_HOURS) == set(_RATES["rates"]) and list(_RATES["rates"]) != sorted(_HOURS)
assert [row["person"] for row in csv.DictReader(io.StringIO(HOURS_CSV))][:3] != sorted(_HOURS)

DOZEN_RESULT = 999 * 2 - 12
PENCIL = Decimal("43.20") / 144
assert PENCIL * 100 % 1 == 0 and PENCIL < 1

# Chinese
PARCELS = [("11月2日", "顺丰", "给妈妈寄冬衣", "28"), ("11月4日", "中通", "退货", "8"),
           ("11月7日", "中通", "寄书给同学", "10"), ("11月9日", "京东", "寄茶叶", "19"),
           ("11月12日", "中通", "退货", "8"), ("11月15日", "圆通", "寄文件", "15"),
           ("11月18日", "顺丰", "寄合同", "23.5"), ("11月21日", "中通", "寄手机壳", "12"),
           ("11月25日", "京东", "寄月饼", "22"), ("11月28日", "中通", "退货", "9")]
PARCELS_TXT = "".join(f"{day} {company} {what} {price}元\n" for day, company, what, price in PARCELS)
_SPENT: dict[str, Decimal] = defaultdict(Decimal)
for _line in _lines(PARCELS_TXT):
    _, _company, _, _price = _line.split()
    _SPENT[_company] += Decimal(_price.removesuffix("元"))
PARCELS_TOTAL = sum(_SPENT.values())
TOP_COMPANY = max(_SPENT, key=lambda company: _SPENT[company])
assert sorted(_SPENT.values())[-2] < _SPENT[TOP_COMPANY]
assert Counter(company for _, company, _, _ in PARCELS).most_common(1)[0][0] != TOP_COMPANY
assert not any(a != b and a in b for a in _SPENT for b in _SPENT)

LEAVE_FROM, LEAVE_TO = dt.date(2027, 3, 11), dt.date(2027, 3, 26)
_LEAVE_SPAN = [LEAVE_FROM + dt.timedelta(days=n) for n in range((LEAVE_TO - LEAVE_FROM).days + 1)]
LEAVE_DAYS = sum(day.weekday() < 5 for day in _LEAVE_SPAN)
assert LEAVE_DAYS not in (len(_LEAVE_SPAN), len(_LEAVE_SPAN) - 1, LEAVE_FROM.day, LEAVE_TO.day, LEAVE_FROM.month)

SAYS_LEAVE_IN_WORDS = says_regex(rf"(?<![一二三四五六七八九十]){_zh_number(LEAVE_DAYS)}\s*(?:天|个工作日)",
                                 str(LEAVE_DAYS))

INTRO_NAME, INTRO_CITY = "林晓", "杭州"

FRESH_17: list[Task] = [
    # answers computed from files
    Task("f17-playlist", "How long will playlist.tsv take to play from start to finish?",
         says_hms(PLAYLIST_SECONDS), files={"playlist.tsv": PLAYLIST_TSV}),
    Task("f17-busy-hour", "Going by requests.log, in which hour of the day did the site get the most requests, and "
         "how many requests came in during that hour?", both(says_hour(BUSY_HOUR), says_count(BUSY_COUNT)),
         files={"requests.log": REQUESTS_LOG}),
    Task("f17-timeouts", "Which of the services in services.ini has the longest timeout? Tell me the service and its "
         "timeout in seconds.", both(says_text(LONGEST), says_number(LONGEST_SECONDS)),
         files={"services.ini": SERVICES_INI}),
    Task("f17-untranslated", "messages_de.properties is meant to be the German version of messages_en.properties. "
         "Which keys still need translating, i.e. are in the English file but not in the German one?",
         both(says_text(*UNTRANSLATED), names_few_of(TRANSLATED, 2)),
         files={"messages_en.properties": MESSAGES_EN, "messages_de.properties": MESSAGES_DE}),
    Task("f17-bookshop", "catalog.xml is the stock list of a second-hand bookshop. How much would it cost me to buy "
         "one copy of every book on it that is currently available?", says_about(float(AVAILABLE_TOTAL), 0.005),
         files={"catalog.xml": CATALOG_XML}),
    # dates from given dates
    Task("f17-hire-car", f"I'm picking up a hire car at {PICKUP:%H:%M} on {PICKUP.day} {PICKUP:%B %Y} and bringing "
         f"it back at {RETURNED:%H:%M} on {RETURNED.day} {RETURNED:%B %Y}. The company charges a full day for every "
         "24 hours or part of 24 hours I have the car. How many days will I be charged for?",
         says_count(RENTAL_DAYS)),
    Task("f17-day-number", f"Some programmers celebrate on day number {DAY_NUMBER} of the year. Which date is that in "
         f"{DAY_YEAR}?", says_day_of_month(NUMBERED_DAY)),
    # workspace chores and file edits
    Task("f17-empty-exports", "Some of the CSV files in the exports folder have nothing in them but the header row. "
         "Delete those, and keep every file that has data in it.",
         both(*(deleted(path) for path in HEADER_ONLY), untouched({**EXPORTS_WITH_DATA, **EXPORTS_KEPT})),
         files={**EXPORTS, **EXPORTS_KEPT}),
    Task("f17-zero-pad", "The pictures in the slides folder list in the wrong order, slide10.png before slide2.png. "
         "Rename them so every slide number has two digits (slide01.png and so on). Don't touch anything else.",
         both(*(moved(path, SLIDES_RENAMED[path], text) for path, text in SLIDES.items() if path not in SLIDES_SAME),
              untouched({**SLIDES_SAME, **SLIDES_KEPT})), files={**SLIDES, **SLIDES_KEPT}),
    Task("f17-drop-phone", "For privacy reasons, take the phone column out of customers.csv. Every other column and "
         "row stays exactly as it is.", csv_rows_in_order("customers.csv", CUSTOMERS_HEADER, CUSTOMERS_ROWS),
         files={"customers.csv": CUSTOMERS_CSV}),
    Task("f17-merge", "Build settings.json from defaults.json and overrides.json: start from the defaults, and "
         "whatever overrides.json sets wins. Sections inside sections are merged key by key, not replaced whole. "
         "Leave the two source files alone.",
         both(file_json("settings.json", MERGED),
              untouched({"defaults.json": DEFAULTS_JSON, "overrides.json": OVERRIDES_JSON})),
         files={"defaults.json": DEFAULTS_JSON, "overrides.json": OVERRIDES_JSON}),
    Task("f17-subtitles", "The subtitles in film.srt all show up 2.5 seconds too late. Fix the file so that every "
         "subtitle appears and disappears 2.5 seconds earlier.", file_is_exactly("film.srt", FILM_FIXED),
         files={"film.srt": FILM_SRT}),
    Task("f17-vcard", f"Save my contact card as {CARD['given'].lower()}.vcf in vCard 3.0 format. My name is "
         f"{CARD['given']} {CARD['family']}, my mobile is {CARD['phone']}, my email is {CARD['email']} and I work "
         f"at {CARD['org']}.", vcard(f"{CARD['given'].lower()}.vcf", **CARD)),
    # knowledge
    Task("f17-donor", "Which blood group is the universal donor for red blood cells?",
         says_regex(r"\bO\s*(?:Rh\s*)?(?:neg(?:ative)?\b|[-−–](?!\s*pos))", "O negative")),
    # made-up content written to a file
    Task("f17-quiz", "Make a five-question multiple-choice quiz about the solar system and save it as quiz.json: a "
         "JSON list of objects with the keys question, options (a list of four choices) and answer (the right "
         "choice, written exactly as in options).", quiz("quiz.json", 5, 4)),
    Task("f17-changelog", f"Add an entry for version {RELEASE_VERSION}, released on {RELEASE_DAY.day} "
         f"{RELEASE_DAY:%B %Y}, to CHANGELOG.md, above the existing ones and in the same style. Make up the changes: "
         "it needs an Added section and a Fixed section with at least two items each. The older entries stay as "
         "they are.", changelog_entry("CHANGELOG.md", RELEASE_VERSION, RELEASE_DAY, ("added", "fixed"), 2,
                                      CHANGELOG_MD), files={"CHANGELOG.md": CHANGELOG_MD}),
    # arithmetic in words
    Task("f17-dozen", "Take nine hundred and ninety-nine, double it, then knock off a dozen. What's left?",
         says_number(DOZEN_RESULT)),
    Task("f17-gross", "A gross of pencils costs forty-three dollars and twenty cents. What does one pencil cost?",
         either(says_about(float(PENCIL), 1e-9), says_regex(r"(?<![\d.])30\s*(?:cents?\b|¢|c\b)", "30 cents"))),
    # several steps
    Task("f17-boiler", "One of the notes in the notes folder is about the boiler service. Rename that file to "
         "boiler-service.txt, keeping it in the notes folder, and tell me the engineer's phone number from it.",
         both(moved(BOILER_NOTE, "notes/boiler-service.txt", NOTES[BOILER_NOTE]), untouched(NOTES_OTHER),
              says_phone(ENGINEER_PHONE)), files=NOTES),
    Task("f17-invoice", "Bill the client for November. Using the hourly rates in rates.ini and the hours in "
         "hours.csv, write invoice.csv with the columns person,hours,amount: one row per person, in alphabetical "
         "order, hours being their total hours and amount their hours times their rate, as plain numbers. Then tell "
         "me the invoice total.",
         both(csv_rows_in_order("invoice.csv", ["person", "hours", "amount"], INVOICE_ROWS),
              says_about(float(INVOICE_TOTAL), 0.005)), files={"rates.ini": RATES_INI, "hours.csv": HOURS_CSV}),
    # Chinese, with --lang zh
    Task("f17-zh-cottage", "“三顾茅庐”这个成语讲的是谁三次登门去请谁出山？",
         both(says_text("刘备"), says_any("诸葛亮", "孔明")), lang="zh"),
    Task("f17-zh-parcels", "快递.txt 是我这个月寄快递的记录。我一共花了多少钱？在哪家快递公司花的钱最多？",
         both(says_about(float(PARCELS_TOTAL), 0.005), says_text(TOP_COMPANY)),
         files={"快递.txt": PARCELS_TXT}, lang="zh"),
    Task("f17-zh-leave", f"我打算从{LEAVE_FROM.year}年{LEAVE_FROM.month}月{LEAVE_FROM.day}日请假到"
         f"{LEAVE_TO.month}月{LEAVE_TO.day}日，头尾两天都算在内。周六周日本来就不上班，不用请。我一共要请几天假？",
         either(says_number(LEAVE_DAYS), SAYS_LEAVE_IN_WORDS), lang="zh"),
    Task("f17-zh-intro", f"帮我写一段自我介绍，存到 自我介绍.txt。我叫{INTRO_NAME}，在{INTRO_CITY}做前端开发，"
         "平时喜欢爬山。字数在100到150字之间。", zh_length("自我介绍.txt", 100, 150, INTRO_NAME, INTRO_CITY),
         lang="zh"),
]

assert len(FRESH_17) == 24 and sum(task.lang == "zh" for task in FRESH_17) == 4
assert len({task.name for task in FRESH_17}) == len(FRESH_17)
