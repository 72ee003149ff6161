# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh21` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written blind, by a helper, on 2026-12-05, before any change it measures, and has never been run yet. Whoever
changes the agent must not read it (neither its tasks nor its failures), and nobody tunes to it. Report it as numbers
only; once it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh21 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a task that asks for
rounding says how, and its check allows for that rounding and no more.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from tasks import Check, Task, both, copied, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, file_json, says_about, says_any, says_count, says_day
from tasks_fresh17 import names_few_of
from tasks_fresh19 import lines_now, only_files

_TENTH = Decimal("0.1")


def _tenths(value: Decimal) -> Decimal:
    """`value` rounded to one decimal place, half up; it must not lie on a half tenth, where rounding rules part
    ways."""
    assert (value * 10) % 1 != Decimal("0.5")
    return value.quantize(_TENTH, rounding=ROUND_HALF_UP)


def says_pattern(pattern: str, shown: str) -> Check:
    """The answer matches the regular expression `pattern` (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer, re.IGNORECASE) else f"answer does not say {shown}"

    return check


def says_one_of_each(groups: list[tuple[str, ...]]) -> Check:
    """The answer mentions, for every group, at least one of its needles (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        low = answer.lower()
        missing = [group[0] for group in groups if not any(needle.lower() in low for needle in group)]
        return f"answer does not mention {', '.join(missing)}" if missing else None

    return check


def mentions_few_of(groups: list[tuple[str, ...]], most: int) -> Check:
    """The answer mentions at most `most` of the groups (a group counts when any of its needles is in it, case
    aside): an answer that lists them all has not picked."""

    def check(answer: str, workspace: Path) -> str | None:
        low = answer.lower()
        named = [group[0] for group in groups if any(needle.lower() in low for needle in group)]
        return None if len(named) <= most else f"answer also mentions {', '.join(named)}"

    return check


def plain_lines(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the non-blank lines `expected`, in order (case and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        got = [line.lower() for line in _lines(content)]
        return None if got == [line.lower() for line in expected] else f"{path} holds {content[:80]!r}"

    return check


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


def csv_column_added(path: str, header: list[str], rows: list[tuple[list[str], Decimal]]) -> Check:
    """`path` is a CSV file with the header `header` and one row per row of `rows`, in order: its first cells the
    same texts, its last cell the number given (as a number, trailing zeros aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        rows_read = csv.reader(io.StringIO(content))
        table = [[cell.strip() for cell in row] for row in rows_read if any(cell.strip() for cell in row)]
        if not table or [cell.lower() for cell in table[0]] != header:
            return f"{path} does not have the header {','.join(header)}: {content[:60]!r}"
        if len(table) != len(rows) + 1:
            return f"{path} has {len(table) - 1} rows, not {len(rows)}"
        for got, (kept, value) in zip(table[1:], rows, strict=True):
            if len(got) != len(header) or got[:-1] != kept:
                return f"{path} has the row {got}, where {kept} belongs"
            try:
                number = Decimal(got[-1])
            except ArithmeticError:
                return f"{path} has {got[-1]!r} where the number {value} belongs"
            if number != value:
                return f"{path} has {got[-1]} where {value} belongs"
        return None

    return check


def yaml_lines(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, in order, leading blanks included (case, quotes, trailing blanks
    and blank lines aside)."""

    def norm(line: str) -> str:
        return line.rstrip().replace('"', "").replace("'", "").lower()

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [norm(line) for line in content.splitlines() if line.strip()]
        return None if got == [norm(line) for line in expected if line.strip()] else f"{path} holds {content[:80]!r}"

    return check


def zh_lines(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the non-blank lines `expected`, in order (blanks and the width of a colon aside)."""

    def norm(line: str) -> str:
        return re.sub(r"\s+", "", line).replace(":", "：")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [norm(line) for line in _lines(content)]
        return None if got == [norm(line) for line in expected] else f"{path} holds {content[:80]!r}"

    return check


def _months_before(day: dt.date, months: int) -> dt.date:
    """The same day of the month `months` months before `day` (which must exist)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return day.replace(year=year, month=month + 1)


# the workspaces
INVENTORY = [("P-100", "Printer paper A4", 42, 20), ("P-101", "Blue ballpoint pens", 8, 25),
             ("P-102", "Stapler", 5, 5), ("P-103", "Sticky notes", 60, 30), ("P-104", "Whiteboard markers", 12, 15),
             ("P-105", "Paper clips", 200, 50), ("P-106", "Envelopes C5", 19, 20), ("P-107", "Toner cartridge", 3, 2)]
INVENTORY_CSV = "sku,name,stock,reorder_level\n" + "".join(f"{sku},{name},{stock},{level}\n"
                                                            for sku, name, stock, level in INVENTORY)
_KEYWORD = {"P-100": "printer paper", "P-101": "ballpoint", "P-102": "stapler", "P-103": "sticky",
            "P-104": "whiteboard marker", "P-105": "paper clip", "P-106": "envelope", "P-107": "toner"}
_LOW = {row["sku"]: int(row["stock"]) <= int(row["reorder_level"])
        for row in csv.DictReader(io.StringIO(INVENTORY_CSV))}
TO_REORDER = [(sku, _KEYWORD[sku]) for sku, low in _LOW.items() if low]
STOCKED = [(sku, _KEYWORD[sku]) for sku, low in _LOW.items() if not low]
assert len(TO_REORDER) == 4 and any(stock == level for _, _, stock, level in INVENTORY)
assert not any(a != b and a in b for a in _KEYWORD.values() for b in _KEYWORD.values())

LATENCIES = [212, 187, 340, 198, 225, 1210, 176, 203, 219, 190, 265, 181, 207, 233, 199, 2450]
LATENCIES_TXT = "".join(f"{ms}\n" for ms in LATENCIES)
_SORTED = sorted(int(line) for line in _lines(LATENCIES_TXT))
MEDIAN = Decimal(_SORTED[len(_SORTED) // 2 - 1] + _SORTED[len(_SORTED) // 2]) / 2
assert len(_SORTED) % 2 == 0 and MEDIAN % 1 != 0 and float(MEDIAN) not in numbers_in(LATENCIES_TXT)
assert abs(Decimal(sum(_SORTED)) / len(_SORTED) - MEDIAN) > 50

PRICES_CSV = ("code,product,unit_price\nTEA-GRN,Green tea 100g,6.40\nTEA-BLK,Black tea 250g,9.90\n"
              "MUG-STN,Stoneware mug,12.50\nPOT-GLS,Glass teapot,27.00\nSTR-MSH,Mesh strainer,4.25\n")
_SALES = [("03-01 09:12", "TEA-GRN", 3), ("03-01 11:40", "MUG-STN", 4), ("03-02 10:05", "STR-MSH", 6),
          ("03-03 15:22", "POT-GLS", 1), ("03-04 09:58", "TEA-GRN", 5), ("03-05 13:31", "TEA-BLK", 2),
          ("03-08 10:47", "MUG-STN", 2), ("03-09 16:10", "STR-MSH", 5), ("03-11 12:02", "TEA-GRN", 4),
          ("03-12 14:36", "POT-GLS", 2), ("03-15 09:20", "MUG-STN", 3), ("03-17 11:15", "TEA-BLK", 3),
          ("03-19 17:44", "STR-MSH", 4), ("03-22 10:30", "TEA-GRN", 6), ("03-24 15:05", "POT-GLS", 1),
          ("03-27 12:50", "MUG-STN", 2)]
SALES_LOG = "".join(f"2027-{when} sold {code} x{qty}\n" for when, code, qty in _SALES)
_UNIT = {row["code"]: (row["product"], Decimal(row["unit_price"])) for row in csv.DictReader(io.StringIO(PRICES_CSV))}
_QTY: Counter[str] = Counter()
for _code, _qty in re.findall(r"sold (\S+) x(\d+)$", SALES_LOG, re.M):
    _QTY[_code] += int(_qty)
_REVENUE = {code: qty * _UNIT[code][1] for code, qty in _QTY.items()}
TOP_CODE = max(_REVENUE, key=lambda code: _REVENUE[code])
TOP_REVENUE = _REVENUE[TOP_CODE]
TOP_WORD = "mug"
assert TOP_WORD in _UNIT[TOP_CODE][0].lower() and all(TOP_WORD not in name.lower() for code, (name, _) in _UNIT.items()
                                                       if code != TOP_CODE)
assert sorted(_REVENUE.values())[-2] < TOP_REVENUE - 10 and _QTY.most_common(1)[0][0] != TOP_CODE
assert max(_UNIT, key=lambda code: _UNIT[code][1]) != TOP_CODE
assert float(TOP_REVENUE) not in numbers_in(PRICES_CSV + SALES_LOG)

THERMOSTAT = {"unit": "celsius", "rooms": {"living room": [20.5, 21.0, 21.5, 22.0, 21.0],
                                           "kitchen": [23.5, 19.0, 20.0, 21.0],
                                           "bedroom": [18.5, 19.0, 19.5, 18.0, 19.0, 18.5],
                                           "study": [21.5, 22.0, 21.7]}}
THERMOSTAT_JSON = json.dumps(THERMOSTAT, indent=2) + "\n"
_ROOMS = json.loads(THERMOSTAT_JSON, parse_float=Decimal)["rooms"]
_AVERAGES = {room: sum(readings) / len(readings) for room, readings in _ROOMS.items()}
WARMEST = max(_AVERAGES, key=lambda room: _AVERAGES[room])
WARMEST_AVERAGE = _AVERAGES[WARMEST]
assert sorted(_AVERAGES.values())[-2] < WARMEST_AVERAGE - Decimal("0.3") and _tenths(WARMEST_AVERAGE)
assert max(_ROOMS, key=lambda room: max(_ROOMS[room])) != WARMEST != max(_ROOMS, key=lambda room: sum(_ROOMS[room]))
assert not any(a != b and a in b for a in _ROOMS for b in _ROOMS)

PACKAGE = {"name": "parcel-api", "version": "2.3.0", "private": True,
           "scripts": {"start": "node src/server.js", "test": "jest"},
           "dependencies": {"express": "^4.19.2", "pg": "^8.11.3", "dotenv": "^16.4.5", "zod": "^3.23.8",
                            "pino": "^9.0.0", "helmet": "^8.0.0", "cors": "^2.8.5"},
           "devDependencies": {"jest": "^29.5.0", "eslint": "^9.10.0", "nodemon": "^3.1.4", "supertest": "^6.3.4"}}
PACKAGE_JSON = json.dumps(PACKAGE, indent=2) + "\n"
RUNTIME_DEPS = len(json.loads(PACKAGE_JSON)["dependencies"])
assert RUNTIME_DEPS not in numbers_in(PACKAGE_JSON) and "7" not in PACKAGE_JSON
_ALL_DEPS = len(PACKAGE["dependencies"]) + len(PACKAGE["devDependencies"])
assert _ALL_DEPS > RUNTIME_DEPS

FIZZ_TO = 30
FIZZBUZZ = ["fizzbuzz" if n % 15 == 0 else "fizz" if n % 3 == 0 else "buzz" if n % 5 == 0 else str(n)
            for n in range(1, FIZZ_TO + 1)]

RETRO_ITEMS, RETRO_MINUTES = 5, 60

BOOKS = [("The Left Hand of Darkness", "Ursula K. Le Guin", 1969), ("Never Let Me Go", "Kazuo Ishiguro", 2005),
         ("Beloved", "Toni Morrison", 1987), ("Things Fall Apart", "Chinua Achebe", 1958),
         ("The Name of the Rose", "Umberto Eco", 1980)]
BOOKS_TSV = "title\tauthor\tyear\n" + "".join(f"{title}\t{author}\t{year}\n" for title, author, year in BOOKS)
BOOKS_LIST = [{"title": row["title"], "author": row["author"], "year": int(row["year"])}
              for row in csv.DictReader(io.StringIO(BOOKS_TSV), delimiter="\t")]

CALC_PY = '''TAX_RATE = 0.2


def calc_total(prices):
    return sum(prices)


def calc_total_tax(prices):
    return calc_total(prices) * TAX_RATE


def report(prices):
    total = calc_total(prices)
    print(f"total: {total}, tax: {calc_total_tax(prices)}")
'''
CALC_RENAMED = re.sub(r"\bcalc_total\b", "compute_total", CALC_PY).splitlines()
assert sum("compute_total" in line for line in CALC_RENAMED) == 3 and CALC_PY.count("calc_total_tax") == 2

READINGS = [("2027-01-10", "-3.5"), ("2027-01-11", "2.0"), ("2027-01-12", "7.3"), ("2027-01-13", "12.8"),
            ("2027-01-14", "-0.4"), ("2027-01-15", "4.6")]
READINGS_CSV = "date,temp_c\n" + "".join(f"{day},{temp}\n" for day, temp in READINGS)
READINGS_F = [([row["date"], row["temp_c"]], _tenths(Decimal(row["temp_c"]) * 9 / 5 + 32))
              for row in csv.DictReader(io.StringIO(READINGS_CSV))]
assert any(Decimal(temp) * 9 / 5 + 32 != value for (_, temp), value in READINGS_F)

CONFIG_YAML = """app:
  name: parcel-tracker
  version: 1.4.2
  debug: true
server:
  port: 8080
  debug_toolbar: false
"""
_VERSION = re.search(r"version: (\d+)\.(\d+)\.(\d+)", CONFIG_YAML)
assert _VERSION is not None
_BUMPED = f"{_VERSION.group(1)}.{_VERSION.group(2)}.{int(_VERSION.group(3)) + 1}"
CONFIG_AFTER = [re.sub(r"version: \S+", f"version: {_BUMPED}", re.sub(r"^(\s*debug): true$", r"\1: false", line))
                for line in CONFIG_YAML.splitlines()]
assert sum(a != b for a, b in zip(CONFIG_YAML.splitlines(), CONFIG_AFTER, strict=True)) == 2

# dates and times from given ones
PASSPORT_EXPIRES, PASSPORT_MONTHS = dt.date(2031, 8, 9), 9
APPLY_BY = _months_before(PASSPORT_EXPIRES, PASSPORT_MONTHS)
assert (APPLY_BY.year, APPLY_BY.month, APPLY_BY.day) == (2030, 11, 9)
assert PASSPORT_EXPIRES - dt.timedelta(days=30 * PASSPORT_MONTHS) not in (APPLY_BY, APPLY_BY + dt.timedelta(days=1))

SPAN_FROM, SPAN_TO = dt.date(2027, 1, 3), dt.date(2027, 6, 2)
SPAN_WEEKS, SPAN_DAYS = divmod((SPAN_TO - SPAN_FROM).days, 7)
assert SPAN_DAYS and SPAN_WEEKS not in (SPAN_FROM.day, SPAN_TO.day)
SAYS_SPAN = says_pattern(rf"(?<![\d.]){SPAN_WEEKS}\s*(?:full\s+)?weeks?[\s,]*(?:and\s*|plus\s*)?{SPAN_DAYS}\s*days?\b",
                         f"{SPAN_WEEKS} weeks and {SPAN_DAYS} days")

FILM_STARTS, FILM_MINUTES = dt.datetime(2027, 1, 1, 19, 40), 157
FILM_ENDS = FILM_STARTS + dt.timedelta(minutes=FILM_MINUTES)
assert FILM_ENDS.date() == FILM_STARTS.date() and FILM_ENDS.hour > 12
SAYS_FILM_END = says_pattern(rf"(?<![\d:.]){FILM_ENDS.hour}[:.h]{FILM_ENDS.minute:02d}(?!\d)"
                             rf"|(?<![\d:.]){FILM_ENDS.hour - 12}[:.]{FILM_ENDS.minute:02d}\s*p\.?\s?m",
                             f"{FILM_ENDS:%H:%M}")

# units and arithmetic
RUN_KM, RUN_SECONDS, METRES_PER_MILE = 5, 27 * 60 + 30, Decimal("1609.344")
_PACE = Decimal(RUN_SECONDS) / (RUN_KM * 1000) * METRES_PER_MILE
PACE_SECONDS = int(_PACE.quantize(Decimal(1), rounding=ROUND_HALF_UP))
assert abs(_PACE - PACE_SECONDS) < Decimal("0.4")
_PACE_MIN, _PACE_SEC = divmod(PACE_SECONDS, 60)
SAYS_PACE = says_pattern(rf"(?<![\d:.]){_PACE_MIN}:{_PACE_SEC:02d}(?!\d)"
                         rf"|(?<![\d:.]){_PACE_MIN}\s*(?:m|mins?|minutes?)\b[\s,]*(?:and\s*)?{_PACE_SEC}\s*(?:s|secs?"
                         rf"|seconds?)\b|(?<![\d:.]){_PACE_MIN}\s*'\s*{_PACE_SEC}\s*(?:\"|'')",
                         f"{_PACE_MIN}:{_PACE_SEC:02d}")

DINNER_BILL, DINNER_TIP, DINERS = 138, Decimal("0.15"), 3  # "one hundred and thirty-eight", "fifteen", "Three"
EACH_PAYS = DINNER_BILL * (1 + DINNER_TIP) / DINERS
assert EACH_PAYS * 100 % 1 == 0 and EACH_PAYS * DINERS != DINNER_BILL * DINNER_TIP

SAVED, RATE, YEARS = 5000, Decimal("0.03"), 4
GROWN = SAVED * (1 + RATE) ** YEARS
assert abs(GROWN - GROWN.quantize(Decimal("0.01"))) < Decimal("0.0045")
assert abs(SAVED * (1 + RATE * YEARS) - GROWN) > 1  # simple interest is wrong

# workspace chores
PICTURES = {"pictures/beach.jpeg": "JPEG beach\n", "pictures/Dog.JPEG": "JPEG dog\n",
            "pictures/sunset.jpg": "JPEG sunset\n", "pictures/map.png": "PNG map\n",
            "pictures/jpeg-notes.txt": "Why some cameras write .jpeg and others .jpg.\n",
            "pictures/old/garden.jpeg": "JPEG garden\n"}
RENAMED_PICTURES = {path: re.sub(r"\.jpeg$", ".jpg", path, flags=re.IGNORECASE) for path in PICTURES
                    if re.search(r"\.jpeg$", path, re.IGNORECASE)}
PICTURES_SAME = {path: text for path, text in PICTURES.items() if path not in RENAMED_PICTURES}
assert len(RENAMED_PICTURES) == 3 and len(PICTURES_SAME) == 3

INBOX = {"inbox/boiler.txt": "URGENT: the boiler is leaking again.\n",
         "inbox/lunch.txt": "Lunch on Friday? The new place on Mill Lane.\n",
         "inbox/server.txt": "Disk almost full on the backup server - urgent, please look at it today.\n",
         "inbox/party.txt": "Party planning: balloons, cake, a playlist.\n",
         "inbox/roof.txt": "The roof repair is Urgent, before the storm on Sunday.\n",
         "inbox/books.txt": "Return the library books by the 14th.\n"}
INBOX_OUTSIDE = {"readme.txt": "Urgent things go in the urgent folder.\n"}
URGENT = [path for path, text in INBOX.items() if re.search(r"\burgent\b", text, re.IGNORECASE)]
assert len(URGENT) == 3 and len({text.count("rgent") for text in INBOX.values()}) == 2

# Chinese
GARDEN_LONG, GARDEN_WIDE = Decimal("12.5"), 8
FENCE, AREA = 2 * (GARDEN_LONG + GARDEN_WIDE), GARDEN_LONG * GARDEN_WIDE
assert FENCE != AREA and FENCE % 1 == 0 and AREA % 1 == 0

MARKS = [("张伟", 88, 92, 79), ("李娜", 95, 78, 90), ("王强", 82, 99, 85), ("赵敏", 90, 85, 94), ("陈晨", 89, 93, 89)]
MARKS_CSV = "姓名,语文,数学,英语\n" + "".join(f"{name},{a},{b},{c}\n" for name, a, b, c in MARKS)
_TOTALS = {row["姓名"]: int(row["语文"]) + int(row["数学"]) + int(row["英语"])
           for row in csv.DictReader(io.StringIO(MARKS_CSV))}
TOP_STUDENT = max(_TOTALS, key=lambda name: _TOTALS[name])
TOP_TOTAL = _TOTALS[TOP_STUDENT]
assert sorted(_TOTALS.values())[-2] < TOP_TOTAL and TOP_TOTAL not in numbers_in(MARKS_CSV)
assert all(max(MARKS, key=lambda row, n=n: row[n])[0] != TOP_STUDENT for n in (1, 2, 3))
OTHER_STUDENTS = [name for name in _TOTALS if name != TOP_STUDENT]

NOTICE = ["各位家长：", "本星期三下午三点在三楼会议室召开家长会。", "请在星期三中午之前回复是否参加。", "谢谢！"]
NOTICE_TXT = "".join(f"{line}\n" for line in NOTICE)
CONTACT = "联系人：王老师"
NOTICE_AFTER = [*(line.replace("星期三", "星期四") for line in _lines(NOTICE_TXT)), CONTACT]
assert NOTICE_TXT.count("星期三") == 2 and "星期四" not in NOTICE_TXT

FRESH_21: list[Task] = [
    # answers computed from files
    Task("f21-reorder", "Which items in inventory.csv need reordering, i.e. have a stock at or below their reorder "
         "level?", both(says_one_of_each([(sku, word) for sku, word in TO_REORDER]),
                        mentions_few_of([(sku, word) for sku, word in STOCKED], 2)),
         files={"inventory.csv": INVENTORY_CSV}),
    Task("f21-median", "latencies.txt has the response times, in milliseconds, of the requests our API served in the "
         "last minute. What is the median response time? If there are two middle values, the median is their "
         "average.", says_about(float(MEDIAN), 0.001), files={"latencies.txt": LATENCIES_TXT}),
    Task("f21-best-seller", "prices.csv is our shop's price list and sales.log has every sale we made in March. Which "
         "product brought in the most money in March, and how much?",
         both(says_text(TOP_WORD), says_about(float(TOP_REVENUE), 0.005)),
         files={"prices.csv": PRICES_CSV, "sales.log": SALES_LOG}),
    Task("f21-warmest", "thermostat.json has today's temperature readings for each room of the house. Which room had "
         "the highest average temperature, and what was that average, to one decimal place?",
         both(says_text(WARMEST), says_about(float(WARMEST_AVERAGE), 0.05)),
         files={"thermostat.json": THERMOSTAT_JSON}),
    Task("f21-deps", "How many runtime dependencies does package.json list? Don't count the dev dependencies.",
         says_count(RUNTIME_DEPS), files={"package.json": PACKAGE_JSON}),
    # files written
    Task("f21-fizzbuzz", f"Write FizzBuzz for the numbers 1 to {FIZZ_TO} into fizzbuzz.txt, one line per number: Fizz "
         "for multiples of 3, Buzz for multiples of 5, FizzBuzz for multiples of both, and the number itself "
         "otherwise.", plain_lines("fizzbuzz.txt", FIZZBUZZ)),
    Task("f21-agenda", "Write agenda.md for a one-hour team retrospective: a title as a Markdown heading, then a "
         f"numbered list of exactly {RETRO_ITEMS} agenda items, each ending with its duration in brackets like "
         "(10 min). The durations must add up to the full hour.", agenda("agenda.md", RETRO_ITEMS, RETRO_MINUTES)),
    Task("f21-books-json", "Convert books.tsv into books.json: a JSON list with one object per book, in the same "
         "order, with the keys title, author and year, the year as a number rather than a string.",
         file_json("books.json", BOOKS_LIST), files={"books.tsv": BOOKS_TSV}),
    # file edits
    Task("f21-rename-function", "In calc.py, rename the function calc_total to compute_total, and update every call "
         "to it. calc_total_tax is a different function: it keeps its name. Change nothing else.",
         lines_now("calc.py", CALC_RENAMED), files={"calc.py": CALC_PY}),
    Task("f21-fahrenheit", "Add a temp_f column to readings.csv, after temp_c, holding each temperature converted to "
         "Fahrenheit and rounded to one decimal place. Keep the existing columns and rows as they are.",
         csv_column_added("readings.csv", ["date", "temp_c", "temp_f"], READINGS_F),
         files={"readings.csv": READINGS_CSV}),
    Task("f21-release-config", "Get config.yaml ready for the release: turn the app's debug setting off and bump the "
         "patch version (the last number of the version). Leave everything else as it is.",
         yaml_lines("config.yaml", CONFIG_AFTER), files={"config.yaml": CONFIG_YAML}),
    # dates and times from given ones
    Task("f21-passport", f"My passport expires on {PASSPORT_EXPIRES.day} {PASSPORT_EXPIRES:%B %Y}. I have to apply "
         "for a new one no later than nine months before it expires. What is the last day I can apply?",
         says_day(APPLY_BY)),
    Task("f21-weeks", f"How many weeks and days are there from {SPAN_FROM.day} {SPAN_FROM:%B %Y} to {SPAN_TO.day} "
         f"{SPAN_TO:%B %Y}?", SAYS_SPAN),
    Task("f21-film", f"The film starts at {FILM_STARTS:%H:%M} and is {FILM_MINUTES} minutes long. At what time does it "
         "finish?", SAYS_FILM_END),
    # units and arithmetic
    Task("f21-pace", f"I ran {RUN_KM} km in 27 minutes 30 seconds. What was my average pace per mile, in minutes and "
         "seconds, to the nearest second?", SAYS_PACE),
    Task("f21-dinner", "Three of us had dinner. The bill came to one hundred and thirty-eight euros and we're adding "
         "a fifteen percent tip. If we split it evenly, how much does each of us pay?",
         says_about(float(EACH_PAYS), 0.005)),
    Task("f21-compound", f"I put {SAVED:,} euros into a savings account that pays {RATE * 100:.0f}% interest a year, "
         f"compounded yearly. How much will be in the account after {YEARS} years, to the cent?",
         says_about(float(GROWN), 0.005)),
    # knowledge
    Task("f21-element", "Which chemical element has the atomic number 26?", says_any("iron")),
    # workspace chores
    Task("f21-jpeg", "In the pictures folder and its subfolders, change the extension of every .jpeg file (however "
         "it is capitalised) to .jpg, keeping the rest of the name. Nothing else should change.",
         both(*(moved(path, new, PICTURES[path]) for path, new in RENAMED_PICTURES.items()),
              *(copied(path, path, text) for path, text in PICTURES_SAME.items())),
         files=PICTURES),
    Task("f21-urgent", "Copy every note in the inbox folder whose text contains the word urgent (in any case) into a "
         "new folder called urgent at the top of the workspace, keeping the file names. The originals stay where "
         "they are.",
         both(*(copied(path, "urgent/" + path.split("/", 1)[1], INBOX[path]) for path in URGENT),
              only_files("urgent", [path.split("/", 1)[1] for path in URGENT]),
              *(copied(path, path, text) for path, text in {**INBOX, **INBOX_OUTSIDE}.items())),
         files={**INBOX, **INBOX_OUTSIDE}),
    # Chinese, with --lang zh
    Task("f21-zh-garden", f"一块长方形菜园长{GARDEN_LONG}米、宽{GARDEN_WIDE}米。沿着四周围一圈篱笆，需要多少米篱笆？"
         "菜园的面积是多少平方米？", both(says_number(float(FENCE)), says_number(float(AREA))), lang="zh"),
    Task("f21-zh-marks", "成绩.csv 是五位同学三门课的成绩。三门总分最高的是谁？总分是多少？",
         both(says_text(TOP_STUDENT), says_number(TOP_TOTAL), names_few_of(OTHER_STUDENTS, 1)),
         files={"成绩.csv": MARKS_CSV}, lang="zh"),
    Task("f21-zh-river", "中国最长的河流是哪一条？", says_any("长江", "扬子江", "yangtze"), lang="zh"),
    Task("f21-zh-notice", f"把 通知.txt 里所有的“星期三”都改成“星期四”，再在文件最后加一行“{CONTACT}”。其他内容不变。",
         zh_lines("通知.txt", NOTICE_AFTER), files={"通知.txt": NOTICE_TXT}, lang="zh"),
]

assert len(FRESH_21) == 24 and sum(task.lang == "zh" for task in FRESH_21) == 4
assert len({task.name for task in FRESH_21}) == len(FRESH_21)
