# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh14` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-03 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh14 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date is computed from the given ones with
datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content looks
at its properties (how many lines or words, its heading, which words it holds), not its wording.
"""

from __future__ import annotations

import calendar
import csv
import datetime as dt
import io
import json
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from tasks import Check, Task, both, deleted, moved, says_number, says_text
from tasks_fresh import _lines, _read, file_json, says_about, says_any, says_count, says_day
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_regex
from tasks_fresh8 import words_between
from tasks_fresh9 import csv_rows_in_order
from tasks_fresh13 import names_weekday, poem_lines


def untouched(files: dict[str, str]) -> Check:
    """Every file in `files` is still there and holds its content as it was."""

    def check(answer: str, workspace: Path) -> str | None:
        for path, content in files.items():
            if _read(workspace, path) != content:
                return f"{path} is gone or changed"
        return None

    return check


def checklist(path: str, words: tuple[str, ...], at_least: int) -> Check:
    """`path` starts with a Markdown heading naming one of `words` (case aside), and holds at least `at_least`
    unticked checkbox items ("- [ ] ...")."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if not lines or not re.match(r"#{1,6}\s+\S", lines[0]):
            return f"{path} does not start with a heading: {content[:60]!r}"
        if not any(word in lines[0].lower() for word in words):
            return f"the heading of {path} names none of {words}: {lines[0]!r}"
        items = [line for line in lines[1:] if re.fullmatch(r"[-*]\s+\[ \]\s+\S.*", line)]
        return None if len(items) >= at_least else f"{path} has {len(items)} unticked items, not {at_least} or more"

    return check


def away_note(path: str, fewest: int, most: int, email: str, day: dt.date) -> Check:
    """`path` holds from `fewest` to `most` words, gives the address `email` and names the date `day` (its year
    written or not)."""
    words, names_day = words_between(path, fewest, most, re.escape(email)), says_day_of_month(day)

    def check(answer: str, workspace: Path) -> str | None:
        problem = words(answer, workspace)
        if problem is not None:
            return problem
        content = _read(workspace, path) or ""
        return None if names_day(content, workspace) is None else f"{path} does not name {day.isoformat()}"

    return check


