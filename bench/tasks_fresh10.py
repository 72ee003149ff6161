# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh10` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh10 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (its keys and their types, its rows, its order, its first letters, how many characters a
line has), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path

from tasks import Check, Task, both, copied, moved, numbers_in, says_number
from tasks_fresh import _lines, _read, kept, says_about, says_any
from tasks_fresh4 import either, says_day_of_month, says_numbers, says_regex
from tasks_fresh9 import _WORD

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MARKER = re.compile(r"^(?:[-*•]\s*|\d+[.)]\s*)")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def file_amount(path: str, value: float, tolerance: float) -> Check:
    """`path` states one number and no other (a currency sign or a unit beside it aside), within `tolerance` of
    `value` ("1,234" and "1234" alike)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        said = numbers_in(content)
        ok = len(said) == 1 and abs(said[0] - value) <= tolerance
        return None if ok else f"{path} holds {content[:60]!r}, not the one number {value:g}"

    return check


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


def app_settings(path: str) -> Check:
    """`path` holds one JSON object with exactly the keys name (non-empty text), port (a whole number from 1024 to
    65535), debug (true or false) and admins (a list of at least two email addresses)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, dict) or set(value) != {"name", "port", "debug", "admins"}:
            return f"{path} does not hold an object with exactly name, port, debug and admins: {content[:80]!r}"
        if not isinstance(value["name"], str) or not value["name"].strip():
            return f"{path} has no name"
        port = value["port"]
        if isinstance(port, bool) or not isinstance(port, int) or not 1024 <= port <= 65535:
            return f"{path} has the port {port!r}"
        if not isinstance(value["debug"], bool):
            return f"{path} has debug {value['debug']!r}, not true or false"
        admins = value["admins"]
        ok = isinstance(admins, list) and len(admins) >= 2 and all(
            isinstance(email, str) and _EMAIL.fullmatch(email.strip()) for email in admins)
        return None if ok else f"{path} has the admins {admins!r}"

    return check


def week_rows(path: str, header: list[str]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside), then seven rows of as many fields, one a
    day from Monday to Sunday in order (the day's full name or its first three letters in the first field), the
    second field not empty and the last a whole number above zero."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [[field.strip() for field in row] for row in csv.reader(io.StringIO(content), skipinitialspace=True)
                 if any(field.strip() for field in row)]
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != 7 or any(len(row) != len(header) for row in body):
            return f"{path} does not hold seven rows of {len(header)} fields: {content[:80]!r}"
        for row, day in zip(body, _WEEKDAYS, strict=True):
            if row[0].lower() not in (day, day[:3]):
                return f"{path} has {row[0]!r} where {day.title()} belongs"
            if not row[1]:
                return f"{path} leaves {day.title()} empty"
            if not re.fullmatch(r"\d+", row[-1]) or int(row[-1]) == 0:
                return f"{path} has {row[-1]!r} as {header[-1]} on {day.title()}"
        return None

    return check


def sorted_initials(path: str, count: int) -> Check:
    """`path` holds exactly `count` non-blank lines (a leading number or bullet aside), in alphabetical order (case
    aside), each starting with a letter no other line starts with."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = [_MARKER.sub("", line).strip() for line in _lines(content)]
        if len(lines) != count or not all(line[:1].isalpha() for line in lines):
            return f"{path} does not hold {count} names: {content[:80]!r}"
        keys = [line.lower() for line in lines]
        if keys != sorted(keys):
            return f"{path} is not in alphabetical order: {content[:80]!r}"
        initials = {key[0] for key in keys}
        return None if len(initials) == count else f"two names in {path} share their first letter"

    return check


def zh_quatrain(path: str, per_line: int, char: str) -> Check:
    """`path` holds four lines of exactly `per_line` Chinese characters each (punctuation aside; one title line
    above them aside), `char` among them."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) == 5:
            lines = lines[1:]
        counts = [len(_HAN.findall(line)) for line in lines]
        if counts != [per_line] * 4:
            return f"{path} has lines of {counts} characters, not four of {per_line}: {content[:60]!r}"
        return None if char in "".join(lines) else f"{path} does not hold {char}"

    return check


# the workspaces
SUM_CUBES = sum(n ** 3 for n in range(1, 13))

CHF, CHF_JPY = 1250, 171.35
YEN = CHF * CHF_JPY

