# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh20` (24 tasks, 4 of them in Chinese): a DEVELOPMENT set since 2026-12-05.

It was written blind, by a helper, on 2026-12-04, before any change it measures, and was measured only (numbers, no
task or failure read) through five runs under `--protocol code`. On 2026-12-05 its tasks and the traces of those runs
were read to find what to change next, so from then on it is a development set: a change it shaped is judged on sets
nobody has read (bench/RESULTS.md says which).

Run: `python bench/success.py --suite fresh20 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and weekday is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a task that asks for
rounding says how, and its check allows for that rounding and no more.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import re
from decimal import Decimal
from pathlib import Path

from tasks import Check, Task, both, numbers_in, says_number, says_text
from tasks_fresh import _WEEKDAYS, _read, file_is_lines, says_about
from tasks_fresh4 import either, file_is_exactly, says_regex
from tasks_fresh9 import csv_rows_in_order
from tasks_fresh14 import untouched
from tasks_fresh16 import says_day_short
from tasks_fresh17 import names_few_of
from tasks_fresh19 import lines_now, says_hours_minutes

_ZH_MONTHS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]


def _digits_pattern(number: str) -> str:
    """A pattern for the digits of `number`, written with or without blanks or hyphens between them."""
    return r"(?<!\d)" + r"[\s-]?".join(re.sub(r"\D", "", number)) + r"(?!\d)"


def says_codes(wanted: list[str], others: list[str], most_others: int) -> Check:
    """The answer gives every code of `wanted` (its digits with or without hyphens or blanks between them) and at
    most `most_others` of `others` (an answer that lists them all has not picked)."""

    def check(answer: str, workspace: Path) -> str | None:
        missing = [code for code in wanted if not re.search(_digits_pattern(code), answer)]
        if missing:
            return f"answer does not give {', '.join(missing)}"
        named = [code for code in others if re.search(_digits_pattern(code), answer)]
        return None if len(named) <= most_others else f"answer also gives {', '.join(named)}"

    return check


def says_weekday_among(right: dt.date, allowed: dt.date) -> Check:
    """The answer names the weekday of `right`, and no weekday but that one and the weekday of `allowed` (a date
    the task gives, which the answer may repeat)."""

    def check(answer: str, workspace: Path) -> str | None:
        named = {name for name in _WEEKDAYS if name in answer.lower()}
        want = _WEEKDAYS[right.weekday()]
        ok = want in named and named <= {want, _WEEKDAYS[allowed.weekday()]}
        return None if ok else f"answer does not name {want} alone"

    return check


def word_table(path: str, counts: dict[str, int]) -> Check:
    """`path` is a CSV file with the header file,words (case aside) and one row per file of `counts`, in the order
    of `counts`: the file's name (a folder before it aside) and its word count."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        rows = csv.reader(io.StringIO(content))
        table = [[cell.strip() for cell in row] for row in rows if any(cell.strip() for cell in row)]
        if not table or [cell.lower() for cell in table[0]] != ["file", "words"]:
            return f"{path} does not start with the header file,words: {content[:60]!r}"
        got = [(row[0].replace("\\", "/").rsplit("/", 1)[-1].lower(), numbers_in(row[1])) for row in table[1:]
               if len(row) == 2]
        want = [(name.lower(), [float(count)]) for name, count in counts.items()]
        return None if got == want and len(table) == len(counts) + 1 else f"{path} holds {content[:100]!r}"

    return check


def zh_months_named(months: list[int]) -> Check:
    """The answer names the months `months` ("4月", "四月") and no other month, leaving aside a month followed by
    another day of it ("1月1日") and a month whose 13th it says is another weekday ("1月13日是星期六")."""
    numeral = "|".join(sorted((re.escape(n) for n in _ZH_MONTHS), key=len, reverse=True))
    mention = re.compile(rf"(?<![\d一二三四五六七八九十])(\d{{1,2}}|{numeral})\s*月")
    other_day = re.compile(r"\s*(?!13)(?:\d|[一二三四五六七八九十])")
    other_weekday = re.compile(r"\s*13\s*[日号]\W{0,3}(?:是|为)?\s*(?:星期|周|礼拜)[一二三四六日天]")

    def check(answer: str, workspace: Path) -> str | None:
        named = set()
        for match in mention.finditer(answer):
            rest = answer[match.end():]
            if other_day.match(rest) or other_weekday.match(rest):
                continue
            month = match.group(1)
            named.add(int(month) if month.isdigit() else _ZH_MONTHS.index(month) + 1)
        return None if named == set(months) else f"answer names the months {sorted(named)}, not {months}"

    return check


# the workspaces
TRANSCRIPT = [("Linear Algebra", 6, "3.7"), ("Academic Writing", 2, "4.0"), ("Organic Chemistry", 7, "2.3"),
              ("Statistics", 5, "3.3"), ("Art History", 3, "4.0"), ("Physics Lab", 4, "2.7"),
              ("German I", 3, "3.0")]
TRANSCRIPT_CSV = "course,credits,grade_points\n" + "".join(f"{name},{credits},{points}\n"
                                                           for name, credits, points in TRANSCRIPT)
_GRADES = [(Decimal(row["credits"]), Decimal(row["grade_points"]))
           for row in csv.DictReader(io.StringIO(TRANSCRIPT_CSV))]
GPA = sum(credits * points for credits, points in _GRADES) / sum(credits for credits, _ in _GRADES)
_PLAIN_MEAN = sum(points for _, points in _GRADES) / len(_GRADES)
assert abs(GPA - _PLAIN_MEAN) > Decimal("0.05") and abs((GPA * 100) % 1 - Decimal("0.5")) > Decimal("0.05")
assert round(float(GPA), 2) not in numbers_in(TRANSCRIPT_CSV)

AGENDA = [("09:00", "09:30", "Stand-up"), ("09:15", "10:45", "Design review"), ("11:00", "12:10", "Client call"),
          ("12:00", "12:45", "Lunch with Priya"), ("14:20", "15:00", "1:1 with Tom"),
          ("15:00", "16:15", "Budget workshop"), ("16:45", "17:30", "Hiring panel")]
AGENDA_TXT = "Wednesday\n" + "".join(f"{start}-{end} {what}\n" for start, end, what in AGENDA)
DAY_START, DAY_END = "09:00", "17:30"


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


_FREE: list[tuple[int, int]] = []
_BUSY_UNTIL = _minutes(DAY_START)
for _start, _end in sorted((_minutes(a), _minutes(b)) for a, b in re.findall(r"^(\d\d:\d\d)-(\d\d:\d\d) ", AGENDA_TXT,
                                                                              re.M)):
    if _start > _BUSY_UNTIL:
        _FREE.append((_BUSY_UNTIL, _start))
    _BUSY_UNTIL = max(_BUSY_UNTIL, _end)
if _minutes(DAY_END) > _BUSY_UNTIL:
    _FREE.append((_BUSY_UNTIL, _minutes(DAY_END)))
FREE_FROM, FREE_TO = max(_FREE, key=lambda gap: gap[1] - gap[0])
FREE_MINUTES = FREE_TO - FREE_FROM
assert sorted(end - start for start, end in _FREE)[-2] < FREE_MINUTES  # one longest gap
assert (FREE_FROM, FREE_MINUTES) == (12 * 60 + 45, 95)  # "12:45" and "1 hour 35 minutes" below
SAYS_FREE_FROM = says_regex(r"(?<![\d:.])12[:.h]45(?!\d)|quarter to (?:one|1)\b", "12:45")

ISBNS = ["978-0-306-40615-7", "978-1-4028-9462-6", "978-0-596-52068-1", "978-1-86197-876-9", "978-3-16-148410-0",
         "978-0-446-57922-8", "978-0-19-953556-9"]
ISBNS_TXT = "".join(f"{isbn}\n" for isbn in ISBNS)


def _isbn_ok(isbn: str) -> bool:
    digits = [int(c) for c in isbn if c.isdigit()]
    return len(digits) == 13 and sum(d * (3 if n % 2 else 1) for n, d in enumerate(digits)) % 10 == 0


BAD_ISBNS = [isbn for isbn in ISBNS_TXT.split() if not _isbn_ok(isbn)]
GOOD_ISBNS = [isbn for isbn in ISBNS_TXT.split() if _isbn_ok(isbn)]
assert len(BAD_ISBNS) == 2 and len(GOOD_ISBNS) == 5

TARIFF = {"currency": "EUR", "standing_charge_per_day": 0.35,
          "bands": [{"from_kwh": 0, "to_kwh": 100, "price_per_kwh": 0.21},
                    {"from_kwh": 100, "to_kwh": 300, "price_per_kwh": 0.26},
                    {"from_kwh": 300, "to_kwh": None, "price_per_kwh": 0.33}]}
TARIFF_JSON = json.dumps(TARIFF, indent=2) + "\n"
USED_KWH, BILL_DAYS = 437, 31
_TARIFF = json.loads(TARIFF_JSON, parse_float=Decimal)
BILL = (sum((min(USED_KWH, band["to_kwh"] or USED_KWH) - band["from_kwh"]) * band["price_per_kwh"]
            for band in _TARIFF["bands"] if band["from_kwh"] < USED_KWH)
        + BILL_DAYS * _TARIFF["standing_charge_per_day"])
assert Decimal("129.06") == BILL and float(BILL) not in numbers_in(TARIFF_JSON)
assert BILL_DAYS * _TARIFF["standing_charge_per_day"] > 1  # leaving out the standing charge is wrong

BIRTHDAYS = [{"name": "Ana", "born": "1990-03-14"}, {"name": "Bilal", "born": "1985-12-17"},
             {"name": "Dora", "born": "1979-11-08"}, {"name": "Emil", "born": "2001-01-05"},
             {"name": "Fay", "born": "1996-06-22"}, {"name": "Greta", "born": "1993-01-19"},
             {"name": "Hugo", "born": "1988-09-30"}]
BIRTHDAYS_JSON = json.dumps(BIRTHDAYS, indent=2) + "\n"
ASKED = dt.date(2027, 12, 20)


def _next_birthday(born: dt.date) -> dt.date:
    day = born.replace(year=ASKED.year)
    return day if day > ASKED else born.replace(year=ASKED.year + 1)


_NEXT = sorted((_next_birthday(dt.date.fromisoformat(person["born"])), person["name"])
               for person in json.loads(BIRTHDAYS_JSON))
NEXT_DAY, NEXT_NAME = _NEXT[0]
assert NEXT_DAY.year == ASKED.year + 1 and (_NEXT[1][0] - NEXT_DAY).days > 7
assert NEXT_DAY.replace(year=ASKED.year).weekday() != NEXT_DAY.weekday() != ASKED.weekday()

ESSAYS = {"essays/ocean.txt": "The ocean covers most of our planet. It feeds millions of people, moves heat around "
                              "the globe, and still hides creatures that nobody has ever seen.\n",
          "essays/cities.txt": "Cities grow in rings, like trees.\nEach ring tells you what people needed when it was "
                               "built: walls, then markets, then railways, then car parks.\n",
          "essays/bread.txt": "Good bread needs only flour, water, salt and time.\n\nMost of the work is waiting.\n",
          "essays/music.txt": "Music reaches us before words do. Babies sway to a beat long before they can "
                              "speak, and old songs bring back whole summers in a few bars.\n",
          "essays/outline.md": "# Outline\n\nocean, cities, bread, music\n"}
ESSAYS_OUTSIDE = {"todo.txt": "finish the essays\n"}
WORD_COUNTS = {path.split("/", 1)[1]: len(text.split()) for path, text in sorted(ESSAYS.items())
               if path.endswith(".txt")}
assert len(WORD_COUNTS) == 4 and len(set(WORD_COUNTS.values())) == 4
assert not any(re.search(r"\w[-'’]\w|\d", text) for text in ESSAYS.values())  # a word is the same however split

MONTHS = {"sales/jan.csv": [("2027-01-04", "north", "1250.00"), ("2027-01-18", "south", "980.50"),
                            ("2027-01-29", "west", "1430.25")],
          "sales/feb.csv": [("2027-02-02", "south", "1105.00"), ("2027-02-21", "north", "760.75")],
          "sales/mar.csv": [("2027-03-05", "west", "1320.00"), ("2027-03-12", "north", "890.40"),
                            ("2027-03-30", "south", "1502.10")]}
SALES_HEADER = ["date", "region", "amount"]
SALES_FILES = {path: ",".join(SALES_HEADER) + "\n" + "".join(",".join(row) + "\n" for row in rows)
               for path, rows in MONTHS.items()}
Q1_ROWS = [list(row) for path in ("sales/jan.csv", "sales/feb.csv", "sales/mar.csv") for row in MONTHS[path]]
assert [path for path in sorted(MONTHS)] != list(MONTHS)  # alphabetical order is not month order

SCRIPT_PY = ("import sys\n\n\ndef shout(words):\n\tresult = []\n\tfor word in words:\n\t\tif word:\n"
             "\t\t\tresult.append(word.upper())\n\treturn \" \".join(result)\n\n\n"
             "if __name__ == \"__main__\":\n\tprint(shout(sys.argv[1:]))\n")
SCRIPT_SPACES = [line.replace("\t", "    ").rstrip() for line in SCRIPT_PY.splitlines()]
assert "\t\t\t" in SCRIPT_PY and all(line.lstrip("\t") == line.strip() or not line for line in SCRIPT_PY.splitlines())

LEAP_FROM, LEAP_TO = 2001, 2100
LEAP_YEARS = [str(year) for year in range(LEAP_FROM, LEAP_TO + 1)
              if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)]
assert len(LEAP_YEARS) == 24 and LEAP_YEARS[-1] == "2096"

CLUB, SEATS = 11, 4
COMMITTEES = math.comb(CLUB, SEATS)
assert math.perm(CLUB, SEATS) != COMMITTEES

TRAYS, PER_TRAY, LEFT_OVER = 14, 36, 58  # "fourteen", "thirty-six", "fifty-eight" below
ROLLS_SOLD = TRAYS * PER_TRAY - LEFT_OVER

HOSTS = ["# home network", "127.0.0.1      localhost", "192.168.1.1    router.home router",
         "192.168.1.20   nas.home nas", "192.168.1.21   nas-backup.home", "192.168.1.35   printer.home"]
HOSTS_TXT = "".join(f"{line}\n" for line in HOSTS)
NAS_IP = "192.168.1.60"
HOSTS_AFTER = [re.sub(r"^\S+(?=\s+nas\.home\b)", NAS_IP, line) for line in HOSTS]
assert sum(a != b for a, b in zip(HOSTS, HOSTS_AFTER, strict=True)) == 1

WEATHER = [("2027-04-01", "14.2", "6.1"), ("2027-04-02", "16.8", "7.4"), ("2027-04-03", "19.5", "4.3"),
           ("2027-04-04", "21.3", "9.8"), ("2027-04-05", "17.0", "8.2"), ("2027-04-06", "12.4", "2.9"),
           ("2027-04-07", "15.1", "3.6"), ("2027-04-08", "18.9", "10.5")]
WEATHER_CSV = "date,high_c,low_c\n" + "".join(f"{day},{high},{low}\n" for day, high, low in WEATHER)
_SWINGS = {dt.date.fromisoformat(row["date"]): Decimal(row["high_c"]) - Decimal(row["low_c"])
           for row in csv.DictReader(io.StringIO(WEATHER_CSV))}
SWING_DAY = max(_SWINGS, key=lambda day: _SWINGS[day])
SWING = _SWINGS[SWING_DAY]
assert sorted(_SWINGS.values())[-2] < SWING - Decimal("0.5")
assert SWING_DAY.isoformat() not in (max(WEATHER, key=lambda row: float(row[1]))[0],
                                     min(WEATHER, key=lambda row: float(row[2]))[0])
assert float(SWING) not in numbers_in(WEATHER_CSV)

STONE, POUNDS = 11, 6
WEIGHT_KG = (STONE * 14 + POUNDS) * 0.45359237
assert abs((STONE + POUNDS / 10) * 6.35029318 - WEIGHT_KG) > 0.5  # "11.6 stone" is wrong

TURNOUT_BEFORE, TURNOUT_AFTER = 62, 71
TURNOUT_POINTS = TURNOUT_AFTER - TURNOUT_BEFORE
TURNOUT_RISE = (TURNOUT_AFTER - TURNOUT_BEFORE) / TURNOUT_BEFORE * 100
assert abs(TURNOUT_RISE - TURNOUT_POINTS) > 1

POSTED, WORKING_DAYS = dt.date(2027, 9, 16), 7


def _add_working_days(day: dt.date, count: int) -> dt.date:
    while count:
        day += dt.timedelta(days=1)
        count -= day.weekday() < 5
    return day


ARRIVES = _add_working_days(POSTED, WORKING_DAYS)
assert POSTED.weekday() == 3 and POSTED + dt.timedelta(days=WORKING_DAYS) != ARRIVES and ARRIVES.month == POSTED.month
assert ARRIVES.month == 9  # "Sept 27" below, a way of writing it that says_day_short does not take
SAYS_ARRIVES = either(says_day_short(ARRIVES), says_regex(rf"\bsept\.?\s*{ARRIVES.day}\b|\b{ARRIVES.day}\s*sept\b",
                                                          f"Sept {ARRIVES.day}"))

FIRST_BIN_DAY, LAST_BIN_DAY = dt.date(2027, 1, 5), dt.date(2027, 3, 31)
BIN_DAYS = [(FIRST_BIN_DAY + dt.timedelta(weeks=2 * n)).isoformat()
            for n in range((LAST_BIN_DAY - FIRST_BIN_DAY).days // 14 + 1)]
assert FIRST_BIN_DAY.weekday() == 1 and BIN_DAYS[-1] == "2027-03-30" and len(BIN_DAYS) == 7

SURVEY_CSV = """id,name,age,city,rating
4101,Maren Holt,34,Bergen,4
4102,Ravi Iyer,,Leeds,5
4103,Lucia Ferro,41,Turin,3
4104,Tom Okafor,29,,4
4105,Ines Duarte,52,Porto,0
4106,Kai Lindqvist,38,Malmo,
4107,Hana Sato,45,Osaka,5
4108,Owen Price,31,Cardiff,2
"""
_SURVEY = list(csv.DictReader(io.StringIO(SURVEY_CSV)))
INCOMPLETE = [row["id"] for row in _SURVEY if any(not value.strip() for value in row.values())]
COMPLETE = [row["id"] for row in _SURVEY if row["id"] not in INCOMPLETE]
assert INCOMPLETE == ["4102", "4104", "4106"] and "4105" in COMPLETE  # a rating of 0 is an answer

TASKS_TXT = """[medium] renew the car insurance
[high] pay the electricity bill
[low] sort the photo albums
[high] reply to the landlord
[medium] book a dentist appointment
[low] clear out the garage
[high] send the signed contract
[medium] return the library books
"""
_RANK = {"high": 0, "medium": 1, "low": 2}
BY_PRIORITY = sorted(TASKS_TXT.splitlines(), key=lambda line: _RANK[line[1:line.index("]")]])
assert sorted(TASKS_TXT.splitlines()) != BY_PRIORITY and BY_PRIORITY[0] == "[high] pay the electricity bill"

# Chinese
FRIDAY_13_YEAR = 2029
FRIDAY_13_MONTHS = [month for month in range(1, 13) if dt.date(FRIDAY_13_YEAR, month, 13).weekday() == 4]
assert FRIDAY_13_MONTHS == [4, 7]

FOODS = {"牛奶": "2027-02-27", "面包": "2027-03-03", "鸡蛋": "2027-03-10", "酱油": "2028-06-30",
         "饼干": "2026-12-05", "橙汁": "2027-03-02", "午餐肉罐头": "2027-11-20", "奶酪": "2027-02-14"}
FOODS_JSON = json.dumps([{"名称": name, "保质期至": day} for name, day in FOODS.items()], ensure_ascii=False,
                        indent=2) + "\n"
CHECK_DAY = dt.date(2027, 3, 1)
EXPIRED = [item["名称"] for item in json.loads(FOODS_JSON) if dt.date.fromisoformat(item["保质期至"]) < CHECK_DAY]
FRESH = [name for name in FOODS if name not in EXPIRED]
assert EXPIRED == ["牛奶", "饼干", "奶酪"] and CHECK_DAY.isoformat() not in FOODS.values()
assert not any(a != b and a in b for a in FOODS for b in FOODS)  # no name inside another

SHIRT_PAID, SHIRT_RATE = 261, Decimal("0.75")  # 七五折
SHIRT_PRICE = SHIRT_PAID / SHIRT_RATE
assert SHIRT_PRICE == 348 and SHIRT_PAID * (2 - SHIRT_RATE) != SHIRT_PRICE

FRESH_20: list[Task] = [
    # answers computed from files
    Task("f20-gpa", "transcript.csv lists my courses this year, each with its credits and the grade points I got. "
         "What is my GPA, with each course weighted by its credits? Two decimal places is fine.",
         says_about(float(GPA), 0.005), files={"transcript.csv": TRANSCRIPT_CSV}),
    Task("f20-free-slot", f"agenda.txt has my meetings for Wednesday, and some of them overlap. Between {DAY_START} "
         f"and {DAY_END}, what is the longest stretch with no meeting at all, and at what time does it start?",
         both(SAYS_FREE_FROM, says_hours_minutes(FREE_MINUTES)), files={"agenda.txt": AGENDA_TXT}),
    Task("f20-isbn", "isbns.txt is the list of ISBN-13s from our library's new-arrivals sheet, and a few were typed "
         "in wrong. Which of them have a check digit that doesn't add up?",
         says_codes(BAD_ISBNS, GOOD_ISBNS, 0), files={"isbns.txt": ISBNS_TXT}),
    Task("f20-tariff", f"tariff.json is my electricity tariff: each band's price applies to the kWh that fall inside "
         f"that band, and there's a standing charge for every day. In October I used {USED_KWH} kWh. What is my bill "
         f"for the {BILL_DAYS} days of October, standing charge included?",
         says_about(float(BILL), 0.005), files={"tariff.json": TARIFF_JSON}),
    Task("f20-birthday", f"Going by birthdays.json, whose birthday is the next one after {ASKED.day} "
         f"{ASKED:%B %Y}, and on which day of the week will it fall?",
         both(says_text(NEXT_NAME), says_weekday_among(NEXT_DAY, ASKED)), files={"birthdays.json": BIRTHDAYS_JSON}),
    Task("f20-swing", "On which day in weather.csv was the difference between the day's high and low temperature "
         "the biggest, and how many degrees was it?", both(says_day_short(SWING_DAY), says_about(float(SWING), 0.001)),
         files={"weather.csv": WEATHER_CSV}),
    Task("f20-survey", "Some people skipped questions in survey.csv. Which respondents (give me their ids) left at "
         "least one field empty?", says_codes(INCOMPLETE, COMPLETE, 0), files={"survey.csv": SURVEY_CSV}),
    # files written from the workspace
    Task("f20-word-counts", "Count the words in each .txt file in the essays folder and write the counts to "
         "counts.csv with the header file,words: one row per file, its name and its word count, in alphabetical "
         "order of file name.", both(word_table("counts.csv", WORD_COUNTS), untouched({**ESSAYS, **ESSAYS_OUTSIDE})),
         files={**ESSAYS, **ESSAYS_OUTSIDE}),
    Task("f20-q1", "Combine the three monthly files in the sales folder into one file, q1.csv, at the top of the "
         "workspace: the header row once, then January's rows, then February's, then March's. Leave the monthly "
         "files as they are.", both(csv_rows_in_order("q1.csv", SALES_HEADER, Q1_ROWS), untouched(SALES_FILES)),
         files=SALES_FILES),
    # file edits
    Task("f20-tabs", "script.py is indented with tabs. Replace every tab with four spaces so it is indented with "
         "spaces only, and change nothing else.", lines_now("script.py", SCRIPT_SPACES),
         files={"script.py": SCRIPT_PY}),
    Task("f20-hosts", f"Our NAS has a new address: in the hosts file, point nas.home to {NAS_IP}. Keep its alias, "
         "and leave every other line as it is.", file_is_lines("hosts", HOSTS_AFTER, spaces=False),
         files={"hosts": HOSTS_TXT}),
    Task("f20-priority", "Reorder tasks.txt by priority: all the [high] tasks first, then [medium], then [low]. Within "
         "each priority keep the tasks in the order they are in now. Save the result back into tasks.txt.",
         file_is_exactly("tasks.txt", BY_PRIORITY), files={"tasks.txt": TASKS_TXT}),
    # content generated and written
    Task("f20-leap", f"Write every leap year from {LEAP_FROM} to {LEAP_TO} into leap_years.txt, one year per line, "
         "in order.", file_is_exactly("leap_years.txt", LEAP_YEARS)),
    Task("f20-bins", f"Our recycling bin is emptied every other Tuesday, starting on Tuesday {FIRST_BIN_DAY.day} "
         f"{FIRST_BIN_DAY:%B %Y}. Write every collection day from then until the end of March {LAST_BIN_DAY.year} "
         "into bins.txt, one date per line, as YYYY-MM-DD.", file_is_exactly("bins.txt", BIN_DAYS)),
    # dates from given dates
    Task("f20-parcel", f"I posted a parcel on Thursday {POSTED.day} {POSTED:%B %Y}. Delivery takes {WORKING_DAYS} "
         "working days (Monday to Friday, and there are no public holidays in between), not counting the day I "
         "posted it. On what date should it arrive?",
         SAYS_ARRIVES),
    # units, percentages and counting
    Task("f20-stone", f"I weigh {STONE} stone {POUNDS} pounds. What is that in kilograms, to one decimal place?",
         says_about(WEIGHT_KG, 0.06)),
    Task("f20-turnout", f"Turnout at our town's elections went from {TURNOUT_BEFORE}% last time to {TURNOUT_AFTER}% "
         "this time. By how many percentage points did it go up, and by what percentage did it rise? One decimal place "
         "is enough.",
         both(says_number(TURNOUT_POINTS), says_about(TURNOUT_RISE, 0.05))),
    Task("f20-committee", f"Our club has {CLUB} members and we need to pick a committee of {SEATS}. Only who is on it "
         "matters, not in what order they are picked. How many different committees could we end up with?",
         says_number(COMMITTEES)),
    Task("f20-rolls", "A baker fills fourteen trays with thirty-six rolls each. By closing time she has sold all but "
         "fifty-eight of them. How many rolls did she sell?", says_number(ROLLS_SOLD)),
    # knowledge
    Task("f20-space", "Who was the first person to travel into space, and in what year?",
         both(says_text("Gagarin"), says_number(1961))),
    # Chinese, with --lang zh
    Task("f20-zh-qin", "中国历史上第一个统一全国的封建王朝是哪个朝代？", says_text("秦"), lang="zh"),
    Task("f20-zh-friday", f"{FRIDAY_13_YEAR}年里，有哪些月份的13号正好是星期五？",
         zh_months_named(FRIDAY_13_MONTHS), lang="zh"),
    Task("f20-zh-expired", f"食品.json 是我家冰箱和橱柜里的食品清单。以{CHECK_DAY.year}年{CHECK_DAY.month}月"
         f"{CHECK_DAY.day}日为准，哪些东西已经过了保质期？", both(says_text(*EXPIRED), names_few_of(FRESH, 0)),
         files={"食品.json": FOODS_JSON}, lang="zh"),
    Task("f20-zh-shirt", f"一件衬衫打七五折以后卖{SHIRT_PAID}元，它原价是多少钱？", says_number(float(SHIRT_PRICE)),
         lang="zh"),
]

assert len(FRESH_20) == 24 and sum(task.lang == "zh" for task in FRESH_20) == 4
assert len({task.name for task in FRESH_20}) == len(FRESH_20)
