# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh12` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh12 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date is computed from the given ones with
datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content looks
at its properties (its keys, its header, its row count, the types of its fields), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path

from tasks import Check, Task, both, deleted, moved, numbers_in, says_number, says_text
from tasks_fresh import _read, file_is_lines, kept, says_about, says_any, says_weekday_of
from tasks_fresh4 import says_day_of_month, says_regex


def json_object(path: str, keys: tuple[str, ...], at: str) -> Check:
    """`path` holds one JSON object with exactly the keys `keys`, each a non-empty text, `at` holding an @."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, dict) or sorted(value) != sorted(keys):
            return f"{path} does not hold one object with the keys {', '.join(keys)}: {content[:80]!r}"
        if not all(isinstance(value[key], str) and value[key].strip() for key in keys):
            return f"{path} has a value that is not a non-empty text"
        return None if "@" in value[at] else f"{path} has no @ in {at}"

    return check


def _rows(content: str) -> list[list[str]]:
    """The non-blank rows of a CSV text, each field stripped."""
    return [[field.strip() for field in row] for row in csv.reader(io.StringIO(content)) if any(f.strip() for f in row)]


def priced_list(path: str, header: list[str], count: int) -> Check:
    """`path` is a CSV file with the header `header` (item, quantity, unit price; case aside) and `count` rows, the
    quantity a whole number and the price a number (a currency sign aside); the answer states the list's total,
    quantity times price summed, to the cent."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = _rows(content)
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != count or any(len(row) != len(header) or not row[0] for row in body):
            return f"{path} does not hold {count} full rows: {content[:80]!r}"
        total = 0.0
        for row in body:
            price = row[2].lstrip("$€£¥").strip()
            if not re.fullmatch(r"\d+", row[1]) or not re.fullmatch(r"\d+(?:\.\d+)?", price):
                return f"{path} has a row whose quantity or price is not a number: {row}"
            total += int(row[1]) * float(price)
        total = round(total, 2)
        if any(abs(number - total) < 0.011 for number in numbers_in(answer)):
            return None
        return f"answer does not state the list's total {total:.2f}"

    return check


