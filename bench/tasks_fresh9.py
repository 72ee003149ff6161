# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh9` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh9 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (how many words, its first word, how long, which word it holds), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import json
import math
import re
from collections import defaultdict
from pathlib import Path

from tasks import Check, Task, both, copied, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, file_is_lines, file_json, kept, says_about, says_any, says_count, says_day
from tasks_fresh4 import either, file_is_exactly, says_numbers
from tasks_fresh8 import _same_field


def comma_line(path: str, values: list[int]) -> Check:
    """`path` holds a single non-blank line: `values`, in order, separated by commas (blanks and a final full stop
    aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != 1:
            return f"{path} has {len(lines)} non-blank lines, not one: {content[:60]!r}"
        parts = [part.strip() for part in lines[0].rstrip(".").split(",")]
        ok = len(parts) == len(values) and all(re.fullmatch(r"-?\d+(?:\.0+)?", part) and float(part) == value
                                               for part, value in zip(parts, values, strict=False))
        return None if ok else f"{path} holds {content[:80]!r}"

    return check


def labelled_line(path: str, label: str, value: float, tolerance: float) -> Check:
    """`path` holds one non-blank line: `label`, a colon and one number within `tolerance` of `value` (a currency
    sign or name around it aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != 1 or not lines[0].lower().startswith(f"{label.lower()}:"):
            return f"{path} is not one line starting {label}: {content[:60]!r}"
        said = numbers_in(lines[0][len(label) + 1:])
        ok = len(said) == 1 and abs(said[0] - value) <= tolerance
        return None if ok else f"{path} holds {content[:60]!r}"

    return check


def scaled_lines(path: str, quantities: dict[str, float]) -> Check:
    """`path` has, for every ingredient in `quantities`, a line naming it whose first number is its quantity
    (case aside); other lines (a title) may stand around them."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        for name, quantity in quantities.items():
            lines = [line for line in _lines(content) if name.lower() in line.lower()]
            if len(lines) != 1:
                return f"{path} has {len(lines)} lines naming {name}: {content[:80]!r}"
            said = numbers_in(lines[0])
            if not said or abs(said[0] - quantity) > 1e-6:
                return f"{path} gives {lines[0]!r} for {name}, not {quantity:g}"
        return None

    return check


_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


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


def csv_rows_in_order(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and exactly the data rows `rows`, in
    that order (fields compared without case or surrounding blanks, numbers as numbers)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [row for row in csv.reader(io.StringIO(content)) if any(field.strip() for field in row)]
        if not table or [field.strip().lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        ok = len(body) == len(rows) and all(
            len(got) == len(want) and all(_same_field(g, w) for g, w in zip(got, want, strict=True))
            for got, want in zip(body, rows, strict=True))
        return None if ok else f"{path} holds other rows or another order: {content[:80]!r}"

    return check


# the workspaces
OCTOPUS_HEARTS = 3

SQUARES = [n * n for n in range(1, 11)]

MEMO_AUTHOR = "Rosalind Achterberg"
MEMO = ("To all staff,\n\nThe kitchen on the third floor will be closed on Thursday while the plumbers replace the "
        "sink. Please use the kitchen on the second floor until Friday morning.\n\nThanks for your patience,\n"
        f"{MEMO_AUTHOR}\nFacilities\n")

WIFI_PASSWORD = "amber-kettle-517"
NOTES = {"notes/2026-10-02.txt": "Dentist moved to Friday 9:30.\nAsk about the crown.\n",
         "notes/2026-10-09.txt": "Party on Saturday.\nGuest wifi: network CasaVerde, password "
                                 f"{WIFI_PASSWORD}\nBuy ice and lemons.\n",
         "notes/ideas.txt": "Paint the fence green.\nLearn to make ramen.\n",
         "notes/books.txt": "The Remains of the Day\nA Psalm for the Wild-Built\n"}

BIKE_PRICE, BIKE_RISE, BIKE_CUT = 640, 15, 20
BIKE_NOW = BIKE_PRICE * (1 + BIKE_RISE / 100) * (1 - BIKE_CUT / 100)

INVOICE_PDF = "%PDF-1.4 invoice 0457, Harlow Printing\n"
INVOICE_FOLDERS = {"accounting/ledger.csv": "date,amount\n", "tax-2026/receipts.txt": "receipts for 2026\n"}

TRANSACTIONS = [("2026-10-29", "FreshMart", "groceries", 61.35), ("2026-11-01", "Landlord", "rent", 950.00),
                ("2026-11-02", "FreshMart", "groceries", 48.90), ("2026-11-05", "City Rail", "transport", 32.00),
                ("2026-11-09", "Corner Deli", "groceries", 73.15), ("2026-11-14", "Noodle Bar", "eating out", 27.80),
                ("2026-11-16", "FreshMart", "groceries", 55.40), ("2026-11-23", "Organic Co", "groceries", 39.95),
                ("2026-11-27", "PowerGrid", "utilities", 88.10), ("2026-11-30", "FreshMart", "groceries", 66.05),
                ("2026-12-01", "FreshMart", "groceries", 52.60)]
TRANSACTIONS_JSONL = "".join(json.dumps({"date": day, "payee": payee, "category": category, "amount": amount}) + "\n"
                             for day, payee, category, amount in TRANSACTIONS)
NOVEMBER_GROCERIES = sum(record["amount"] for record in map(json.loads, TRANSACTIONS_JSONL.splitlines())
                         if record["category"] == "groceries" and record["date"].startswith("2026-11"))

VISITS = [(dt.date(2026, 1, 14), "dentist", "check-up"), (dt.date(2026, 9, 8), "GP", "flu jab"),
          (dt.date(2026, 4, 22), "optician", "new glasses"), (dt.date(2026, 10, 5), "dentist", "filling"),
          (dt.date(2026, 3, 11), "physio", "knee"), (dt.date(2026, 6, 30), "dentist", "cleaning"),
          (dt.date(2026, 11, 17), "GP", "blood test"), (dt.date(2026, 8, 2), "physio", "knee")]
VISITS_CSV = "date,place,note\n" + "".join(f"{day.day} {day:%b %Y},{place},{note}\n" for day, place, note in VISITS)
LAST_DENTIST = max(dt.datetime.strptime(row["date"], "%d %b %Y").date()
                   for row in csv.DictReader(io.StringIO(VISITS_CSV)) if row["place"] == "dentist")

PROJECT_MD = ("# Harbour app\n\nOwner: Lina Ortiz\nKick-off: 2 March 2026\nBeta: 20 April 2026\nLaunch: 1 June 2026\n"
              "Budget: 48,000\n")


def _project_day(label: str) -> dt.date:
    return dt.datetime.strptime(re.findall(rf"^{label}: (.+)$", PROJECT_MD, re.MULTILINE)[0], "%d %B %Y").date()


PROJECT_DAYS = (_project_day("Launch") - _project_day("Kick-off")).days
assert PROJECT_DAYS % 7 == 0
PROJECT_WEEKS = PROJECT_DAYS // 7

RENT, ROOMS = 1860, (14, 11, 6)
SMALL_ROOM_RENT = RENT * min(ROOMS) / sum(ROOMS)

DEPART = dt.datetime(2027, 3, 10, 11, 5, tzinfo=dt.timezone(dt.timedelta(hours=9)))
ARRIVE = dt.datetime(2027, 3, 10, 15, 40, tzinfo=dt.timezone.utc)
FLIGHT_MINUTES = int((ARRIVE - DEPART).total_seconds() // 60)

HOURS_TXT = "Mon 7.5\nTue 8\nWed 6.25\nThu 8\nFri 5.5\n"
HOURLY = 23.40
WEEK_PAY = sum(numbers_in(line)[0] for line in HOURS_TXT.splitlines()) * HOURLY

SAVED, MONTHLY, TARGET = 5000, 350, 10000
MONTHS_TO_TARGET = math.ceil((TARGET - SAVED) / MONTHLY)

RECIPE_FOR, RECIPE_TO = 4, 10
RECIPE = {"flour": ("200 g", 200), "eggs": ("", 2), "sugar": ("150 g", 150), "milk": ("240 ml", 240),
          "lemon zest": ("2 tbsp", 2), "butter": ("30 g", 30)}
RECIPE_LINES = [f"Lemon drizzle cake (serves {RECIPE_FOR})",
                *(f"{unit or qty} {name}" for name, (unit, qty) in RECIPE.items())]
SCALED = {name: qty * RECIPE_TO / RECIPE_FOR for name, (_, qty) in RECIPE.items()}

CHAPTERS = {"intro": "# Introduction\nThe town before the storm.\n", "storm": "# The storm\nThree days of wind.\n",
            "harbour": "# The harbour\nBoats and nets.\n", "return": "# The return\nThe ferry comes back.\n",
            "epilogue": "# Epilogue\nA year later.\n"}
ORDER = ["intro", "harbour", "storm", "return", "epilogue"]
ORDER_TXT = "".join(f"{name}\n" for name in ORDER)

SIGNUPS = [("ana.ruiz@mail.com", "Ana Ruiz", "Leeds"), ("ben.ode@mail.com", "Ben Ode", "York"),
           ("cat.hale@mail.com", "Cat Hale", "Leeds"), ("dan.moss@mail.com", "Dan Moss", "Bath"),
           ("eve.lam@mail.com", "Eve Lam", "York"), ("fay.kerr@mail.com", "Fay Kerr", "Leeds"),
           ("ben.ode@mail.com", "Ben Ode", "York"), ("gus.park@mail.com", "Gus Park", "Leeds"),
           ("cat.hale@mail.com", "Cat Hale", "Leeds"), ("hal.finch@mail.com", "Hal Finch", "York"),
           ("ivy.shaw@mail.com", "Ivy Shaw", "Bath")]
SIGNUPS_CSV = "email,name,city\n" + "".join(f"{email},{name},{city}\n" for email, name, city in SIGNUPS)
_CITY_OF = {row["email"]: row["city"] for row in csv.DictReader(io.StringIO(SIGNUPS_CSV))}
_PEOPLE: dict[str, int] = defaultdict(int)
for _city in _CITY_OF.values():
    _PEOPLE[_city] += 1
assert len(set(_PEOPLE.values())) == len(_PEOPLE)  # no ties: one right order
BY_CITY = [[city, str(count)] for city, count in sorted(_PEOPLE.items(), key=lambda item: -item[1])]

LOAN_DAYS, LOANS_ON = 21, dt.date(2026, 12, 10)
LOANS = [("The Hobbit", "2026-11-02"), ("Dune", "2026-11-25"), ("Emma", "2026-11-12"), ("Ulysses", "2026-11-20"),
         ("Beowulf", "2026-10-30"), ("Persuasion", "2026-12-01"), ("Rebecca", "2026-11-17")]
LOANS_CSV = "title,borrowed\n" + "".join(f"{title},{day}\n" for title, day in LOANS)
_LOAN_AGES = {row["title"]: (LOANS_ON - dt.date.fromisoformat(row["borrowed"])).days
              for row in csv.DictReader(io.StringIO(LOANS_CSV))}
assert LOAN_DAYS not in _LOAN_AGES.values()  # no book on the edge
OVERDUE = [title for title, age in _LOAN_AGES.items() if age > LOAN_DAYS]

METER_START, METER_USE = 12840, [310, 398, 471, 455, 402, 336]
METER_CSV = "date,reading_kwh\n" + "".join(
    f"{dt.date(2025 + (9 + n) // 12, (9 + n) % 12 + 1, 1)},{METER_START + sum(METER_USE[:n])}\n"
    for n in range(len(METER_USE) + 1))
_READINGS = [(dt.date.fromisoformat(row["date"]), int(row["reading_kwh"]))
             for row in csv.DictReader(io.StringIO(METER_CSV))]
_MONTH_USE = {start.strftime("%B"): end_kwh - start_kwh
              for (start, start_kwh), (_, end_kwh) in itertools.pairwise(_READINGS)}
TOP_MONTH = max(_MONTH_USE, key=_MONTH_USE.__getitem__)

NOVEL_AUTHOR = ("曹雪芹", "Cao Xueqin")

TODO_ZH = ["买菜", "交电费", "取快递", "给猫打疫苗"]

DINNER_TOTAL, DESSERT, DINERS = 457.5, 37.5, 3
WANG_PAYS = (DINNER_TOTAL - DESSERT) / DINERS + DESSERT

ARRIVALS = {"赵敏": ["08:52", "09:07", "08:58", "09:12", "08:49"],
            "钱坤": ["09:05", "08:55", "09:16", "08:59", "09:03"],
            "孙悦": ["08:40", "08:45", "09:02", "08:50", "08:47"],
            "李航": ["08:30", "08:33", "08:41", "08:29", "08:35"]}
WORKDAYS = [dt.date(2026, 11, 30) + dt.timedelta(days=n) for n in range(5)]
ATTENDANCE_CSV = "日期,姓名,到岗时间\n" + "".join(
    f"{day},{name},{times[n]}\n" for n, day in enumerate(WORKDAYS) for name, times in ARRIVALS.items())
_LATE: dict[str, int] = defaultdict(int)
for _row in csv.DictReader(io.StringIO(ATTENDANCE_CSV)):
    _LATE[_row["姓名"]] += dt.datetime.strptime(_row["到岗时间"], "%H:%M").time() > dt.time(9, 0)
MOST_LATE = max(_LATE, key=_LATE.__getitem__)
assert sorted(_LATE.values())[-2] < _LATE[MOST_LATE]  # one person alone is late most often

FRESH_9: list[Task] = [
    # one step
    Task("f9-octopus", "How many hearts does an octopus have?", says_count(OCTOPUS_HEARTS)),
    Task("f9-squares", "Write the first ten square numbers (1, 4, 9 and so on) into squares.txt, all on one line "
         "and separated by commas.", comma_line("squares.txt", SQUARES)),
    Task("f9-memo", "Who signed the memo in memo.txt?", says_text(MEMO_AUTHOR.split()[-1]), files={"memo.txt": MEMO}),
    Task("f9-wifi", "I jotted the guest wifi password down somewhere in my notes folder. What is it?",
         says_text(WIFI_PASSWORD), files=NOTES),
    Task("f9-bike", f"A bike was priced at {BIKE_PRICE}. In spring the shop put the price up by {BIKE_RISE}%, and now "
         f"the summer sale takes {BIKE_CUT}% off. What does the bike cost now?", says_about(BIKE_NOW, 0.005)),
    Task("f9-invoice", "Put a copy of invoice-0457.pdf in the accounting folder and another in the tax-2026 folder. "
         "The original stays where it is.",
         both(copied("invoice-0457.pdf", "accounting/invoice-0457.pdf", INVOICE_PDF),
              copied("invoice-0457.pdf", "tax-2026/invoice-0457.pdf", INVOICE_PDF), kept(*INVOICE_FOLDERS)),
         files={"invoice-0457.pdf": INVOICE_PDF, **INVOICE_FOLDERS}),
    # two or three steps
    Task("f9-groceries", "transactions.jsonl has one bank transaction per line. How much did I spend on groceries in "
         "November 2026?", says_about(NOVEMBER_GROCERIES, 0.005), files={"transactions.jsonl": TRANSACTIONS_JSONL}),
    Task("f9-dentist", "When was my most recent dentist appointment? It's all in visits.csv.", says_day(LAST_DENTIST),
         files={"visits.csv": VISITS_CSV}),
    Task("f9-project", "How many weeks were there between the kick-off and the launch of the project in project.md?",
         says_number(PROJECT_WEEKS), files={"project.md": PROJECT_MD}),
    Task("f9-rent", f"Three of us share a flat and split the monthly rent of {RENT:,} in proportion to the size of "
         f"our rooms, which are {ROOMS[0]}, {ROOMS[1]} and {ROOMS[2]} square metres. How much does the person with the "
         "smallest room pay each month?", says_about(SMALL_ROOM_RENT, 0.005)),
    Task("f9-flight", f"My flight leaves Tokyo at {DEPART:%H:%M} local time (UTC+9) and lands in London at "
         f"{ARRIVE:%H:%M} local time (UTC+0) on the same day. How long am I in the air?",
         either(says_numbers(FLIGHT_MINUTES // 60, FLIGHT_MINUTES % 60), says_about(FLIGHT_MINUTES, 0.5),
                says_about(FLIGHT_MINUTES / 60, 0.01))),
    Task("f9-pay", f"hours.txt has the hours I worked each day this week. At {HOURLY:.2f} an hour, work out my pay for "
         "the week and save it in pay.txt as a single line of the form Total: <amount>.",
         labelled_line("pay.txt", "Total", WEEK_PAY, 0.006), files={"hours.txt": HOURS_TXT}),
    Task("f9-savings", f"I have {SAVED:,} saved and put another {MONTHLY} aside at the end of every month. After how "
         f"many months will I have at least {TARGET:,}?", says_number(MONTHS_TO_TARGET)),
    # harder
    Task("f9-recipe", f"recipe.txt is written for {RECIPE_FOR} people. Write a version for {RECIPE_TO} people into "
         "recipe-10.txt, with the same ingredients and every quantity scaled up to match. Leave recipe.txt as it is.",
         both(scaled_lines("recipe-10.txt", SCALED), file_is_exactly("recipe.txt", RECIPE_LINES)),
         files={"recipe.txt": "".join(f"{line}\n" for line in RECIPE_LINES)}),
    Task("f9-chapters", "book/order.txt gives the reading order of the chapter files in the book folder. Rename each "
         "chapter so its name starts with its position as two digits and a dash (intro.md in first place would "
         "become 01-intro.md). Leave order.txt alone.",
         both(*(moved(f"book/{name}.md", f"book/{n:02d}-{name}.md", CHAPTERS[name])
                for n, name in enumerate(ORDER, start=1)), file_is_lines("book/order.txt", ORDER)),
         files={**{f"book/{name}.md": text for name, text in CHAPTERS.items()}, "book/order.txt": ORDER_TXT}),
    Task("f9-by-city", "Some people signed up twice in signups.csv. Counting each email address only once, how many "
         "people signed up from each city? Write the result to by-city.csv with the header city,people and the "
         "biggest city first.", csv_rows_in_order("by-city.csv", ["city", "people"], BY_CITY),
         files={"signups.csv": SIGNUPS_CSV}),
    Task("f9-story", "Write a six-word story about a lost key: exactly six words, and key has to be one of them. "
         "Save it in story.txt.", exact_words("story.txt", 6, "key")),
    Task("f9-post", "Write a post for our bakery's social media saying sourdough is back on Saturdays. It has to "
         "start with the word Fresh, mention sourdough and be at most 140 characters long. Save only the post in "
         "post.txt.", short_post("post.txt", "Fresh", 140, "sourdough")),
    Task("f9-overdue", f"loans.csv lists the library books I have out and the day I borrowed each. The loan period "
         f"is {LOAN_DAYS} days. Which of them are overdue on {LOANS_ON.day} {LOANS_ON:%B %Y}? Write their titles "
         "into overdue.txt, one per line.", file_is_lines("overdue.txt", OVERDUE, ordered=False),
         files={"loans.csv": LOANS_CSV}),
    Task("f9-meter", "meter.csv has our electricity meter reading from the first day of each month, so a month's use "
         "is the next month's first reading minus its own. In which month did we use the most electricity, and how "
         "many kWh was that?", both(says_text(TOP_MONTH), says_number(_MONTH_USE[TOP_MONTH])),
         files={"meter.csv": METER_CSV}),
    # Chinese, with --lang zh
    Task("f9-zh-novel", "《红楼梦》的作者是谁？", says_any(*NOVEL_AUTHOR), lang="zh"),
    Task("f9-zh-todo", "把下面这几件事按原来的顺序存到 todo.json 里，内容是一个 JSON 字符串数组："
         + "、".join(TODO_ZH) + "。", file_json("todo.json", TODO_ZH), lang="zh"),
    Task("f9-zh-dinner", f"我们{DINERS}个人聚餐一共花了{DINNER_TOTAL}元，其中小王单独点的一份{DESSERT}元的甜点由他"
         "自己付，其余的钱大家平摊。小王一共要付多少钱？", says_about(WANG_PAYS, 0.005), lang="zh"),
    Task("f9-zh-late", "attendance.csv 是这周的打卡记录，9点以后到岗的算迟到。谁迟到的次数最多？迟到了几次？",
         both(says_text(MOST_LATE), says_count(_LATE[MOST_LATE])), files={"attendance.csv": ATTENDANCE_CSV},
         lang="zh"),
]
