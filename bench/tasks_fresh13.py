# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh13` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh13 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (how many lines or words, its first word, which word it holds), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path

from tasks import Check, Task, both, moved, numbers_in, says_number, says_text
from tasks_fresh import (
    _WEEKDAYS,
    _ZH_DAYS,
    _lines,
    _read,
    file_is_lines,
    kept,
    says_about,
    says_count,
    says_day,
    says_weekday_of,
)
from tasks_fresh4 import either, file_is_exactly, says_numbers, says_regex
from tasks_fresh8 import words_between
from tasks_fresh9 import csv_rows_in_order


def first_number_is(path: str, value: float, tolerance: float) -> Check:
    """The first number written in `path` is within `tolerance` of `value` (a unit after it aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        said = numbers_in(content)
        return None if said and abs(said[0] - value) <= tolerance else f"{path} holds {content[:60]!r}"

    return check


def poem_lines(path: str, count: int, word: str) -> Check:
    """`path` holds exactly `count` non-blank lines, `word` somewhere among them (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != count:
            return f"{path} has {len(lines)} non-blank lines, not {count}: {content[:80]!r}"
        return None if word.lower() in content.lower() else f"{path} does not mention {word}"

    return check


def first_word_is(path: str, word: str) -> Check:
    """The first word of `path` (quotes aside) is `word` (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        words = re.findall(r"[^\W_]+", content)
        return None if words and words[0].lower() == word.lower() else f"{path} does not start with {word}"

    return check


def labelled_last_line(path: str, original: list[str], label: str, value: float, tolerance: float) -> Check:
    """`path` still holds the lines `original` first, as they were, then one more line: `label`, a colon and a
    number within `tolerance` of `value`."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if lines[:-1] != [line.strip() for line in original]:
            return f"{path} no longer holds its lines as they were: {content[:80]!r}"
        last = lines[-1] if lines else ""
        if not last.lower().startswith(f"{label.lower()}:"):
            return f"the last line of {path} is {last!r}"
        said = numbers_in(last[len(label) + 1:])
        return None if len(said) == 1 and abs(said[0] - value) <= tolerance else f"the last line of {path} is {last!r}"

    return check


def names_weekday(day: dt.date) -> Check:
    """The answer names the weekday of `day`, in English or Chinese (other weekdays may be named besides)."""
    english = _WEEKDAYS[day.weekday()]
    chinese = _ZH_DAYS[day.weekday()] + ("天" if day.weekday() == 6 else "")
    pattern = rf"\b{english}\b|(?:星期|周|礼拜)[{chinese}]"

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer, re.IGNORECASE) else f"answer does not name {english}"

    return check


