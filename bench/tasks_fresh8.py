# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh8` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh8 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (how many lines, how long, which word it holds), not its wording.
"""

from __future__ import annotations

import calendar
import csv
import datetime as dt
import io
import json
import re
from pathlib import Path

from tasks import Check, Task, both, copied, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, file_is_lines, kept, says_about, says_count, says_day
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_numbers, says_regex
from tasks_fresh7 import csv_rows_are


def _same_field(got: str, want: str) -> bool:
    """Two CSV fields are the same text (case and blanks aside) or the same number ("12.5" and "12.50")."""
    if got.strip().lower() == want.strip().lower():
        return True
    try:
        return abs(float(got.replace(",", "")) - float(want)) < 1e-9
    except ValueError:
        return False


def csv_rows_like(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and exactly the data rows `rows`, in
    any order, a number matching however many decimals it is written with."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [row for row in csv.reader(io.StringIO(content)) if any(field.strip() for field in row)]
        if not table or [field.strip().lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        left = list(rows)
        for row in table[1:]:
            match = next((want for want in left if len(want) == len(row)
                          and all(_same_field(g, w) for g, w in zip(row, want, strict=True))), None)
            if match is None:
                return f"{path} holds a row it should not: {','.join(row)!r}"
            left.remove(match)
        return f"{path} lacks {len(left)} of the rows" if left else None

    return check


def first_line_is(path: str, line: str) -> Check:
    """The first non-blank line of `path` is `line` (case and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        ok = bool(lines) and lines[0].lower() == line.lower()
        return None if ok else f"{path} does not start with {line!r}: {content[:60]!r}"

    return check


def json_list_is(path: str, expected: list[dict[str, str]]) -> Check:
    """`path` holds a JSON list of objects with exactly the keys and values of `expected`, in that order (values
    compared without case or surrounding blanks)."""

    def norm(value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        want = [{key: norm(item) for key, item in record.items()} for record in expected]
        got = ([{key: norm(item) for key, item in record.items()} for record in value]
               if isinstance(value, list) and all(isinstance(record, dict) for record in value) else None)
        return None if got == want else f"{path} holds {content[:80]!r}"

    return check


def total_row_appended(path: str, original: list[str], label: str, total: float) -> Check:
    """`path` still holds the lines `original` first, then one more line: `label` in the first field and `total`
    (to the cent) in the second."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if [re.sub(r"\s+", "", line) for line in lines[:-1]] != [re.sub(r"\s+", "", line) for line in original]:
            return f"{path} no longer holds its rows as they were: {content[:80]!r}"
        fields = [field.strip().strip("'\"") for field in lines[-1].split(",")]
        said = numbers_in(",".join(fields[1:]).replace(",", " "))
        ok = len(fields) == 2 and fields[0].lower() == label and len(said) == 1 and abs(said[0] - total) < 0.006
        return None if ok else f"the last line of {path} is {lines[-1]!r}"

    return check


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


# the workspaces
FEB_2028 = calendar.monthrange(2028, 2)[1]

PIZZAS, SLICES, PEOPLE, EACH = 4, 8, 9, 3
SLICES_LEFT = PIZZAS * SLICES - PEOPLE * EACH

LETTER_OLD = ["Dear hiring team,", "I am writing to apply for the role of data analyst.",
              "For five years I have built reports for a logistics company.", "I enjoy turning messy data into plans.",
              "I work well with engineers and with sales.", "I have led two migrations to a new warehouse system.",
              "My spreadsheets are known for being tidy.", "I would welcome the chance to talk.",
              "Thank you for your time.", "Kind regards,", "Jonas Weber"]
LETTER_NEW = [*LETTER_OLD[:3], LETTER_OLD[5], *LETTER_OLD[8:]]
LONGER, SHORTER = ("letter-old.txt", "letter-new.txt") if len(LETTER_OLD) > len(LETTER_NEW) else \
    ("letter-new.txt", "letter-old.txt")
LINE_GAP = abs(len(LETTER_OLD) - len(LETTER_NEW))

KNOTS, NAUTICAL_MILE_M, HOURS = 18, 1852, 5
SHIP_KM = KNOTS * NAUTICAL_MILE_M * HOURS / 1000

BORN = dt.date(2024, 9, 11)
THOUSAND_DAYS = BORN + dt.timedelta(days=1000)

FIRST_PILL, PILL_EVERY, PILL_NO = dt.datetime(2026, 12, 30, 22, 0), dt.timedelta(hours=8), 10
TENTH_PILL = FIRST_PILL + (PILL_NO - 1) * PILL_EVERY
_PILL_HOUR12 = TENTH_PILL.hour % 12 or 12
_PILL_AMPM = "am" if TENTH_PILL.hour < 12 else "pm"
PILL_TIME = (rf"(?<!\d)0?{TENTH_PILL.hour}[:.h]{TENTH_PILL.minute:02d}(?!\d)|"
             rf"(?<!\d){_PILL_HOUR12}(?:[:.]{TENTH_PILL.minute:02d})?\s*{_PILL_AMPM[0]}\.?\s*m\b")

DAY_ONE = ["Amara Okafor", "Ben Fischer", "Carla Ruiz", "Dmitri Volkov", "Elena Rossi", "Farid Haddad",
           "Greta Nilsson", "Hiro Sato", "Isla Murphy"]
DAY_TWO = ["Hiro Sato", "Amara Okafor", "Julia Novak", "Elena Rossi", "Ben Fischer", "Greta Nilsson"]
MISSED = [name for name in DAY_ONE if name not in DAY_TWO]

EUR_PER_UNIT = {"EUR": 1.0, "USD": 0.93, "GBP": 1.17, "CHF": 1.05}
RATES_JSON = json.dumps({"note": "value of one unit of each currency in euros", "eur_per_unit": EUR_PER_UNIT},
                        indent=2) + "\n"
RECEIPTS = [("2026-10-03", "train to Zurich", 64.00, "CHF"), ("2026-10-03", "hotel Zurich", 212.50, "CHF"),
            ("2026-10-05", "flight to London", 148.90, "EUR"), ("2026-10-06", "museum tickets", 34.00, "GBP"),
            ("2026-10-06", "dinner", 58.75, "GBP"), ("2026-10-08", "conference pass", 299.00, "USD"),
            ("2026-10-08", "taxi", 27.40, "USD")]
RECEIPTS_CSV = "date,what,amount,currency\n" + "".join(
    f"{day},{what},{amount:.2f},{currency}\n" for day, what, amount, currency in RECEIPTS)
TRIP_EUR = sum(float(row["amount"]) * EUR_PER_UNIT[row["currency"]]
               for row in csv.DictReader(io.StringIO(RECEIPTS_CSV)))

SHIPPING = [(0.5, 4.20), (1, 5.90), (2, 7.50), (5, 11.80), (10, 16.40), (20, 24.00)]
SHIPPING_CSV = "max_kg,price\n" + "".join(f"{kg:g},{price:.2f}\n" for kg, price in SHIPPING)
PARCELS = [0.8, 3.4, 12]
POSTAGE = sum(next(price for kg, price in SHIPPING if weight <= kg) for weight in PARCELS)

REMINDERS = [{"day": "Monday", "task": "water the plants"}, {"day": "Wednesday", "task": "pay the rent"},
             {"day": "Saturday", "task": "call grandma"}]
_REMINDERS_SAID = "; ".join(f"{item['day']}: {item['task']}" for item in REMINDERS)

PRODUCTS = [("P-101", "Notebook A5", "6.50"), ("P-102", "Desk organiser", "24.90"), ("P-103", "Gel pens (10)", "12.00"),
            ("P-104", "Monitor riser", "39.00"), ("P-105", "Sticky notes", "3.75"), ("P-106", "Cable clips", "20.00"),
            ("P-107", "Mouse pad", "14.20"), ("P-108", "Bookends", "27.50")]
PRODUCTS_CSV = "sku,name,price\n" + "".join(f"{sku},{name},{price}\n" for sku, name, price in PRODUCTS)
CHEAP = [list(row) for row in PRODUCTS if float(row[2]) < 20]

EVENTS = [("2027-01-09", "Winter fair"), ("2027-01-14", "Book launch"), ("2027-02-06", "Chess tournament"),
          ("2027-02-21", "Charity run"), ("2027-03-03", "Town hall meeting"), ("2027-03-13", "Plant swap"),
          ("2027-03-26", "Film night"), ("2027-04-04", "Easter market"), ("2027-04-19", "Coding club")]
EVENTS_CSV = "date,event\n" + "".join(f"{day},{event}\n" for day, event in EVENTS)
WEEKEND_EVENTS = sum(dt.date.fromisoformat(row["date"]).weekday() >= 5
                     for row in csv.DictReader(io.StringIO(EVENTS_CSV)))

STAFF = [("Priya Nair", "Engineering"), ("Tom Hughes", "Sales"), ("Lea Martin", "Engineering"),
         ("Omar Said", "Support"), ("Kate Byrne", "Engineering"), ("Luis Gomez", "Sales"), ("Nina Berg", "Engineering")]
SALARIES = {"Kate Byrne": 81500, "Omar Said": 46000, "Priya Nair": 92000, "Luis Gomez": 58000, "Tom Hughes": 61000,
            "Nina Berg": 67250, "Lea Martin": 74800}
STAFF_CSV = "name,department\n" + "".join(f"{name},{dept}\n" for name, dept in STAFF)
SALARIES_CSV = "name,annual_salary\n" + "".join(f"{name},{pay}\n" for name, pay in SALARIES.items())
ENGINEERING_PAY = sum(SALARIES[row["name"]] for row in csv.DictReader(io.StringIO(STAFF_CSV))
                      if row["department"] == "Engineering")

DATED_REPORTS = {"reports/report_31-01-2027.txt": "january figures\n", "reports/report_28-02-2027.txt": "february\n",
                 "reports/report_31-12-2026.txt": "december figures\n", "reports/report_30-11-2026.txt": "november\n"}
REPORTS_OTHER = {"reports/index.txt": "monthly reports\n", "summary.txt": "see reports/\n"}


def _iso_name(path: str) -> str:
    day, month, year = re.findall(r"(\d\d)-(\d\d)-(\d{4})", path)[0]
    return path.replace(f"{day}-{month}-{year}", f"{year}-{month}-{day}")


BUDGET = [("rent", "950.00"), ("groceries", "312.45"), ("transport", "84.20"), ("utilities", "128.90"),
          ("phone", "22.99"), ("gym", "35.00")]
BUDGET_LINES = ["category,amount", *(f"{category},{amount}" for category, amount in BUDGET)]
BUDGET_TOTAL = sum(float(row["amount"]) for row in csv.DictReader(io.StringIO("\n".join(BUDGET_LINES))))

LOGO = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n'
ORION_TODO = ["design", "build", "test"]

USD_CNY, HEADPHONES_USD = 7.1, 89.99
HEADPHONES_CNY = USD_CNY * HEADPHONES_USD

TRAINS = [("G102", "上海虹桥", "北京南", "07:00", "11:28"), ("D311", "北京南", "上海", "19:50", "次日07:45"),
          ("Z97", "北京西", "广州", "19:48", "次日07:26"), ("K1159", "杭州", "南京", "09:12", "14:03")]
TIMETABLE_CSV = "车次,出发站,到达站,出发时间,到达时间\n" + "".join(",".join(row) + "\n" for row in TRAINS)


def _minutes(depart: str, arrive: str) -> int:
    """Minutes from `depart` to `arrive` ("次日" before the time: the next day)."""
    start = dt.datetime.strptime(depart, "%H:%M")
    end = dt.datetime.strptime(arrive.removeprefix("次日"), "%H:%M") + dt.timedelta(days=arrive.startswith("次日"))
    return int((end - start).total_seconds() // 60)


Z97_MINUTES = next(_minutes(row["出发时间"], row["到达时间"])
                   for row in csv.DictReader(io.StringIO(TIMETABLE_CSV)) if row["车次"] == "Z97")

CONTACTS_ZH = [["张三", "13812345678"], ["李四", "13987654321"], ["王五", "13700001111"]]
GO_POINTS = 19 * 19

FRESH_8: list[Task] = [
    # knowledge and arithmetic in words
    Task("f8-piano", "How many keys does a standard modern piano have?", says_number(88)),
    Task("f8-planet", "Which planet is closest to the Sun?", says_text("Mercury")),
    Task("f8-february", "How many days are there in February 2028?", says_number(FEB_2028)),
    Task("f8-pizza", f"We ordered {PIZZAS} pizzas, each cut into {SLICES} slices. There are {PEOPLE} of us and "
         f"everyone eats {EACH} slices. How many slices are left over?", says_count(SLICES_LEFT)),
    # conversions with the rates given
    Task("f8-knots", f"A ship cruises at {KNOTS} knots. One knot is one nautical mile per hour, and a nautical mile is "
         f"{NAUTICAL_MILE_M:,} metres. How many kilometres does the ship cover in {HOURS} hours?",
         says_about(SHIP_KM, 0.01)),
    Task("f8-trip-euros", "receipts.csv lists what I spent on my trip, in several currencies. Using the rates in "
         "rates.json, what did the trip cost me altogether in euros?", says_about(TRIP_EUR, 0.015),
         files={"receipts.csv": RECEIPTS_CSV, "rates.json": RATES_JSON}),
    Task("f8-postage", "shipping.csv is the courier's price list: each row gives the price for a parcel weighing up "
         f"to max_kg. What does it cost in total to send three parcels weighing {PARCELS[0]} kg, {PARCELS[1]} kg and "
         f"{PARCELS[2]} kg?", says_about(POSTAGE, 0.005), files={"shipping.csv": SHIPPING_CSV}),
    # dates and times from given ones
    Task("f8-thousand-days", f"My daughter was born on {BORN.day} {BORN:%B %Y}. On what date will she be 1,000 days "
         "old?", says_day(THOUSAND_DAYS)),
    Task("f8-pills", f"I have to take a tablet every {PILL_EVERY.seconds // 3600} hours. I took the first one at "
         f"{FIRST_PILL:%H:%M} on {FIRST_PILL.day} {FIRST_PILL:%B %Y}. When do I take the {PILL_NO}th one? Give the "
         "date and the time.",
         both(says_day_of_month(TENTH_PILL.date()), says_regex(PILL_TIME, f"{TENTH_PILL:%H:%M}"))),
    # comparing and combining files
    Task("f8-letters", "I have two versions of my cover letter, letter-old.txt and letter-new.txt. Which one has more "
         "lines, and by how many?", both(says_text(LONGER), says_count(LINE_GAP)),
         files={"letter-old.txt": "".join(f"{line}\n" for line in LETTER_OLD),
                "letter-new.txt": "".join(f"{line}\n" for line in LETTER_NEW)}),
    Task("f8-missed", "workshop-day1.txt and workshop-day2.txt are the sign-in sheets from the two days of our "
         "workshop. Who came on day 1 but not on day 2? Write their names into missed.txt, one per line.",
         file_is_lines("missed.txt", MISSED, ordered=False),
         files={"workshop-day1.txt": "".join(f"{name}\n" for name in DAY_ONE),
                "workshop-day2.txt": "".join(f"{name}\n" for name in DAY_TWO)}),
    Task("f8-engineering-pay", "staff.csv says which department each person works in, and salaries.csv has everyone's "
         "annual salary. What is the combined annual salary of the Engineering department?",
         says_number(ENGINEERING_PAY), files={"staff.csv": STAFF_CSV, "salaries.csv": SALARIES_CSV}),
    Task("f8-weekend", "How many of the events in events.csv fall on a weekend (a Saturday or a Sunday)?",
         says_count(WEEKEND_EVENTS), files={"events.csv": EVENTS_CSV}),
    # files written in a given format
    Task("f8-reminders", "Save my reminders as JSON in reminders.json: a list with one object per reminder, each "
         f"with the keys \"day\" and \"task\", in the order I give them. {_REMINDERS_SAID}.",
         json_list_is("reminders.json", REMINDERS)),
    Task("f8-cheap", "Copy every product from products.csv that costs less than 20 into a new file cheap.csv, with "
         "the same header and columns. Leave products.csv as it is.",
         both(csv_rows_like("cheap.csv", ["sku", "name", "price"], CHEAP),
              file_is_exactly("products.csv", PRODUCTS_CSV.splitlines())),
         files={"products.csv": PRODUCTS_CSV}),
    Task("f8-budget-total", "Add up the amount column of budget.csv and append one last row to the file with total in "
         "the category column and that sum in the amount column.",
         total_row_appended("budget.csv", BUDGET_LINES, "total", BUDGET_TOTAL),
         files={"budget.csv": "".join(f"{line}\n" for line in BUDGET_LINES)}),
    # organising files
    Task("f8-iso-names", "The files in the reports folder have the date in their names as day-month-year, like "
         "report_05-09-2026.txt. Rename them so the date reads year-month-day instead (report_2026-09-05.txt), so they "
         "sort properly.",
         both(*(moved(path, _iso_name(path), text) for path, text in DATED_REPORTS.items()),
              kept(*REPORTS_OTHER)), files={**DATED_REPORTS, **REPORTS_OTHER}),
    Task("f8-orion", "Set up a project folder called orion. Inside it I want a README.md whose first line is the "
         "heading '# Orion', a todo.txt with design, build and test on separate lines, and a copy of logo.svg from "
         "the workspace at orion/assets/logo.svg. Keep the original logo.svg where it is.",
         both(first_line_is("orion/README.md", "# Orion"), file_is_lines("orion/todo.txt", ORION_TODO),
              copied("logo.svg", "orion/assets/logo.svg", LOGO)), files={"logo.svg": LOGO}),
    # made-up content with checkable properties
    Task("f8-subjects", "Give me three possible subject lines for an email telling staff the office closes early this "
         "Friday. Each must mention Friday and be at most 60 characters long. Put them in subjects.txt, one per line.",
         short_lines("subjects.txt", 3, 60, "friday")),
    Task("f8-lamp", "Write a short product description of my brass desk lamp for an online shop, fewer than 50 words, "
         "and save it as lamp.txt. The word brass must be in it.", words_between("lamp.txt", 10, 49, "brass")),
    # Chinese, with --lang zh
    Task("f8-zh-headphones", f"按1美元兑{USD_CNY}元人民币算，一副标价{HEADPHONES_USD}美元的耳机大约合多少人民币？",
         says_about(HEADPHONES_CNY, 0.5), lang="zh"),
    Task("f8-zh-train", "timetable.csv 是列车时刻表。Z97 次列车从出发到到达，全程一共要多长时间？",
         either(says_numbers(Z97_MINUTES // 60, Z97_MINUTES % 60), says_about(Z97_MINUTES, 0.5),
                says_about(Z97_MINUTES / 60, 0.01)), files={"timetable.csv": TIMETABLE_CSV}, lang="zh"),
    Task("f8-zh-contacts", "新建一个 contacts.csv，第一行是表头“姓名,电话”，然后把这三个人写进去，每人一行："
         + "，".join(f"{name} {phone}" for name, phone in CONTACTS_ZH) + "。",
         csv_rows_are("contacts.csv", ["姓名", "电话"], CONTACTS_ZH), lang="zh"),
    Task("f8-zh-go", "一块标准的围棋棋盘上一共有多少个交叉点？", says_number(GO_POINTS), lang="zh"),
]