LIMIT_KMH, KM_PER_MILE = 130, 1.609344
LIMIT_MPH = LIMIT_KMH / KM_PER_MILE

PAID, VAT = 96.60, 15
NET = PAID / (1 + VAT / 100)

REPORTS = {"Final Report (2).docx": "quarterly report, second draft\n",
           "Final Report.docx": "quarterly report, first draft\n"}

BASKET = [(3, "notebooks", 4.35), (2, "packs of pens", 6.80), (1, "stapler", 12.99)]
MEMBER_OFF = 10
_BASKET_SAID = [f"{count} {item} at {price:.2f} each" if count > 1 else f"a {item} at {price:.2f}"
                for count, item, price in BASKET]
BASKET_PAID = sum(count * price for count, _, price in BASKET) * (1 - MEMBER_OFF / 100)

WEIGHTS = {"exam": (50, 72), "coursework": (30, 88), "project": (20, 65)}
assert sum(weight for weight, _ in WEIGHTS.values()) == 100
OVERALL = sum(weight * mark for weight, mark in WEIGHTS.values()) / 100

SPAN_FROM, SPAN_TO = dt.date(2027, 1, 3), dt.date(2027, 3, 28)
assert (SPAN_TO - SPAN_FROM).days % 2 == 0  # one day exactly halfway
HALFWAY = SPAN_FROM + (SPAN_TO - SPAN_FROM) / 2

