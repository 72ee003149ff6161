# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh5` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh5 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given numbers; every expected date from the given dates with datetime, never
from today; a check of a file edit reads the file, not the answer; a check of made-up content looks at its
properties (its fields, its line count, its numbers), not its wording.
"""

from __future__ import annotations

import configparser
import csv
import datetime as dt
import io
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

from tasks import Check, Task, both, deleted, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, file_is_lines, file_json, says_about, says_count
from tasks_fresh4 import either, says_day_of_month, says_numbers, says_regex


def ini_is(path: str, expected: dict[str, dict[str, str]]) -> Check:
    """`path` is an INI file with exactly the sections and keys of `expected`, each value the same text or the same
    number."""

    def same(got: str, want: str) -> bool:
        if got.strip().lower() == want.lower():
            return True
        got_numbers, want_numbers = numbers_in(got), numbers_in(want)
        return bool(want_numbers) and got_numbers == want_numbers

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(content)
        except configparser.Error:
            return f"{path} is not an INI file: {content[:60]!r}"
        got = {section: dict(parser[section]) for section in parser.sections()}
        if set(got) != set(expected) or any(set(got[s]) != set(keys) for s, keys in expected.items()):
            return f"{path} has other sections or keys: {content[:80]!r}"
        wrong = [key for s, keys in expected.items() for key, value in keys.items() if not same(got[s][key], value)]
        return f"{path} has the wrong {', '.join(wrong)}" if wrong else None

    return check


def times_table(path: str, base: int, upto: int) -> Check:
    """`path` has `upto` lines of three or more numbers (a title aside), the i-th naming i and ending in base * i
    ("7 x 3 = 21")."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        rows = [row for row in map(numbers_in, _lines(content)) if len(row) >= 3]
        ok = len(rows) == upto and all(
            row and abs(row[-1] - base * i) < 1e-9 and any(abs(n - i) < 1e-9 for n in row[:-1])
            for i, row in enumerate(rows, start=1))
        return None if ok else f"{path} holds {content[:80]!r}"

    return check