def file_number(path: str, value: float, tolerance: float) -> Check:
    """`path` states one number and no other (a unit beside it aside), within `tolerance` of `value`."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        found = numbers_in(content)
        if len(found) == 1 and abs(found[0] - value) <= tolerance:
            return None
        return f"{path} holds {content[:60]!r}"

    return check


def says_duration(seconds: int) -> Check:
    """The answer gives `seconds` as minutes and seconds ("27:21", "27 min 21 s", "27 minutes and 21 seconds")."""
    minutes, rest = divmod(seconds, 60)
    return says_regex(rf"(?<![\d:]){minutes}(?::|\s*m\w*,?\s*(?:and\s*)?){rest:02d}(?![\d:])", f"{minutes}:{rest:02d}")


def _long(day: dt.date) -> str:
    """`day` as "April 18, 2027"."""
    return f"{day:%B} {day.day}, {day.year}"


def _zh(day: dt.date) -> str:
    """`day` as "2027年5月20日"."""
    return f"{day.year}年{day.month}月{day.day}日"


# the bill: tax and tip both on the pre-tax amount, split evenly
BILL, TAX, TIP, DINERS = 187.40, 0.085, 0.18, 6
EACH = round(BILL * (1 + TAX + TIP) / DINERS, 2)

# the lease, counting both ends
LEASE_FROM, LEASE_TO = dt.date(2027, 4, 18), dt.date(2028, 1, 9)
LEASE_DAYS = (LEASE_TO - LEASE_FROM).days + 1

# a date some days after a given one
START, OFFSET = dt.date(2027, 2, 11), 137
LATER = START + dt.timedelta(days=OFFSET)

INVENTORY = {"warehouse": "North", "items": [
    {"sku": "T-100", "name": "hammer", "category": "tools", "qty": 14, "unit_price": 12.5},
    {"sku": "G-200", "name": "work gloves", "category": "safety", "qty": 40, "unit_price": 3.25},
    {"sku": "T-101", "name": "wrench set", "category": "tools", "qty": 6, "unit_price": 34.99},
    {"sku": "S-300", "name": "hard hat", "category": "safety", "qty": 12, "unit_price": 18.4},
    {"sku": "T-102", "name": "cordless drill", "category": "tools", "qty": 3, "unit_price": 89.0},
    {"sku": "P-400", "name": "paint roller", "category": "painting", "qty": 25, "unit_price": 4.75},
]}
TOOLS_VALUE = round(sum(i["qty"] * i["unit_price"] for i in INVENTORY["items"] if i["category"] == "tools"), 2)

EXPENSES = [("2027-03-01", "groceries", 54.20), ("2027-03-02", "transport", 12.50), ("2027-03-04", "dining", 38.90),
            ("2027-03-06", "groceries", 71.35), ("2027-03-07", "dining", 46.10), ("2027-03-09", "utilities", 89.99),
            ("2027-03-11", "groceries", 23.80), ("2027-03-12", "dining", 64.75), ("2027-03-14", "transport", 40.00),
            ("2027-03-15", "dining", 27.30)]
EXPENSES_CSV = "date,category,amount\n" + "".join(f"{d},{c},{a:.2f}\n" for d, c, a in EXPENSES)
GROCERIES = round(sum(a for _, c, a in EXPENSES if c == "groceries"), 2)
_BY_CATEGORY = {c: sum(a for _, k, a in EXPENSES if k == c) for _, c, _ in EXPENSES}
TOP_CATEGORY = max(_BY_CATEGORY, key=_BY_CATEGORY.__getitem__)

ACCESS_LOG = "".join(f'{ip} - - [12/Mar/2027:{t} +0000] "GET {page} HTTP/1.1" {status} {size}\n' for ip, t, page,
                     status, size in [
    ("203.0.113.5", "10:01:22", "/index.html", 200, 5120),
    ("198.51.100.7", "10:01:40", "/pricing", 200, 8311),
    ("203.0.113.9", "10:02:03", "/old-blog/post-3", 404, 209),
    ("192.0.2.44", "10:02:15", "/docs/404.html", 200, 1874),
    ("198.51.100.7", "10:03:51", "/favicon.ico", 404, 209),
    ("203.0.113.5", "10:04:12", "/login", 302, 0),
    ("192.0.2.10", "10:05:30", "/api/items?page=2", 200, 15022),
    ("203.0.113.9", "10:06:02", "/wp-admin", 404, 209),
    ("192.0.2.44", "10:06:45", "/static/app.js", 304, 0),
    ("198.51.100.23", "10:07:19", "/contact", 500, 612),
    ("203.0.113.5", "10:08:33", "/images/logo-old.png", 404, 209),
    ("192.0.2.10", "10:09:01", "/api/items?page=3", 200, 14870),
])
NOT_FOUND = sum(1 for line in ACCESS_LOG.splitlines() if re.search(r'" 404 \d+$', line))

GRADES = [("Priya", 82), ("Tom", 74), ("Hana", 75), ("Omar", 91), ("Lucas", 68), ("Mei", 88), ("Jonas", 59)]
GRADES_CSV = "name,score\n" + "".join(f"{n},{s}\n" for n, s in GRADES)
PASSED = [n for n, s in GRADES if s >= 75]

SETTINGS = "# service settings\nhost = 0.0.0.0\nport = 8080\ntimeout = 30\nretries = 3\nlog_level = info\n"
SETTINGS_AFTER = SETTINGS.replace("timeout = 30", "timeout = 45").replace("log_level = info", "log_level = debug")

TODO = "buy stamps\ncall the plumber\nreturn library books\n"
TODO_ADDED = "book dentist appointment"

TAGS = "python\nlinux\ndocker\npython\nbash\nlinux\ngit\nawk\ndocker\nvim\n"
TAGS_AFTER = sorted(set(TAGS.split()))

APP_LOG, WORKER_LOG = "2027-03-12 10:00 started\n2027-03-12 10:05 ready\n", "job 17 done\njob 18 failed\n"
README = "Logs and reports of the nightly job.\n"
REPORT_CSV = "run,status\n17,ok\n18,failed\n"

DRAFT_1, DRAFT_2 = "# Essay\n\nFirst rough draft.\n", "# Essay\n\nThe final text, proofread.\n"

WALL_UP, WALL_DOWN = 1961, 1989

TITLE = "Ten Tips for Better Sleep & Focus (2027 Edition)"
_SLUG_WORDS = re.findall(r"[a-z0-9]+", TITLE.lower())
SLUG = "-".join(_SLUG_WORDS)
SLUG_AND = SLUG.replace("sleep-focus", "sleep-and-focus")

PEOPLE = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Torvalds", "Barbara Liskov", "Dennis Ritchie"]
BY_SURNAME = [f"{last}, {first}" for first, last in sorted((p.split() for p in PEOPLE), key=lambda p: p[1])]

MILES, GALLONS = 412, 13.6
L_PER_100KM = GALLONS * 3.785411784 / (MILES * 1.609344 / 100)

RUNS = ["27:41", "26:58", "28:12", "27:05", "26:49"]
MEAN_RUN = round(sum(int(m) * 60 + int(s) for m, s in (r.split(":") for r in RUNS)) / len(RUNS))

PRICE_FROM, PRICE_TO = 84.20, 97.55
RISE = (PRICE_TO - PRICE_FROM) / PRICE_FROM * 100

# the Chinese tasks
ZH_FROM, ZH_TO = dt.date(2027, 5, 20), dt.date(2027, 10, 1)
SCORES = [{"name": "李雷", "math": 86, "english": 91}, {"name": "韩梅梅", "math": 93, "english": 88},
          {"name": "王芳", "math": 78, "english": 95}, {"name": "张伟", "math": 90, "english": 72},
          {"name": "刘洋", "math": 81, "english": 84}]
MATH_MEAN = sum(s["math"] for s in SCORES) / len(SCORES)
MATH_TOP = max(SCORES, key=lambda s: s["math"])["name"]
COAT = 680 * 0.85
COAT_PAID = COAT - 60 if COAT >= 500 else COAT
GROCERY_LIST = [("苹果", 12.5), ("牛奶", 8), ("面包", 15.8), ("鸡蛋", 22), ("酸奶", 9.9)]
GROCERY_TOTAL = round(sum(price for _, price in GROCERY_LIST), 2)

FRESH_12: list[Task] = [
    Task("split-dinner-bill",
         f"Dinner for six came to ${BILL:.2f} before tax. Sales tax is 8.5%, and we're leaving an 18% tip on the "
         "pre-tax amount. If we split everything evenly, how much does each of us pay? Round to the cent.",
         says_about(EACH, 0.005)),
    Task("lease-length-inclusive",
         f"My lease runs from {_long(LEASE_FROM)} through {_long(LEASE_TO)}, counting both the first and the last "
         "day. How many days is that?",
         says_number(LEASE_DAYS)),
    Task("date-137-days-later",
         f"What date is {OFFSET} days after {_long(START)}, and what day of the week will that be?",
         both(says_day_of_month(LATER), says_weekday_of(LATER))),
    Task("tools-stock-value",
         "What is the total value (quantity times unit price) of everything in the tools category in "
         "inventory.json?",
         says_about(TOOLS_VALUE, 0.005), files={"inventory.json": json.dumps(INVENTORY, indent=2) + "\n"}),
    Task("expenses-groceries-top",
         "Looking at expenses.csv: how much did I spend on groceries in total, and which category cost me the most "
         "overall?",
         both(says_about(GROCERIES, 0.005), says_text(TOP_CATEGORY)), files={"expenses.csv": EXPENSES_CSV}),
    Task("count-not-found",
         "How many requests in access.log got a 404 status code?",
         says_number(NOT_FOUND), files={"access.log": ACCESS_LOG}),
    Task("passed-students",
         "Write the names of the students in grades.csv who scored 75 or more into passed.txt, one name per line, "
         "in the order they appear in the file.",
         file_is_lines("passed.txt", PASSED), files={"grades.csv": GRADES_CSV}),
    Task("edit-service-settings",
         "In settings.conf, set the timeout to 45 and the log level to debug. Leave every other line as it is.",
         file_is_lines("settings.conf", SETTINGS_AFTER.splitlines(), spaces=False),
         files={"settings.conf": SETTINGS}),
    Task("append-todo",
         f"Add '{TODO_ADDED}' as a new last line of todo.txt, without changing the lines already there.",
         file_is_lines("todo.txt", [*TODO.splitlines(), TODO_ADDED]), files={"todo.txt": TODO}),
    Task("dedupe-sort-tags",
         "tags.txt has one tag per line. Remove the duplicates, sort the remaining tags alphabetically and save the "
         "result back into tags.txt.",
         file_is_lines("tags.txt", TAGS_AFTER), files={"tags.txt": TAGS}),
    Task("invent-contact",
         "Make up a contact and save it as contact.json: a single JSON object with exactly the keys name, email, "
         "phone and city, every value a string (the email needs an @).",
         json_object("contact.json", ("name", "email", "phone", "city"), "email")),
    Task("shopping-list-total",
         "Create shopping.csv with the columns item,qty,unit_price and five grocery items of your choice (qty a whole "
         "number, unit_price a price such as 2.49). Then tell me what the whole list costs.",
         priced_list("shopping.csv", ["item", "qty", "unit_price"], 5)),
    Task("logs-into-folder",
         "Put every .log file in the workspace into a new folder called logs, keeping their names. Leave the other "
         "files where they are.",
         both(moved("app.log", "logs/app.log", APP_LOG), moved("worker.log", "logs/worker.log", WORKER_LOG),
              kept("README.txt", "report.csv")),
         files={"app.log": APP_LOG, "worker.log": WORKER_LOG, "README.txt": README, "report.csv": REPORT_CSV}),
    Task("final-draft",
         "draft_v2.md is the final version of my essay: rename it to essay.md, and delete draft_v1.md.",
         both(moved("draft_v2.md", "essay.md", DRAFT_2), deleted("draft_v1.md", "essay.md")),
         files={"draft_v1.md": DRAFT_1, "draft_v2.md": DRAFT_2}),
    Task("berlin-wall-years",
         f"In what year did the Berlin Wall fall, and for how many years had it stood by then, given it went up in "
         f"{WALL_UP}?",
         both(says_number(WALL_DOWN), says_number(WALL_DOWN - WALL_UP))),
    Task("title-slug",
         "Turn this article title into a lowercase URL slug, words joined by single hyphens and punctuation "
         f"dropped: \"{TITLE}\"",
         says_any(SLUG, SLUG_AND)),
    Task("names-by-surname",
         "Rewrite every name in names.txt as 'Last, First' and save them to by_surname.txt, one per line, sorted by "
         "last name.",
         file_is_lines("by_surname.txt", BY_SURNAME), files={"names.txt": "\n".join(PEOPLE) + "\n"}),
    Task("fuel-consumption",
         f"I drove {MILES} miles on {GALLONS} US gallons of gas. What is that in liters per 100 km? One decimal is "
         "enough.",
         says_about(L_PER_100KM, 0.06)),
    Task("mean-5k-time",
         f"My last five 5k times were {', '.join(RUNS)} (minutes:seconds). What is my average time, in minutes and "
         "seconds?",
         says_duration(MEAN_RUN)),
    Task("share-price-rise",
         f"A share price went from ${PRICE_FROM:.2f} to ${PRICE_TO:.2f}. By what percentage did it rise? Give one "
         "decimal place.",
         says_about(RISE, 0.051)),
    Task("zh-days-between",
         f"{_zh(ZH_FROM)}到{_zh(ZH_TO)}之间相差多少天？",
         says_number((ZH_TO - ZH_FROM).days), lang="zh"),
    Task("zh-math-scores",
         "读取 scores.json，算出全班数学的平均分（保留一位小数），再告诉我数学最高分是谁。",
         both(says_about(MATH_MEAN, 0.051), says_text(MATH_TOP)),
         files={"scores.json": json.dumps(SCORES, ensure_ascii=False, indent=2) + "\n"}, lang="zh"),
    Task("zh-coat-discount",
         "一件外套原价680元，商场先打八五折，结账时还能用一张满500减60的优惠券。最后实际要付多少钱？",
         says_about(COAT_PAID, 0.005), lang="zh"),
    Task("zh-list-total",
         "list.txt 里每行是一样东西和它的价格（单位：元）。算出总价，把总价写进 total.txt，只写数字。",
         file_number("total.txt", GROCERY_TOTAL, 0.005),
         files={"list.txt": "".join(f"{name} {price:g}\n" for name, price in GROCERY_LIST)}, lang="zh"),
]