SHIPPED, DELIVERED = dt.datetime(2027, 2, 28, 16, 45), dt.datetime(2027, 3, 3, 9, 10)
TRANSIT_MINUTES = int((DELIVERED - SHIPPED).total_seconds() // 60)

LETTERS = {"letters/2026-11-02-okafor.txt": "Dear landlord,\nCould you tell me when the heating bill for last winter "
                                            "will be settled? I think I paid it twice.\nRegards,\nAmara Okafor, "
                                            "flat 2A\n",
           "letters/2026-11-05-lindqvist.txt": "Hello,\nThe heater in flat 4B has not worked since Monday and it is "
                                               "14 degrees in the living room. Please send someone as soon as "
                                               "possible.\nSofia Lindqvist\n",
           "letters/2026-11-09-brennan.txt": "Hi,\nJust a note to say thank you for fixing the front door lock so "
                                             "quickly.\nBest,\nLiam Brennan, flat 1C\n",
           "letters/2026-11-12-haddad.txt": "Dear Sir or Madam,\nMay I put a bike rack in the back yard? I would pay "
                                            "for it myself.\nFarid Haddad, flat 3D\n"}
URGENT = {"urgent/README.txt": "letters to deal with this week\n"}
COMPLAINT = next(path for path, text in LETTERS.items() if "not worked" in text)

EXPORTS = {"exports/sales-aug-2026.csv": "region,amount\nnorth,17420\nsouth,12980\n",
           "exports/sales-oct-2026.csv": "region,amount\nnorth,19315\nsouth,14060\n",
           "exports/sales-sep-2026.csv": "region,amount\nnorth,18870\nsouth,13555\n",
           "exports/sales-nov-2025.csv": "region,amount\nnorth,16240\nsouth,12110\n"}
EXPORTS_OTHER = {"exports/README.txt": "one export per month, written by the shop system\n"}
NEWEST_EXPORT = max(EXPORTS, key=lambda path: dt.datetime.strptime(path[len("exports/sales-"):-len(".csv")],
                                                                   "%b-%Y"))

CART = [(3, "oat milk", 1.89), (2, "sourdough loaf", 3.40), (1, "olive oil", 8.75), (6, "free-range eggs", 0.32),
        (4, "tinned tomatoes", 0.85)]
CART_MD = "# Shopping cart\n\n" + "".join(f"- {count} x {item} @ {price:.2f}\n" for count, item, price in CART)
CART_TOTAL = sum(int(count) * float(price)
                 for count, price in re.findall(r"^- (\d+) x .+ @ ([\d.]+)$", CART_MD, re.MULTILINE))

TEMPS_F = {"Mon": 68.0, "Tue": 71.6, "Wed": 64.4, "Thu": 59.0, "Fri": 62.6, "Sat": 75.2, "Sun": 69.8}
TEMPS_TXT = "".join(f"{day} {temp:.1f}\n" for day, temp in TEMPS_F.items())
_READ_F = [numbers_in(line)[0] for line in TEMPS_TXT.splitlines()]
AVERAGE_C = (sum(_READ_F) / len(_READ_F) - 32) * 5 / 9

TRIP_PEOPLE = ["Ana", "Ben", "Cleo", "Sam"]
TRIP = [("Ana", "groceries", 84.50), ("Ben", "fuel", 32.00), ("Ana", "cabin deposit", 41.20),
        ("Cleo", "firewood", 18.30), ("Ben", "dinner out", 60.00)]
TRIP_CSV = "who,what,amount\n" + "".join(f"{who},{what},{amount:.2f}\n" for who, what, amount in TRIP)
_TRIP_ROWS = list(csv.DictReader(io.StringIO(TRIP_CSV)))
CLEO_SHORT = (sum(float(row["amount"]) for row in _TRIP_ROWS) / len(TRIP_PEOPLE)
              - sum(float(row["amount"]) for row in _TRIP_ROWS if row["who"] == "Cleo"))

ZH_SALARY, ZH_DEDUCTED = 12000, 22.5
ZH_TAKE_HOME = ZH_SALARY * (1 - ZH_DEDUCTED / 100)

CLASS_FUND = [("2026-09-01", "收取班费", 1500.00), ("2026-09-15", "打印复习资料", -86.50),
              ("2026-10-10", "运动会饮料", -238.00), ("2026-10-24", "秋游大巴", -420.00),
              ("2026-11-05", "学校奖励", 300.00), ("2026-11-18", "教室绿植", -97.80),
              ("2026-11-30", "黑板报材料", -65.00)]
CLASS_FUND_CSV = "日期,事项,金额\n" + "".join(f"{day},{what},{amount:.2f}\n" for day, what, amount in CLASS_FUND)
FUND_LEFT = sum(float(row["金额"]) for row in csv.DictReader(io.StringIO(CLASS_FUND_CSV)))

FRESH_10: list[Task] = [
    # one step
    Task("f10-air", "Which gas makes up most of the air we breathe?",
         says_regex(r"\bnitrogen\b|(?<![A-Za-z])N(?:2|₂)(?![A-Za-z0-9])|氮", "nitrogen")),
    Task("f10-moon", "what year did people first walk on the moon", says_number(1969)),
    Task("f10-cubes", "Add up the cubes of the whole numbers from 1 to 12 (1³ + 2³ + … + 12³) and save only the "
         "result in cubes.txt.", file_amount("cubes.txt", SUM_CUBES, 1e-6)),
    Task("f10-yen", f"I'm changing {CHF:,} Swiss francs into yen and the exchange office gives {CHF_JPY} yen per "
         "franc. How many yen will I get?", says_about(YEN, 0.51)),
    Task("f10-mph", f"The motorway limit here is {LIMIT_KMH} km/h. What's that in miles per hour? Take a mile as "
         f"{KM_PER_MILE} km and round to one decimal place.", says_about(LIMIT_MPH, 0.05)),
    Task("f10-vat", f"My receipt says I paid {PAID:.2f}, and that includes {VAT}% VAT. What was the price before VAT "
         "was added?", says_about(NET, 0.005)),
    Task("f10-rename", "Rename the file 'Final Report (2).docx' to final-report.docx. Leave 'Final Report.docx' "
         "alone.", both(moved("Final Report (2).docx", "final-report.docx", REPORTS["Final Report (2).docx"]),
                        kept("Final Report.docx")), files=REPORTS),
    # two or three steps
    Task("f10-basket", "At the stationery shop I'm buying " + ", ".join(_BASKET_SAID[:-1]) + " and "
         + _BASKET_SAID[-1] + f". As a member I get {MEMBER_OFF}% off the whole bill. How much do I pay?",
         says_about(BASKET_PAID, 0.006)),
    Task("f10-grade", "My final mark is weighted: " + ", ".join(
         f"the {part} counts {weight}%" for part, (weight, _) in WEIGHTS.items()) + ". I got " + ", ".join(
         f"{mark} for the {part}" for part, (_, mark) in WEIGHTS.items()) + ". What is my overall mark?",
         says_about(OVERALL, 0.051)),
    Task("f10-halfway", f"Which date lies exactly halfway between {SPAN_FROM.day} {SPAN_FROM:%B %Y} and "
         f"{SPAN_TO.day} {SPAN_TO:%B %Y}?", says_day_of_month(HALFWAY)),
    Task("f10-parcel", f"My parcel was sent at {SHIPPED:%H:%M} on {SHIPPED.day} {SHIPPED:%B %Y} and delivered at "
         f"{DELIVERED:%H:%M} on {DELIVERED.day} {DELIVERED:%B %Y}, same time zone. How long was it on the way, in "
         "hours and minutes?",
         either(says_numbers(TRANSIT_MINUTES // 60, TRANSIT_MINUTES % 60), says_about(TRANSIT_MINUTES / 60, 0.01),
                says_about(TRANSIT_MINUTES, 0.5))),
    Task("f10-heater", "One of the tenants' letters in the letters folder says their heating has broken down. Move "
         "that letter into the urgent folder, keeping its file name, and leave the other letters where they are.",
         both(moved(COMPLAINT, COMPLAINT.replace("letters/", "urgent/"), LETTERS[COMPLAINT]),
              kept(*(path for path in LETTERS if path != COMPLAINT), *URGENT)), files={**LETTERS, **URGENT}),
    Task("f10-latest", "The exports folder has one sales export per month. Copy the most recent month's export to "
         "latest.csv at the top of the workspace; the exports folder itself stays exactly as it is.",
         both(copied(NEWEST_EXPORT, "latest.csv", EXPORTS[NEWEST_EXPORT]), kept(*EXPORTS, *EXPORTS_OTHER)),
         files={**EXPORTS, **EXPORTS_OTHER}),
    Task("f10-twister", "Make up a tongue twister of at least eight words in which every single word starts with the "
         "letter s, and save it in twister.txt.", words_start_with("twister.txt", "s", 8)),
    # harder
    Task("f10-cart", "cart.md is my online shopping cart. Work out what it all comes to and save just the total "
         "in total.txt.", file_amount("total.txt", CART_TOTAL, 0.005), files={"cart.md": CART_MD}),
    Task("f10-temps", "temps.txt has this week's midday temperatures in degrees Fahrenheit. Work out the week's "
         "average in degrees Celsius, rounded to one decimal, and write only that number into average-c.txt.",
         file_amount("average-c.txt", AVERAGE_C, 0.051), files={"temps.txt": TEMPS_TXT}),
    Task("f10-settle", f"trip.csv lists what each of us paid on our cabin weekend. There were four of us "
         f"({', '.join(TRIP_PEOPLE[:-1])} and {TRIP_PEOPLE[-1]}) and we share all the costs equally. How much more "
         "does Cleo have to put in to have paid her fair share?", says_about(CLEO_SHORT, 0.005),
         files={"trip.csv": TRIP_CSV}),
    Task("f10-app-json", "Write the settings of a made-up web app into app.json: one JSON object with exactly the "
         "keys name (a string), port (a whole number between 1024 and 65535), debug (true or false) and admins (a "
         "list of at least two email addresses).", app_settings("app.json")),
    Task("f10-meals", "Plan a week of dinners for me in meals.csv. It needs the header day,dinner,prep_minutes and "
         "then one row per day from Monday to Sunday in that order, with prep_minutes as a whole number.",
         week_rows("meals.csv", ["day", "dinner", "prep_minutes"])),
    Task("f10-puppy", "Suggest ten names for our new puppy and put them in puppy-names.txt, one per line, in "
         "alphabetical order, with every name starting with a different letter.",
         sorted_initials("puppy-names.txt", 10)),
    # Chinese, with --lang zh
    Task("f10-zh-continent", "世界上面积最大的大洲是哪一个？", says_any("亚洲", "asia"), lang="zh"),
    Task("f10-zh-salary", f"我税前月薪{ZH_SALARY}元，五险一金按{ZH_DEDUCTED}%扣。扣完以后每月还剩多少钱？"
         "把这个数写进 salary.txt，文件里只写数字。", file_amount("salary.txt", ZH_TAKE_HOME, 0.005), lang="zh"),
    Task("f10-zh-fund", "班费.csv 记着这学期班费的每一笔收支，支出记为负数。现在班费还剩多少钱？",
         says_about(FUND_LEFT, 0.005), files={"班费.csv": CLASS_FUND_CSV}, lang="zh"),
    Task("f10-zh-poem", "写一首以秋天为题的五言绝句，存到 autumn.txt：四句，每句五个字，每句单独一行，诗里要有“秋”字。",
         zh_quatrain("autumn.txt", 5, "秋"), lang="zh"),
]