def json_records(path: str, count: int, fields: tuple[str, ...], at: str) -> Check:
    """`path` holds a JSON list of `count` objects, each with non-empty text in every one of `fields`, `at` holding
    an @."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, list) or len(value) != count:
            return f"{path} does not hold a list of {count}: {content[:80]!r}"
        for record in value:
            if not isinstance(record, dict) or not all(isinstance(record.get(f), str) and record[f].strip()
                                                       for f in fields):
                return f"{path} has a record without {', '.join(fields)}: {record!r:.80}"
            if "@" not in record[at]:
                return f"{path} has a record without an address in {at}"
        return None

    return check


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# the workspaces
INVENTORY = {"warehouse": "north", "updated": "2026-11-30", "items": [
    {"sku": "A-100", "name": "USB-C cable", "stock": 42}, {"sku": "A-205", "name": "Wireless mouse", "stock": 7},
    {"sku": "B-310", "name": "Laptop stand", "stock": 15}, {"sku": "B-412", "name": "HDMI adapter", "stock": 3},
    {"sku": "C-118", "name": "Webcam", "stock": 11}, {"sku": "C-240", "name": "Desk lamp", "stock": 9}]}
LOWEST = min(INVENTORY["items"], key=lambda item: item["stock"])
ORDERS = [("1001", "Germany", 72.40), ("1002", "France", 55.00), ("1003", "Germany", 38.90),
          ("1004", "Spain", 120.00), ("1005", "Germany", 51.25), ("1006", "Germany", 49.99),
          ("1007", "France", 18.50), ("1008", "Germany", 204.10), ("1009", "Spain", 66.60),
          ("1010", "Germany", 12.00), ("1011", "Germany", 87.35)]
ORDERS_CSV = "order_id,country,total\n" + "".join(f"{n},{c},{t:.2f}\n" for n, c, t in ORDERS)
BIG_GERMAN = sum(1 for row in _csv_rows(ORDERS_CSV) if row["country"] == "Germany" and float(row["total"]) > 50)
LATENCIES = [212, 187, 340, 199, 251, 176, 305, 230, 194]
LATENCY_CSV = "timestamp,endpoint,ms\n" + "".join(
    f"2026-12-01T09:{4 * n:02d}:00,/api/search,{ms}\n" for n, ms in enumerate(LATENCIES))
MEDIAN_MS = statistics.median(int(row["ms"]) for row in _csv_rows(LATENCY_CSV))
COMPOSE = ('services:\n  web:\n    image: nginx:1.27\n    ports:\n      - "8081:80"\n    depends_on:\n      - db\n'
           '  db:\n    image: postgres:16\n    ports:\n      - "5433:5432"\n    environment:\n'
           '      POSTGRES_PASSWORD: example\n  cache:\n    image: redis:7\n    ports:\n      - "6380:6379"\n')
DB_HOST_PORT = int(re.findall(r"db:.*?\"(\d+):5432\"", COMPOSE, re.DOTALL)[0])
SHIFTS = [("Mon", "08:45", "17:15"), ("Tue", "09:00", "17:30"), ("Wed", "08:30", "16:00"),
          ("Thu", "09:15", "18:00"), ("Fri", "08:00", "13:00")]
TIMESHEET = "day,start,finish\n" + "".join(f"{day},{start},{end}\n" for day, start, end in SHIFTS)
WORKED_MINUTES = sum(
    (dt.datetime.strptime(row["finish"], "%H:%M") - dt.datetime.strptime(row["start"], "%H:%M")).seconds // 60
    for row in _csv_rows(TIMESHEET))
STORY = ("The river was low that summer. We walked along the riverbank every evening, and my brother said the "
         "River Alder had never looked so tired. Other rivers in the valley had dried to stones, but our river "
         "still moved, slow and brown. One night we heard the river before we saw it: rain in the hills, and by "
         "morning the rivers were full again.\n")
RIVER_COUNT = len(re.findall(r"\briver\b", STORY, re.IGNORECASE))
DEADLINES = {"Renew car insurance": "2027-01-08", "File tax return": "2027-01-31", "Passport renewal": "2026-12-19",
             "Dentist check-up": "2027-02-11", "Pay council tax": "2026-12-28"}
DEADLINES_TXT = "".join(f"{what}: {day}\n" for what, day in DEADLINES.items())
FIRST_DEADLINE = min(DEADLINES, key=lambda what: DEADLINES[what])
DEADLINE_SPAN = (dt.date.fromisoformat(max(DEADLINES.values())) - dt.date.fromisoformat(min(DEADLINES.values()))).days
VERSION = "1.4.2"
PACKAGE = {"name": "weather-widget", "version": VERSION, "private": True,
           "scripts": {"build": "vite build", "test": "vitest"}, "dependencies": {"preact": "^10.19.0"}}
_MAJOR, _MINOR, _ = (int(part) for part in VERSION.split("."))
PACKAGE_BUMPED = {**PACKAGE, "version": f"{_MAJOR}.{_MINOR + 1}.0"}
SETTINGS = {"network": {"host": "10.0.0.5", "timeout": "45", "retries": "3"},
            "ui": {"theme": "dark", "font_size": "14"}}
SETTINGS_INI = "".join(f"[{section}]\n" + "".join(f"{key} = {value}\n" for key, value in keys.items()) + "\n"
                       for section, keys in SETTINGS.items())
_DOUBLED = str(2 * int(SETTINGS["network"]["timeout"]))
SETTINGS_DOUBLED = {**SETTINGS, "network": {**SETTINGS["network"], "timeout": _DOUBLED}}
SCORES = [("score", "player"), ("1840", "Nadia"), ("2210", "Felix"), ("975", "Hugo"), ("1502", "Greta")]
SCORES_CSV = "".join(f"{a},{b}\n" for a, b in SCORES)
AGENDA = ["# Team meeting", "1. Welcome", "2. Last month's numbers", "3. Hiring update", "4. Any other business"]
AGENDA_AFTER = [*AGENDA[:4], "4. Office move", "5. Any other business"]
DOWNLOADS = {"downloads/invoice-march.pdf": "%PDF invoice\n", "downloads/holiday.png": "png pixels\n",
             "downloads/resume.pdf": "%PDF resume\n", "downloads/diagram.png": "png diagram\n",
             "downloads/notes.txt": "call the plumber\n"}
DUMPS = ["backups/db-2026-11-28.sql", "backups/db-2026-12-01.sql", "backups/db-2026-11-30.sql",
         "backups/db-2026-10-15.sql"]
NEWEST_DUMP = max(DUMPS)
DUMPS_OTHER = {"backups/README.txt": "restore with psql\n", "schema.sql": "create table t (id int);\n"}
SALES = [("北京", "9月", 128), ("上海", "9月", 141), ("广州", "9月", 96), ("深圳", "9月", 110),
         ("北京", "10月", 135), ("上海", "10月", 119), ("广州", "10月", 102), ("深圳", "10月", 147),
         ("北京", "11月", 150), ("上海", "11月", 137), ("广州", "11月", 99), ("深圳", "11月", 121)]
SALES_CSV = "城市,月份,销售额（万元）\n" + "".join(f"{city},{month},{amount}\n" for city, month, amount in SALES)
_BY_CITY: dict[str, int] = defaultdict(int)
for _city, _month, _amount in SALES:
    _BY_CITY[_city] += _amount
TOP_CITY = max(_BY_CITY, key=lambda city: _BY_CITY[city])
TODO_ZH = ["[完成] 交房租", "买牛奶", "[完成] 预约体检", "给妈妈打电话", "修自行车", "[完成] 还图书馆的书"]
LEASE = (dt.date(2026, 8, 15), dt.date(2027, 2, 14))
SUNDAYS_2027 = sum(1 for n in range(365) if (dt.date(2027, 1, 1) + dt.timedelta(days=n)).weekday() == 6)
MPG = (100 / 6.5) * 3.785411784 / 1.609344  # 6.5 litres per 100 km in miles per US gallon
FENCE = (2 * (12.5 + 8) - 1.2) * 14.20
VISA_DAY = dt.date(2027, 2, 28) - dt.timedelta(days=45)

FRESH_5: list[Task] = [
    # values read from files
    Task("f5-low-stock", "inventory.json lists what's in the warehouse. Which item is running lowest, i.e. has the "
         "fewest units left? Tell me its name and SKU.", both(says_text(LOWEST["name"]), says_text(LOWEST["sku"])),
         files={"inventory.json": json.dumps(INVENTORY, indent=2) + "\n"}),
    Task("f5-german-orders", "How many orders in orders.csv went to Germany and were worth more than 50?",
         says_count(BIG_GERMAN), files={"orders.csv": ORDERS_CSV}),
    Task("f5-median", "what's the median response time in latency.csv (the ms column)?", says_number(MEDIAN_MS),
         files={"latency.csv": LATENCY_CSV}),
    Task("f5-compose", "Going by docker-compose.yml, which port on the host machine do I connect to for the "
         "database service?", says_number(DB_HOST_PORT), files={"docker-compose.yml": COMPOSE}),
    Task("f5-timesheet", "timesheet.csv has when I started and finished each day this week (no breaks to take off). "
         "How many hours did I work in total?",
         either(says_about(WORKED_MINUTES / 60, 0.005), says_numbers(WORKED_MINUTES // 60, WORKED_MINUTES % 60)),
         files={"timesheet.csv": TIMESHEET}),
    Task("f5-river", "Count how often river shows up in story.txt as a standalone word, whatever its "
         "capitalisation. Plurals and longer words that merely contain it don't count.", says_count(RIVER_COUNT),
         files={"story.txt": STORY}),
    Task("f5-deadlines", "Which of the deadlines in deadlines.txt comes up first? And how many days after it is the "
         "very last one?", both(says_text(FIRST_DEADLINE.split()[0]), says_number(DEADLINE_SPAN)),
         files={"deadlines.txt": DEADLINES_TXT}),
    # edits of a file, checked by reading it
    Task("f5-bump", "Bump the minor version in package.json the semver way (the patch number goes back to zero). "
         "Nothing else in the file should change.", file_json("package.json", PACKAGE_BUMPED),
         files={"package.json": json.dumps(PACKAGE, indent=2) + "\n"}),
    Task("f5-timeout", "Double the timeout in settings.ini and leave every other setting as it is.",
         ini_is("settings.ini", SETTINGS_DOUBLED), files={"settings.ini": SETTINGS_INI}),
    Task("f5-swap", "The two columns in scores.csv are the wrong way round. Swap them so each row, the header too, "
         "has the player first and then the score.",
         file_is_lines("scores.csv", [f"{b},{a}" for a, b in SCORES], spaces=False), files={"scores.csv": SCORES_CSV}),
    Task("f5-agenda", "Put 'Office move' into agenda.md as a new item straight after the hiring update, and renumber "
         "the list so it still counts up one by one.", file_is_lines("agenda.md", AGENDA_AFTER, spaces=False),
         files={"agenda.md": "\n".join(AGENDA) + "\n"}),
    # content made up and written to a file, checked by its properties
    Task("f5-times-table", "Write the 7 times table into table.txt, from 7 x 1 up to 7 x 12, one multiplication per "
         "line with its result (like 7 x 1 = 7).", times_table("table.txt", 7, 12)),
    Task("f5-team-json", "Create team.json holding a JSON list of four made-up team members. Each member is an "
         "object with the fields name, role and email.",
         json_records("team.json", 4, ("name", "role", "email"), "email")),
    # dates between given dates
    Task("f5-lease", "My lease runs from 15 August 2026 to 14 February 2027, both of those days included. How many "
         "days is that in all?", says_number((LEASE[1] - LEASE[0]).days + 1)),
    Task("f5-sundays", "How many Sundays does the year 2027 have?", says_number(SUNDAYS_2027)),
    # a conversion and arithmetic in words
    Task("f5-fuel", "My car uses 6.5 litres of fuel per 100 km. What is that in miles per US gallon, roughly?",
         says_about(MPG, 0.1)),
    Task("f5-fence", "My garden is a rectangle 12.5 m long and 8 m wide. I want a fence all the way round except for "
         "a gate opening of 1.2 m, and fencing costs 14.20 per metre. What will the fencing cost me?",
         says_about(FENCE, 0.005)),
    # knowledge
    Task("f5-element", "Which chemical element has atomic number 26?", says_regex(r"\biron\b|\bFe\b|铁", "iron")),
    # workspace chores
    Task("f5-by-type", "Tidy up the downloads folder: give each kind of file its own subfolder named after the "
         "extension (a .zip, say, would go into downloads/zip/) and move every file into the right one.",
         both(*(moved(path, path.replace("downloads/", f"downloads/{path.rsplit('.', 1)[1]}/"), text)
                for path, text in DOWNLOADS.items())), files=DOWNLOADS),
    Task("f5-prune", "The backups folder has several database dumps with their date in the file name. Delete all "
         "the dumps except the most recent one; leave anything that isn't a dump alone.",
         both(*(deleted(path, NEWEST_DUMP, *DUMPS_OTHER) for path in DUMPS if path != NEWEST_DUMP)),
         files={**dict.fromkeys(DUMPS, "-- pg_dump\n"), **DUMPS_OTHER}),
    # Chinese, with --lang zh
    Task("f5-zh-sales", "sales.csv 是几个城市最近三个月的销售额。三个月加起来，哪个城市卖得最多？",
         says_text(TOP_CITY), files={"sales.csv": SALES_CSV}, lang="zh"),
    Task("f5-zh-visa", "我的签证2027年2月28日到期，续签材料至少要在到期前45天交上去。最晚哪天必须交？",
         says_day_of_month(VISA_DAY), lang="zh"),
    Task("f5-zh-mu", "老家有一块4.5亩的地，合多少平方米？", says_about(4.5 * 10000 / 15, 1), lang="zh"),
    Task("f5-zh-todo", "把 todo.txt 里已经做完的事（以“[完成]”开头的那些行）删掉，其余的行原样保留。",
         file_is_lines("todo.txt", [line for line in TODO_ZH if not line.startswith("[完成]")]),
         files={"todo.txt": "".join(f"{line}\n" for line in TODO_ZH)}, lang="zh"),
]
