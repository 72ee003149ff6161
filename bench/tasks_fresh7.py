# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh7` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh7 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date is computed from the given dates with
datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content looks
at its properties (how many questions, which letters its lines start with), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections import Counter
from pathlib import Path

from tasks import Check, Task, both, deleted, moved, says_number, says_text
from tasks_fresh import _lines, _read, file_is_lines, kept, says_about, says_count, says_weekday_of
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_numbers


def markdown_table(path: str, rows: list[list[str]]) -> Check:
    """`path` holds a Markdown table whose rows (the header first, the |---| rule aside) are `rows`, cells compared
    without case or surrounding blanks; a title or a line of text may stand around the table."""
    rule = re.compile(r"^:?-+:?$")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = []
        for line in _lines(content):
            if "|" not in line:
                continue
            cells = [cell.strip().lower() for cell in line.strip().strip("|").split("|")]
            if not all(rule.match(cell.replace(" ", "")) for cell in cells):
                table.append(cells)
        want = [[cell.lower() for cell in row] for row in rows]
        return None if table == want else f"{path} does not hold the table: {content[:80]!r}"

    return check


def csv_rows_are(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and exactly the data rows `rows`, in
    any order (fields compared without surrounding blanks)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [[field.strip() for field in row] for row in csv.reader(io.StringIO(content))
                 if any(field.strip() for field in row)]
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        return None if sorted(table[1:]) == sorted(rows) else f"{path} holds other rows: {content[:80]!r}"

    return check


def questions(path: str, count: int) -> Check:
    """`path` holds exactly `count` lines ending in a question mark, and at most one other line (a title)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        asked = [line for line in lines if line.endswith(("?", "？"))]
        ok = len(asked) == count and len(lines) - len(asked) <= 1
        return None if ok else f"{path} does not hold {count} questions: {content[:80]!r}"

    return check


def acrostic(path: str, word: str) -> Check:
    """The non-blank lines of `path` (a title line aside) start, letter by letter, with `word` (case aside; leading
    numbering, bullets or punctuation skipped)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        initials = "".join(next((char for char in line if char.isalpha()), "").lower() for line in _lines(content))
        ok = word.lower() in (initials, initials[1:])
        return None if ok else f"the lines of {path} start with {initials!r}, not {word}"

    return check


# the workspaces
LOANS = [("Piranesi", "Hannah"), ("The Overstory", "Rafael"), ("Circe", "Ines"), ("Klara and the Sun", "Rafael"),
         ("The Dispossessed", "Tomas"), ("Middlemarch", "Hannah"), ("Station Eleven", "Rafael"),
         ("A Gentleman in Moscow", "Ines"), ("Small Things Like These", "Rafael")]
LOANS_JSON = json.dumps({"branch": "Eastgate", "loans": [
    {"title": title, "member": member, "returned": n % 3 == 0} for n, (title, member) in enumerate(LOANS)]},
    indent=2) + "\n"
TOP_MEMBER, TOP_LOANS = Counter(member for _, member in LOANS).most_common(1)[0]

APP_ENV = ("# app settings\nAPP_NAME=ledger\nSESSION_TTL_SECONDS=8100\nMAX_UPLOAD_MB=25\nLOG_LEVEL=info\n"
           "# SESSION_TTL_SECONDS=3600 (old value)\n")
SESSION_MINUTES = int(re.findall(r"^SESSION_TTL_SECONDS=(\d+)", APP_ENV, re.MULTILINE)[0]) // 60

STEPS = [8421, 10250, 12034, 9876, 10000, 4312, 15820, 11003, 7650, 9999, 13412, 6021, 10876, 8890]
STEPS_CSV = "date,steps\n" + "".join(
    f"{dt.date(2026, 10, 5) + dt.timedelta(days=n)},{count}\n" for n, count in enumerate(STEPS))
_STEP_ROWS = list(csv.DictReader(io.StringIO(STEPS_CSV)))
GOAL_DAYS = sum(int(row["steps"]) >= 10000 for row in _STEP_ROWS)
BEST_DAY = dt.date.fromisoformat(max(_STEP_ROWS, key=lambda row: int(row["steps"]))["date"])

BUILD_LOG = ("[09:14:02] build 2291 started on runner-3\n[09:14:06] step checkout finished in 4.2s\n"
             "[09:15:08] step install-deps finished in 61.8s\n[09:17:32] step compile finished in 143.5s\n"
             "[09:17:33] warning: 2 deprecated APIs in use\n[09:19:10] step test finished in 97.3s\n"
             "[09:19:29] step package finished in 18.6s\n[09:19:39] step upload finished in 9.9s\n"
             "[09:19:39] build 2291 succeeded\n")
BUILD_SECONDS = round(sum(float(s) for s in re.findall(r"finished in ([\d.]+)s", BUILD_LOG)), 1)

HANDBOOK = ("# Employee handbook\n\nWelcome aboard.\n\n## Working hours\n\nCore hours are 10 to 4.\n\n"
            "### Flexible time\n\nTalk to your lead.\n\n## Holidays\n\n### Public holidays\n\n### Booking leave\n\n"
            "Use the HR portal.\n\n## Expenses\n\nKeep every receipt.\n\n## Equipment\n\n### Laptops\n\n"
            "IT hands them out on day one.\n\n## Leaving the company\n\nGive four weeks' notice.\n")
H2_COUNT = sum(1 for line in HANDBOOK.splitlines() if re.match(r"##(?!#)", line))

PRICES_2025 = {"bread": 2.10, "milk": 1.05, "coffee": 7.80, "eggs": 3.20, "butter": 2.50, "rice": 1.90}
PRICES_2026 = {"bread": 2.25, "milk": 1.19, "coffee": 9.10, "eggs": 3.95, "butter": 2.70, "rice": 1.85}
_RISE = {item: (PRICES_2026[item] - old) / old * 100 for item, old in PRICES_2025.items()}
TOP_RISE = max(_RISE, key=_RISE.__getitem__)

SERVICE_ENV = ["PORT=8080", "DEBUG=true", "WORKERS=2", "CACHE_DIR=/tmp/cache"]
SERVICE_ENV_AFTER = ["PORT=8080", "DEBUG=false", "WORKERS=8", "CACHE_DIR=/tmp/cache", "LOG_LEVEL=warning"]

CHORES = ["# Chores", "- [x] take out the bins", "- [ ] vacuum the stairs", "- [ ] clean the oven",
          "- [x] change the bed sheets", "- [ ] descale the kettle"]
CHORES_DONE = [line.replace("[ ]", "[x]") if "stairs" in line or "kettle" in line else line for line in CHORES]

MEETINGS = ["03/02/2027 budget review", "17/02/2027 hiring panel", "01/03/2027 quarterly all-hands",
            "24/03/2027 supplier call", "09/04/2027 offsite planning"]
MEETINGS_ISO = [re.sub(r"(\d\d)/(\d\d)/(\d{4})", r"\3-\2-\1", line) for line in MEETINGS]

TEAM = [["name", "role", "city"], ["Aiko Tanaka", "Designer", "Osaka"], ["Marco Bianchi", "Engineer", "Turin"],
        ["Sofia Lindqvist", "Product lead", "Uppsala"], ["Kwame Mensah", "Support", "Accra"]]
TEAM_CSV = "".join(",".join(row) + "\n" for row in TEAM)

BOOKS = [{"title": "The Left Hand of Darkness", "author": "Ursula K. Le Guin", "year": 1969},
         {"title": "Beloved", "author": "Toni Morrison", "year": 1987},
         {"title": "Never Let Me Go", "author": "Kazuo Ishiguro", "year": 2005},
         {"title": "Kindred", "author": "Octavia E. Butler", "year": 1979}]
BOOKS_JSON = json.dumps({"shelf": "book club", "books": BOOKS}, indent=2) + "\n"

SPAN = (dt.date(2027, 4, 20) - dt.date(2027, 1, 9)).days
DAY_OF_YEAR = dt.date(2027, 8, 19).timetuple().tm_yday
PAINT_LITRES = 2 * (4.2 + 3.6) * 2.5 * 2 / 10
MUFFINS = min(boxes * 12.50 + (20 - 6 * boxes) * 2.40 for boxes in range(20 // 6 + 1))

INBOX = {"inbox/2026/jan/receipt-0112.pdf": "%PDF receipt jan\n",
         "inbox/2026/feb/receipt-0203.pdf": "%PDF receipt feb\n",
         "inbox/misc/warranty-kettle.pdf": "%PDF warranty\n", "inbox/misc/old/lease-scan.png": "png lease\n"}
INBOX_TOP = {"inbox/readme.txt": "scanned paperwork\n"}

PARTS = {"part1.txt": "Chapter Four\nThe ferry left at dawn.\n",
         "part2.txt": "Nobody on deck spoke for an hour.\nThen the fog lifted.\n",
         "part3.txt": "By noon the island was in sight.\n"}
PARTS_OTHER = {"outline.txt": "four: the crossing\n"}

MATH_SCORES = [("陈晨", 88, 72, 90), ("林悦", 76, 58, 81), ("黄磊", 55, 91, 67), ("吴敏", 82, 45, 88),
               ("郑浩", 69, 60, 74), ("何静", 93, 83, 95), ("许诺", 71, 59, 62), ("高远", 64, 66, 58)]
MATH_CSV = "姓名,语文,数学,英语\n" + "".join(f"{name},{a},{b},{c}\n" for name, a, b, c in MATH_SCORES)
MATH_FAILED = [name for name, _, math, _ in MATH_SCORES if math < 60]

PACE_MINUTES = (5 + 30 / 60) * 21.0975
_PACE_H, _PACE_M = divmod(int(PACE_MINUTES), 60)

ZH_NOTES = "会议纪要（草稿）\n本周完成接口设计草稿。\n下周一评审。\n"
MID_AUTUMN = dt.date(2027, 9, 15)

FRESH_7: list[Task] = [
    # values read from files
    Task("f7-loans", "loans.json is our library branch's lending record. Which member has borrowed the most books, "
         "and how many?", both(says_text(TOP_MEMBER), says_count(TOP_LOANS)), files={"loans.json": LOANS_JSON}),
    Task("f7-session", "According to app.env, how long does a login session last before it expires? Give me the "
         "answer in minutes.", says_number(SESSION_MINUTES), files={"app.env": APP_ENV}),
    Task("f7-steps", "steps.csv is the export from my step counter. On how many days did I reach my goal of at least "
         "10,000 steps, and which date was my best day?",
         both(says_count(GOAL_DAYS), says_day_of_month(BEST_DAY)), files={"steps.csv": STEPS_CSV}),
    Task("f7-build", "build.log records how long each step of the CI build took. Adding the steps up, how long did "
         "the whole build take?",
         either(says_about(BUILD_SECONDS, 0.05), says_about(BUILD_SECONDS / 60, 0.01),
                both(says_number(BUILD_SECONDS // 60), says_about(BUILD_SECONDS % 60, 0.5))),
         files={"build.log": BUILD_LOG}),
    Task("f7-headings", "How many second-level sections (## headings) are there in handbook.md? Subsections marked "
         "### don't count.", says_count(H2_COUNT), files={"handbook.md": HANDBOOK}),
    Task("f7-price-rise", "I noted down last year's and this year's supermarket prices in prices-2025.csv and "
         "prices-2026.csv. Which product got more expensive by the biggest percentage, and what was the rise?",
         both(says_text(TOP_RISE.rstrip("s")), says_about(_RISE[TOP_RISE], 0.06)),
         files={"prices-2025.csv": "product,price\n" + "".join(f"{k},{v:.2f}\n" for k, v in PRICES_2025.items()),
                "prices-2026.csv": "product,price\n" + "".join(f"{k},{v:.2f}\n" for k, v in PRICES_2026.items())}),
    # small edits of a file
    Task("f7-env-prod", "Get service.env ready for production: DEBUG has to be false, WORKERS goes up to 8, and add "
         "LOG_LEVEL=warning as a new final line. Everything else stays as it is.",
         file_is_lines("service.env", SERVICE_ENV_AFTER, spaces=False),
         files={"service.env": "".join(f"{line}\n" for line in SERVICE_ENV)}),
    Task("f7-chores", "I've vacuumed the stairs and descaled the kettle, so tick both of those off in chores.md.",
         file_is_lines("chores.md", CHORES_DONE), files={"chores.md": "".join(f"{line}\n" for line in CHORES)}),
    Task("f7-iso-dates", "The dates in meetings.txt are written day/month/year. Rewrite each of them in ISO format "
         "(YYYY-MM-DD) and don't change anything else on the lines.", file_is_exactly("meetings.txt", MEETINGS_ISO),
         files={"meetings.txt": "".join(f"{line}\n" for line in MEETINGS)}),
    # files made from another file
    Task("f7-team-table", "Turn team.csv into a Markdown table and save it as team.md: the column names as the "
         "header row, then one row per person.", markdown_table("team.md", TEAM), files={"team.csv": TEAM_CSV}),
    Task("f7-books-csv", "Make a CSV version of books.json named books.csv, with a header row and the columns title, "
         "author and year in that order, one row per book.",
         csv_rows_are("books.csv", ["title", "author", "year"],
                      [[book["title"], book["author"], str(book["year"])] for book in BOOKS]),
         files={"books.json": BOOKS_JSON}),
    # made-up content
    Task("f7-barista", "Come up with five interview questions for someone applying to work as a barista and write "
         "them into questions.txt, one question per line.", questions("questions.txt", 5)),
    Task("f7-acrostic", "Write a short acrostic poem on the word RAIN and save it as rain.txt: four lines, the first "
         "starting with R, the second with A, then I, then N.", acrostic("rain.txt", "rain")),
    # dates from given dates
    Task("f7-weeks-days", "How long is it from 9 January 2027 to 20 April 2027? Express it in weeks and days.",
         says_numbers(SPAN // 7, SPAN % 7)),
    Task("f7-day-of-year", "If 1 January counts as day 1, which day of the year is 19 August 2027?",
         says_number(DAY_OF_YEAR)),
    # arithmetic in words
    Task("f7-paint", "My bedroom has two walls 4.2 m long and two 3.6 m long, all 2.5 m high. A litre of paint "
         "covers 10 square metres and I want two coats. Ignoring the door and window, how many litres do I need?",
         says_about(PAINT_LITRES, 0.01)),
    Task("f7-muffins", "The bakery sells muffins at 2.40 each, or a box of six for 12.50. What is the least I can "
         "pay for exactly 20 muffins?", says_about(MUFFINS, 0.005)),
    # knowledge
    Task("f7-bones", "How many bones does an adult human skeleton have?", says_number(206)),
    # workspace chores
    Task("f7-flatten", "Everything in the inbox folder is buried in subfolders. Move all those files up so they sit "
         "directly inside inbox/, keeping their names.",
         both(*(moved(path, "inbox/" + path.rsplit("/", 1)[1], text) for path, text in INBOX.items()),
              kept(*INBOX_TOP)), files={**INBOX, **INBOX_TOP}),
    Task("f7-join-parts", "Join part1.txt, part2.txt and part3.txt, in that order, into a single file chapter.txt, "
         "and then delete the three part files.",
         both(file_is_exactly("chapter.txt", "".join(PARTS.values()).splitlines()),
              *(deleted(path, *PARTS_OTHER) for path in PARTS)), files={**PARTS, **PARTS_OTHER}),
    # Chinese, with --lang zh
    Task("f7-zh-math", "scores.csv 是班上的期末成绩。数学不及格（低于60分）的有几个人？分别是谁？",
         both(says_count(len(MATH_FAILED)), says_text(*MATH_FAILED)), files={"scores.csv": MATH_CSV}, lang="zh"),
    Task("f7-zh-pace", "我跑步的配速是每公里5分30秒。照这个速度跑完一个半程马拉松（21.0975公里），大概要多长时间？",
         either(says_numbers(_PACE_H, _PACE_M), says_about(PACE_MINUTES, 0.1), says_about(PACE_MINUTES * 60, 2)),
         lang="zh"),
    Task("f7-zh-notes", "先把 notes.txt 复制一份放到“备份”文件夹里（内容保持原样），"
         "再把 notes.txt 里所有的“草稿”都改成“定稿”。",
         both(file_is_exactly("备份/notes.txt", ZH_NOTES.splitlines()),
              file_is_exactly("notes.txt", ZH_NOTES.replace("草稿", "定稿").splitlines())),
         files={"notes.txt": ZH_NOTES}, lang="zh"),
    Task("f7-zh-mid-autumn", "2027年的中秋节是9月15日，那天是星期几？", says_weekday_of(MID_AUTUMN), lang="zh"),
]