def numbered_lines(path: str, items: list[str]) -> Check:
    """`path` holds exactly one line per item, in order: its number, a full stop (or 、 or a bracket) and the item."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        ok = len(lines) == len(items) and all(
            re.fullmatch(rf"{n}\s*[.、．)）]\s*{re.escape(item)}", line)
            for n, (line, item) in enumerate(zip(lines, items, strict=True), start=1))
        return None if ok else f"{path} holds {content[:80]!r}"

    return check


# the workspaces
OVEN_F = 425
OVEN_C = (OVEN_F - 32) * 5 / 9

GRANDAD_BORN = dt.date(1938, 3, 17)

GUESTS = ["Priya", "Mateo", "Hannah", "Yusuf", "Chloe", "Oskar", "Amelie", "Dev", "Sofia", "Kwame"]
GUESTS_TXT = "".join(f"{name}\n" for name in GUESTS)

APP_LOG_ENTRIES = [("06:00:01", "INFO", "service started on port 8080"), ("06:00:03", "INFO", "connected to db"),
                   ("06:14:22", "WARN", "slow query: 2.4s"), ("06:31:09", "ERROR", "payment gateway timeout"),
                   ("06:31:10", "INFO", "retrying after error"), ("06:45:57", "ERROR", "payment gateway timeout"),
                   ("07:02:40", "INFO", "cache warmed"), ("07:19:13", "WARN", "disk 81% full"),
                   ("07:20:02", "ERROR", "could not write session file"), ("07:58:44", "INFO", "error rate back to 0"),
                   ("08:05:30", "ERROR", "user 4411 not found"), ("08:06:12", "INFO", "nightly report sent")]
APP_LOG = "".join(f"2026-11-30 {time} {level} {message}\n" for time, level, message in APP_LOG_ENTRIES)
ERROR_LINES = sum(line.split()[2] == "ERROR" for line in APP_LOG.splitlines())

BANNER = ["Welcome to the Spring Open Day", "Doors open at 10am in Hall B", "Free coffee and tours every hour"]
BANNER_TXT = "".join(f"{line}\n" for line in BANNER)

LOG_FILES = {"server.log": "12:00 boot\n12:01 ready\n", "worker.log": "job 17 done\n", "cron.log": "03:00 backup\n"}
NOT_LOGS = {"notes.txt": "check the logs tomorrow\n", "report.csv": "day,visits\nmon,120\n",
            "logbook.md": "# Ship's logbook\n"}

STEPS = [7412, 10233, 6890, 8145, 12020, 4310, 9587, 8871, 7764, 11402, 5236, 9018, 10640, 6755]
STEPS_CSV = "date,steps\n" + "".join(f"{dt.date(2026, 11, 16) + dt.timedelta(days=n)},{steps}\n"
                                     for n, steps in enumerate(STEPS))
STEPS_AVG = sum(int(row["steps"]) for row in csv.DictReader(io.StringIO(STEPS_CSV))) / len(STEPS)

STREAK_START, STREAK_DAYS = dt.date(2026, 11, 28), 100
STREAK_END = STREAK_START + dt.timedelta(days=STREAK_DAYS - 1)

POSTED, WORKING_DAYS = dt.date(2026, 12, 3), 8
assert POSTED.strftime("%A") == "Thursday"


def _add_working_days(start: dt.date, count: int) -> dt.date:
    day = start
    while count:
        day += dt.timedelta(days=1)
        count -= day.weekday() < 5
    return day


DELIVERED = _add_working_days(POSTED, WORKING_DAYS)

REVENUE = [("2026-01", 41250), ("2026-02", 38900), ("2026-03", 45120), ("2026-04", 47300), ("2026-05", 51860),
           ("2026-06", 49415)]
REVENUE_CSV = "month,revenue\n" + "".join(f"{month},{amount}\n" for month, amount in REVENUE)
_BY_MONTH = {row["month"]: float(row["revenue"]) for row in csv.DictReader(io.StringIO(REVENUE_CSV))}
Q1 = sum(amount for month, amount in _BY_MONTH.items() if month[5:] in ("01", "02", "03"))
Q2 = sum(amount for month, amount in _BY_MONTH.items() if month[5:] in ("04", "05", "06"))
GROWTH = (Q2 - Q1) / Q1 * 100

PARTS = {"part1.txt": ["Good evening, and thank you all for coming.", "Ten years ago this club had six members."],
         "part2.txt": ["Today we have more than two hundred.", "We built the boathouse with our own hands.",
                       "We lost the river race four times before we won it."],
         "part3.txt": ["So raise your glasses to the next ten years.", "Cheers!"]}
SPEECH = [line for name in ("part1.txt", "part2.txt", "part3.txt") for line in PARTS[name]]

TAGS = ["python", "travel", "recipes", "python", "photography", "travel", "gardening", "recipes", "python",
        "music", "gardening", "books"]
UNIQUE_TAGS = list(dict.fromkeys(TAGS))

TEAM = [("Aiko Tanaka", "aiko@studio.example", "Design"), ("Bruno Costa", "bruno@studio.example", "Engineering"),
        ("Clara Jensen", "clara@studio.example", "Design"), ("Diego Alvarez", "diego@studio.example", "Sales"),
        ("Esme Walsh", "esme@studio.example", "Engineering"), ("Femi Adeyemi", "femi@studio.example", "Design"),
        ("Greta Lind", "greta@studio.example", "Sales"), ("Hugo Brandt", "hugo@studio.example", "Design")]
TEAM_CSV = "name,email,team\n" + "".join(f"{name},{email},{team}\n" for name, email, team in TEAM)
DESIGN_EMAILS = [row["email"] for row in csv.DictReader(io.StringIO(TEAM_CSV)) if row["team"] == "Design"]

NEIGHBOUR = "Okonkwo"

FUEL = [("2026-09-02", 41.8, 612), ("2026-09-19", 38.2, 540), ("2026-10-06", 44.5, 655), ("2026-10-24", 36.9, 402),
        ("2026-11-11", 42.3, 601)]
FUEL_CSV = "date,litres,km_since_last_fill\n" + "".join(f"{day},{litres},{km}\n" for day, litres, km in FUEL)
_FUEL_ROWS = list(csv.DictReader(io.StringIO(FUEL_CSV)))
CONSUMPTION = (sum(float(row["litres"]) for row in _FUEL_ROWS)
               / sum(float(row["km_since_last_fill"]) for row in _FUEL_ROWS) * 100)

BACKUP_LOG = ("2026-11-28 23:47:05 backup started (profile: nightly)\n"
              "2026-11-28 23:58:40 copied /home (14.2 GB)\n"
              "2026-11-29 00:40:17 copied /srv/photos (96.8 GB)\n"
              "2026-11-29 01:09:53 verifying checksums\n"
              "2026-11-29 01:12:41 backup finished OK\n")
_STAMPS = [dt.datetime.strptime(line[:19], "%Y-%m-%d %H:%M:%S") for line in BACKUP_LOG.splitlines()]
BACKUP_SECONDS = int((_STAMPS[-1] - _STAMPS[0]).total_seconds())
_B_H, _B_REST = divmod(BACKUP_SECONDS, 3600)
_B_M, _B_S = divmod(_B_REST, 60)
_MINUTES_ROUNDED = (_B_M, _B_M + 1) if _B_S else (_B_M,)  # "1 hour 25 minutes" or "about 1 hour 26 minutes"
BACKUP_ROUNDED = (rf"(?<![\d.]){_B_H}\s*(?:h|hrs?|hours?)\W*(?:and\s+)?(?:{'|'.join(map(str, _MINUTES_ROUNDED))})"
                  rf"\s*(?:m|mins?|minutes?)\b|(?<![\d.])(?:{'|'.join(str(_B_H * 60 + m) for m in _MINUTES_ROUNDED)})"
                  rf"\s*(?:mins?|minutes?)\b")

INVENTORY = [("A-100", "AA batteries (4-pack)", 12, 20), ("A-101", "Printer paper (ream)", 45, 30),
             ("A-102", "Blue ballpoint pens", 8, 25), ("A-103", "Sticky notes", 30, 30),
             ("A-104", "Stapler", 6, 4), ("A-105", "Whiteboard markers", 15, 10), ("A-106", "Envelopes C5", 90, 50),
             ("A-107", "Paper clips (box)", 3, 5)]
INVENTORY_CSV = "sku,name,in_stock,reorder_level\n" + "".join(
    f"{sku},{name},{stock},{level}\n" for sku, name, stock, level in INVENTORY)
TO_REORDER = [row["name"] for row in csv.DictReader(io.StringIO(INVENTORY_CSV))
              if int(row["in_stock"]) <= int(row["reorder_level"])]

ORDERS = [{"id": 5101, "customer": "Nadia Haddad", "items": [{"sku": "MUG", "price": 12.5, "qty": 2},
                                                                  {"sku": "TEA", "price": 6.95, "qty": 3}]},
          {"id": 5102, "customer": "Owen Price", "items": [{"sku": "LAMP", "price": 48.0, "qty": 1}]},
          {"id": 5103, "customer": "Lucia Ferri", "items": [{"sku": "TEA", "price": 6.95, "qty": 6},
                                                                 {"sku": "POT", "price": 22.4, "qty": 1}]},
          {"id": 5104, "customer": "Sam Whitfield", "items": [{"sku": "MUG", "price": 12.5, "qty": 1},
                                                                   {"sku": "SPOON", "price": 3.2, "qty": 4}]},
          {"id": 5105, "customer": "Ines Duarte", "items": [{"sku": "LAMP", "price": 48.0, "qty": 2},
                                                                 {"sku": "BULB", "price": 4.75, "qty": 2}]}]
ORDERS_JSON = json.dumps(ORDERS, indent=2) + "\n"
_TOTALS = [(order["id"], order["customer"], round(sum(item["price"] * item["qty"] for item in order["items"]), 2))
           for order in json.loads(ORDERS_JSON)]
assert len({total for _, _, total in _TOTALS}) == len(_TOTALS)  # no ties: one right order
ORDER_ROWS = [[str(number), customer, f"{total:.2f}"]
              for number, customer, total in sorted(_TOTALS, key=lambda t: -t[2])]

SCORES = [("Ava", 84), ("Ben", 71), ("Cyrus", 93), ("Dina", 66), ("Eli", 88), ("Fern", 79), ("Gil", 90), ("Hana", 70)]
SCORES_LINES = [f"{name}: {score}" for name, score in SCORES]
SCORES_AVG = sum(numbers_in(line)[0] for line in SCORES_LINES) / len(SCORES_LINES)

GRADES_ZH = [("陈晨", 92, 85, 88), ("林一凡", 78, 96, 90), ("黄小雨", 88, 91, 94), ("周杰", 95, 72, 81),
             ("吴思远", 83, 89, 87), ("郑可", 90, 93, 86)]
GRADES_ZH_CSV = "姓名,语文,数学,英语\n" + "".join(f"{name},{a},{b},{c}\n" for name, a, b, c in GRADES_ZH)
_TOTALS_ZH = {row["姓名"]: int(row["语文"]) + int(row["数学"]) + int(row["英语"])
              for row in csv.DictReader(io.StringIO(GRADES_ZH_CSV))}
BEST_ZH = max(_TOTALS_ZH, key=_TOTALS_ZH.__getitem__)
assert sorted(_TOTALS_ZH.values())[-2] < _TOTALS_ZH[BEST_ZH]  # one student alone is top

BREAK_FROM, BREAK_TO = dt.date(2026, 12, 19), dt.date(2027, 1, 11)
BREAK_DAYS = (BREAK_TO - BREAK_FROM).days

SHOPPING_ZH = ["牛奶", "鸡蛋", "全麦面包", "西红柿", "洗衣液", "苹果"]
SHOPPING_ZH_TXT = "".join(f"{item}\n" for item in SHOPPING_ZH)

HALF_KM, RUN_MINUTES = 21.0975, 112
PACE = RUN_MINUTES / HALF_KM  # minutes per km
_PACE_MIN, _PACE_SEC = int(PACE), (PACE - int(PACE)) * 60

FRESH_13: list[Task] = [
    # one step
    Task("f13-oven", f"My grandmother's bread recipe says to bake it at {OVEN_F}°F. What's that in Celsius?",
         says_about(OVEN_C, 0.5)),
    Task("f13-grandad", f"My grandad was born on {GRANDAD_BORN.day} {GRANDAD_BORN:%B %Y}. What day of the week was "
         "that?", says_weekday_of(GRANDAD_BORN)),
    Task("f13-guests", "Sort the names in guests.txt alphabetically. Keep them in the same file, one per line.",
         file_is_lines("guests.txt", sorted(GUESTS)), files={"guests.txt": GUESTS_TXT}),
    Task("f13-errors", "How many ERROR-level entries are there in app.log?", says_count(ERROR_LINES),
         files={"app.log": APP_LOG}),
    Task("f13-logs", "Tidy up this folder: move every .log file into a new folder called logs. Everything else stays "
         "where it is.",
         both(*(moved(name, f"logs/{name}", text) for name, text in LOG_FILES.items()), kept(*NOT_LOGS)),
         files={**LOG_FILES, **NOT_LOGS}),
    # two or three steps
    Task("f13-banner", "Keep a copy of banner.txt as banner.orig.txt, then change banner.txt so that all of its text "
         "is in capital letters.",
         both(file_is_exactly("banner.orig.txt", BANNER), file_is_exactly("banner.txt", [b.upper() for b in BANNER])),
         files={"banner.txt": BANNER_TXT}),
    Task("f13-steps", "steps.csv has my step count for each day of the last two weeks. How many steps did I average "
         "per day?", says_about(STEPS_AVG, 0.5), files={"steps.csv": STEPS_CSV}),
    Task("f13-streak", f"I started a language-learning streak on {STREAK_START.day} {STREAK_START:%B %Y}, and that "
         f"counts as day 1. On what date will I reach day {STREAK_DAYS}?", says_day(STREAK_END)),
    Task("f13-parcel", f"I posted a parcel on Thursday {POSTED.day} {POSTED:%B %Y}. The courier says it takes "
         f"{WORKING_DAYS} working days, counted from the day after posting (Monday to Friday only, ignore public "
         "holidays). On what date should it arrive, and what weekday is that?",
         both(says_day(DELIVERED), says_text(DELIVERED.strftime("%A")))),
    Task("f13-growth", "revenue.csv has our monthly revenue for the first half of 2026. By what percentage did the "
         "total revenue of Q2 grow compared with Q1? One decimal place is enough.", says_about(GROWTH, 0.051),
         files={"revenue.csv": REVENUE_CSV}),
    Task("f13-speech", "My toast is split across part1.txt, part2.txt and part3.txt. Join them, in that order, into "
         "one file called speech.txt. Don't delete the parts.",
         both(file_is_exactly("speech.txt", SPEECH), kept(*PARTS)),
         files={name: "".join(f"{line}\n" for line in lines) for name, lines in PARTS.items()}),
    Task("f13-tags", "tags.txt has one tag per line but lots of them repeat. Write each tag just once to "
         "unique-tags.txt, in the order it first shows up.", file_is_lines("unique-tags.txt", UNIQUE_TAGS),
         files={"tags.txt": "".join(f"{tag}\n" for tag in TAGS)}),
    Task("f13-design", "From team.csv, put the email address of everyone in the Design team into design-emails.txt, "
         "one address per line.", file_is_lines("design-emails.txt", DESIGN_EMAILS, ordered=False),
         files={"team.csv": TEAM_CSV}),
    Task("f13-roof", "Write a short poem of exactly three lines about rain on a tin roof and save it in rain.txt.",
         poem_lines("rain.txt", 3, "rain")),
    Task("f13-thanks", f"Write a thank-you note to our neighbour Mrs {NEIGHBOUR}, who fed our cat while we were away. "
         "Make it 40 to 70 words long and start it with the word Dear. Save it as thanks.txt.",
         both(words_between("thanks.txt", 40, 70, NEIGHBOUR), first_word_is("thanks.txt", "Dear"))),
    Task("f13-fuel", "fuel.csv logs every time I filled up the car: the litres I put in and the km driven since the "
         "previous fill. What is the car's overall fuel consumption in litres per 100 km? Write just that number, "
         "rounded to one decimal, into consumption.txt.", first_number_is("consumption.txt", CONSUMPTION, 0.051),
         files={"fuel.csv": FUEL_CSV}),
    Task("f13-backup", "How long did last night's backup run, going by backup.log?",
         either(says_numbers(_B_H, _B_M, _B_S), says_numbers(_B_H * 60 + _B_M, _B_S),
                says_about(BACKUP_SECONDS / 60, 0.01), says_number(BACKUP_SECONDS),
                says_regex(BACKUP_ROUNDED, f"{_B_H} h {_B_M} min")),
         files={"backup.log": BACKUP_LOG}),
    Task("f13-reorder", "Which items in inventory.csv have stock at or below their reorder level? Write their names "
         "into reorder.txt, one per line.", file_is_lines("reorder.txt", TO_REORDER, ordered=False),
         files={"inventory.csv": INVENTORY_CSV}),
    Task("f13-orders", "Turn orders.json into orders.csv with the columns id,customer,total, where total is what the "
         "whole order comes to (price times quantity, summed over its items). Put the biggest order first.",
         csv_rows_in_order("orders.csv", ["id", "customer", "total"], ORDER_ROWS), files={"orders.json": ORDERS_JSON}),
    Task("f13-average", "Work out the average of the scores in scores.txt and add it at the end of the file as a new "
         "line in the form Average: <number>, rounded to one decimal. Leave the existing lines alone.",
         labelled_last_line("scores.txt", SCORES_LINES, "Average", SCORES_AVG, 0.051),
         files={"scores.txt": "".join(f"{line}\n" for line in SCORES_LINES)}),
    # Chinese, with --lang zh
    Task("f13-zh-grades", "成绩.csv 里是这次期末考试的成绩。谁的语文、数学、英语三科总分最高？总分是多少？",
         both(says_text(BEST_ZH), says_number(_TOTALS_ZH[BEST_ZH])), files={"成绩.csv": GRADES_ZH_CSV}, lang="zh"),
    Task("f13-zh-break", f"寒假从{BREAK_FROM.year}年{BREAK_FROM.month}月{BREAK_FROM.day}日开始，"
         f"{BREAK_TO.year}年{BREAK_TO.month}月{BREAK_TO.day}日开学。这两个日期相差多少天？开学那天是星期几？",
         both(says_number(BREAK_DAYS), names_weekday(BREAK_TO)), lang="zh"),
    Task("f13-zh-list", "给 购物清单.txt 里的每一项前面加上序号，格式像“1. 牛奶”这样，一行一项，存到 编号清单.txt。"
         "原来的文件不要改。",
         both(numbered_lines("编号清单.txt", SHOPPING_ZH), file_is_exactly("购物清单.txt", SHOPPING_ZH)),
         files={"购物清单.txt": SHOPPING_ZH_TXT}, lang="zh"),
    Task("f13-zh-pace", f"我周末跑了一个半程马拉松，{HALF_KM}公里，用时1小时{RUN_MINUTES - 60}分钟。"
         "我的平均配速是每公里多少？",
         either(says_numbers(_PACE_MIN, int(_PACE_SEC)), says_numbers(_PACE_MIN, round(_PACE_SEC)),
                says_about(PACE, 0.01)), lang="zh"),
]

assert len(FRESH_13) == 24 and sum(task.lang == "zh" for task in FRESH_13) == 4
assert len({task.name for task in FRESH_13}) == len(FRESH_13)