def _cents(value: Decimal) -> Decimal:
    """`value` rounded to the cent, halves up."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# the workspaces
# tiles: the floor's area over one tile's, 10% more, in whole boxes (laying whole rows gives the same box count)
ROOM_L, ROOM_W, TILE_CM, PER_BOX, SPARE = 3.6, 2.75, 30, 12, 0.10
_TILES_BY_AREA = round(ROOM_L * ROOM_W / (TILE_CM / 100) ** 2 * (1 + SPARE), 6)
_TILES_BY_ROWS = math.ceil(ROOM_L / (TILE_CM / 100) - 1e-9) * math.ceil(ROOM_W / (TILE_CM / 100) - 1e-9) * (1 + SPARE)
BOXES = math.ceil(_TILES_BY_AREA / PER_BOX)
assert math.ceil(round(_TILES_BY_ROWS, 6) / PER_BOX) == BOXES

BAG_LB, BAG_OZ, BAG_LIMIT = 48, 6, 23
BAG_KG = (BAG_LB + BAG_OZ / 16) * 0.45359237
BAG_ROOM = BAG_LIMIT - BAG_KG

EIGHTHS = 3 * 2400 / 8 + 75

PRICING = {"currency": "EUR", "annual_discount_percent": 15,
           "note": "the annual discount applies to plans billed yearly",
           "plans": [{"name": "Starter", "per_seat_per_month": 8, "min_seats": 1},
                     {"name": "Team", "per_seat_per_month": 14.5, "min_seats": 3},
                     {"name": "Business", "per_seat_per_month": 24, "min_seats": 10}]}
PRICING_JSON = json.dumps(PRICING, indent=2) + "\n"
SEATS = 7
_PRICING = json.loads(PRICING_JSON)
_TEAM = next(plan for plan in _PRICING["plans"] if plan["name"] == "Team")
TEAM_YEAR = round(_TEAM["per_seat_per_month"] * SEATS * 12 * (1 - _PRICING["annual_discount_percent"] / 100), 2)

RUNNERS = [("Lena Fischer", 412, "0:52:18"), ("Marcus Obi", 87, "0:46:40"), ("Yuki Sato", 233, "0:49:59"),
           ("Rafael Mendes", 15, "0:55:02"), ("Agnes Kowalski", 301, "0:44:21"), ("Tariq Haddad", 129, "1:01:37"),
           ("Nell Robertson", 64, "0:50:00"), ("Jonas Berg", 178, "0:47:53"), ("Amara Nwosu", 355, "0:43:08"),
           ("Pietro Gallo", 290, "0:58:44"), ("Ruth Adler", 42, "0:49:12")]
RESULTS_CSV = "name,bib,finish_time\n" + "".join(f"{name},{bib},{time}\n" for name, bib, time in RUNNERS)


def _seconds(clock: str) -> int:
    hours, minutes, seconds = (int(part) for part in clock.split(":"))
    return hours * 3600 + minutes * 60 + seconds


_FINISHES = {row["name"]: _seconds(row["finish_time"]) for row in csv.DictReader(io.StringIO(RESULTS_CSV))}
UNDER_50 = sum(seconds < 50 * 60 for seconds in _FINISHES.values())
FASTEST = min(_FINISHES, key=_FINISHES.__getitem__)
assert sorted(_FINISHES.values())[1] > _FINISHES[FASTEST]  # one runner alone is fastest

PLEDGES_TXT = ("Pledges for the school library fund\n\n"
               "Maria Lopez pledged $120\nTom Reed pledged $75.50\nThe Hartley family pledged $1,000\n"
               "Anonymous pledged $40\nDev Patel pledged $250\nSunita Rao pledged $62.25\nBen Carter pledged $15\n"
               "Grace Kim pledged $300\n")
_PLEDGED = [float(amount.replace(",", "")) for amount in re.findall(r"\$([\d,]+(?:\.\d+)?)", PLEDGES_TXT)]
PLEDGE_COUNT, PLEDGE_TOTAL = len(_PLEDGED), round(sum(_PLEDGED), 2)

BOUGHT, WARRANTY_MONTHS = dt.date(2025, 8, 23), 18
_MONTH = BOUGHT.month - 1 + WARRANTY_MONTHS
WARRANTY_END = BOUGHT.replace(year=BOUGHT.year + _MONTH // 12, month=_MONTH % 12 + 1)
WARRANTY_LAST_DAY = WARRANTY_END - dt.timedelta(days=1)  # "runs until the day before" is as right

FRIDAY_YEAR = 2029
FRIDAY_13 = [day for day in (dt.date(FRIDAY_YEAR, month, 13) for month in range(1, 13)) if day.weekday() == 4]
FRIDAY_MONTHS = [calendar.month_name[day.month] for day in FRIDAY_13]

CAFE = [("Espresso", "2.40"), ("Flat white", "3.35"), ("Croissant", "2.95"), ("Banana bread", "3.80"),
        ("Iced latte", "4.15"), ("Bagel with cream cheese", "4.60")]
CAFE_CSV = "item,price\n" + "".join(f"{item},{price}\n" for item, price in CAFE)
RAISE = Decimal("1.08")
assert all((Decimal(price) * RAISE * 1000) % 10 != 5 for _, price in CAFE)  # no half cent: one right rounding
RAISED = [[row["item"], str(_cents(Decimal(row["price"]) * RAISE))] for row in csv.DictReader(io.StringIO(CAFE_CSV))]

BIRTHDAYS = [{"name": "Ines", "birthday": "1988-03-02"}, {"name": "Kofi", "birthday": "1995-11-21"},
             {"name": "Mila", "birthday": "2001-06-09"}]
BIRTHDAYS_JSON = json.dumps(BIRTHDAYS, indent=2) + "\n"
TOMASZ = dt.date(1992, 7, 19)
BIRTHDAYS_AFTER = [*json.loads(BIRTHDAYS_JSON), {"name": "Tomasz", "birthday": TOMASZ.isoformat()}]

RENEWALS = ["car insurance: 14 March 2027", "passport: 2 November 2028", "domain name: 30 January 2027",
            "gym membership: 1 June 2027", "TV licence: 9 February 2027", "driving licence: 17 August 2031",
            "home insurance: 22 December 2026"]
RENEWALS_SORTED = sorted(RENEWALS, key=lambda line: dt.datetime.strptime(line.split(": ")[1], "%d %B %Y"))
assert RENEWALS_SORTED not in (RENEWALS, sorted(RENEWALS), sorted(RENEWALS, key=str.lower))

TODO = ["# This week", "- [x] renew the parking permit", "- [ ] call the plumber about the boiler",
        "- [x] return the library books", "- [ ] order a birthday present for Jo", "- [ ] back up the laptop",
        "- [x] pay the window cleaner", "- [ ] book the car's MOT"]
TODO_MD = TODO[0] + "\n\n" + "".join(f"{line}\n" for line in TODO[1:])
TODO_AFTER = [TODO[0], *(line for line in TODO[1:] if line.startswith("- [ ]")),
              *(line for line in TODO[1:] if line.startswith("- [x]"))]

UPLOADS = {"uploads/Quarterly Report Final.md": "# Q3 report\nRevenue up 4%.\n",
           "uploads/guest list.csv": "name,diet\nAda,vegan\nBo,none\n",
           "uploads/Team photo caption.txt": "Left to right: Ana, Bo, Cy\n"}
UPLOADS_KEPT = {"uploads/logo_v2.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
                "uploads/readme.txt": "Files for the newsletter.\n"}

DOWNLOADS_SAME = {"downloads/invoice-884 (1).txt": "Invoice 884\nTotal: 212.00\n",
                  "downloads/route (1).csv": "stop,time\nA,08:00\nB,08:20\n"}
DOWNLOADS_KEPT = {"downloads/invoice-884.txt": "Invoice 884\nTotal: 212.00\n",
                  "downloads/route.csv": "stop,time\nA,08:00\nB,08:20\n",
                  "downloads/menu.md": "# Lunch menu\n- soup\n- salad\n",
                  "downloads/menu (1).md": "# Lunch menu\n- soup\n- salad\n- pie\n",
                  "downloads/readme.txt": "hello\n"}

BACK_ON = dt.date(2027, 1, 5)
assert BACK_ON.strftime("%A") == "Tuesday"
COVER_EMAIL = "sam.ortiz@northwind.example"

BACKUP_YAML = ("# nightly snapshot settings\ntarget: s3://backups/app\nschedule:\n  every_hours: 6\n"
               "retention:\n  keep_last: 28\ncompression: zstd\n")
_EVERY = int(re.search(r"every_hours:\s*(\d+)", BACKUP_YAML).group(1))  # type: ignore[union-attr]
_KEEP = int(re.search(r"keep_last:\s*(\d+)", BACKUP_YAML).group(1))  # type: ignore[union-attr]
HISTORY_DAYS = _EVERY * _KEEP // 24
assert _EVERY * _KEEP % 24 == 0

CLUB_FIRST, CLUB_MEETING = dt.date(2027, 1, 7), 10
CLUB_DAY = CLUB_FIRST + dt.timedelta(weeks=2 * (CLUB_MEETING - 1))

CLIENTS_ZH = ["王芳 13912345678 北京", "李强 15887654321 上海", "赵敏 18600112233 广州", "陈磊 13755558888 深圳"]
CLIENTS_ZH_TXT = "".join(f"{line}\n" for line in CLIENTS_ZH)
CLIENTS_MASKED = [re.sub(r"(?<!\d)(\d{3})\d{4}(\d{4})(?!\d)", r"\1****\2", line) for line in CLIENTS_ZH]

DEPOSIT, RATE, YEARS = 50000, 0.026, 3
DEPOSIT_BACK = round(DEPOSIT * (1 + RATE * YEARS), 2)

FRESH_14: list[Task] = [
    # one step
    Task("f14-femur", "Which bone is the longest in the human body?", says_any("femur", "thigh bone", "thighbone")),
    Task("f14-titanic", "In what year did the Titanic sink?", says_number(1912)),
    Task("f14-eighths", "What is three eighths of two thousand four hundred, plus seventy-five?",
         says_number(EIGHTHS)),
    Task("f14-backups", "Going by backup.yaml, how many days of backup history do we actually keep?",
         says_count(HISTORY_DAYS), files={"backup.yaml": BACKUP_YAML}),
    Task("f14-friday13", f"How many Friday the 13ths are there in {FRIDAY_YEAR}, and in which months do they fall?",
         both(says_count(len(FRIDAY_13)), says_text(*FRIDAY_MONTHS))),
    Task("f14-warranty", f"I bought a dishwasher on {BOUGHT.day} {BOUGHT:%B %Y} and it came with a "
         f"{WARRANTY_MONTHS}-month warranty. On what date does the warranty run out?",
         either(says_day(WARRANTY_END), says_day(WARRANTY_LAST_DAY))),
    Task("f14-limerick", "Write a limerick about a cat called Biscuit who steals socks, and save it in limerick.txt.",
         poem_lines("limerick.txt", 5, "Biscuit")),
    # two or three steps
    Task("f14-tiles", f"I'm tiling a kitchen floor that measures {ROOM_L} m by {ROOM_W} m with square tiles "
         f"{TILE_CM} cm on a side. They come in boxes of {PER_BOX}, and I want {SPARE:.0%} extra for cutting and "
         "breakage. How many boxes should I buy?", says_number(BOXES)),
    Task("f14-suitcase", f"My airline's checked-bag limit is {BAG_LIMIT} kg, and my bathroom scale says my suitcase "
         f"weighs {BAG_LB} lb {BAG_OZ} oz. What is that in kilograms, and how much more could I pack before I hit "
         "the limit?", both(says_about(BAG_KG, 0.06), says_about(BAG_ROOM, 0.06))),
    Task("f14-pricing", f"There are {SEATS} of us and we want the Team plan, paid yearly. Going by pricing.json, "
         "what will it cost us for the year?", says_about(TEAM_YEAR, 0.01), files={"pricing.json": PRICING_JSON}),
    Task("f14-10k", "How many runners in results.csv finished the 10K in under 50 minutes, and who was the fastest?",
         both(says_count(UNDER_50), says_text(FASTEST)), files={"results.csv": RESULTS_CSV}),
    Task("f14-pledges", "How many pledges are listed in pledges.txt, and what do they add up to?",
         both(says_count(PLEDGE_COUNT), says_about(PLEDGE_TOTAL, 0.005)), files={"pledges.txt": PLEDGES_TXT}),
    Task("f14-prices", "Put every price in prices.csv up by 8%, rounded to the nearest cent. Keep the same columns "
         "and the same order of items.", csv_rows_in_order("prices.csv", ["item", "price"], RAISED),
         files={"prices.csv": CAFE_CSV}),
    Task("f14-birthdays", f"Add my friend Tomasz to birthdays.json: he was born on {TOMASZ.day} {TOMASZ:%B %Y}. Use "
         "the same format as the entries already there and put him at the end.",
         file_json("birthdays.json", BIRTHDAYS_AFTER), files={"birthdays.json": BIRTHDAYS_JSON}),
    Task("f14-renewals", "Reorder renewals.txt so the renewals come in date order, soonest first. Don't change the "
         "lines themselves.", file_is_exactly("renewals.txt", RENEWALS_SORTED),
         files={"renewals.txt": "".join(f"{line}\n" for line in RENEWALS)}),
    Task("f14-todo", "Reorder todo.md so the items I haven't done yet come before the ones I've ticked off. Keep the "
         "heading at the top, and keep the items in their current order within each group.",
         file_is_exactly("todo.md", TODO_AFTER), files={"todo.md": TODO_MD}),
    Task("f14-spaces", "In the uploads folder, replace every space in a file name with an underscore. Files whose "
         "names have no spaces stay as they are.",
         both(*(moved(path, path.replace(" ", "_"), text) for path, text in UPLOADS.items()), untouched(UPLOADS_KEPT)),
         files={**UPLOADS, **UPLOADS_KEPT}),
    Task("f14-dupes", "My downloads folder has a few files I downloaded twice: the second copy has ' (1)' at the end "
         "of its name. Delete each '(1)' copy that is exactly the same as its original. If a '(1)' file differs "
         "from its original, keep both.",
         both(*(deleted(path) for path in DOWNLOADS_SAME), untouched(DOWNLOADS_KEPT)),
         files={**DOWNLOADS_SAME, **DOWNLOADS_KEPT}),
    Task("f14-tyre", "Write a checklist for fixing a flat bike tyre into tyre.md: a Markdown heading on the first "
         "line with the word tyre in it, then at least five steps as unticked Markdown checkboxes (- [ ] ...).",
         checklist("tyre.md", ("tyre", "tire"), 5)),
    Task("f14-away", f"Draft my out-of-office auto-reply and save it as away.txt. I'm back in the office on "
         f"{BACK_ON:%A} {BACK_ON.day} {BACK_ON:%B %Y}; anything urgent should go to Sam Ortiz at {COVER_EMAIL}. "
         "Keep it under 80 words.", away_note("away.txt", 15, 79, COVER_EMAIL, BACK_ON)),
    # Chinese, with --lang zh
    Task("f14-zh-saturn", "太阳系里哪颗行星的光环最明显、最有名？", says_any("土星", "saturn"), lang="zh"),
    Task("f14-zh-book-club", f"我们的读书会每两周聚一次，第一次是{CLUB_FIRST.year}年{CLUB_FIRST.month}月"
         f"{CLUB_FIRST.day}日。第{CLUB_MEETING}次聚会是哪一天？星期几？",
         both(says_day(CLUB_DAY), names_weekday(CLUB_DAY)), lang="zh"),
    Task("f14-zh-phones", "为了保护隐私，把 客户.txt 里每个手机号的中间四位换成****（例如 13800001111 写成 "
         "138****1111），其他内容一律不变。", file_is_exactly("客户.txt", CLIENTS_MASKED),
         files={"客户.txt": CLIENTS_ZH_TXT}, lang="zh"),
    Task("f14-zh-deposit", f"我在银行存了{DEPOSIT // 10000}万元三年定期，年利率{RATE:.1%}，按单利算，"
         "到期连本带息一共能取出多少钱？",
         either(says_number(DEPOSIT_BACK), says_regex(rf"{DEPOSIT_BACK / 10000:g}\s*万", f"{DEPOSIT_BACK:g}")),
         lang="zh"),
]

assert len(FRESH_14) == 24 and sum(task.lang == "zh" for task in FRESH_14) == 4
assert len({task.name for task in FRESH_14}) == len(FRESH_14)
