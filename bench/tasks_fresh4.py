# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh4` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh4 --configs json`. No task needs the network. Every expected date is
computed from the given dates with datetime, never from today; a check of a file edit reads the file, not the answer;
a check of made-up content looks at its properties (its header, its row count, its fields), not its wording.
"""

from __future__ import annotations

import calendar
import csv
import datetime as dt
import io
import re
from collections import Counter
from pathlib import Path

from tasks import Check, Task, both, copied, deleted, file_holds, moved, numbers_in, says_number, says_text
from tasks_fresh import _lines, _read, file_is_lines, kept, says_about, says_count, says_day


def file_is_exactly(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, case included (blank lines and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        return None if _lines(content) == [line.strip() for line in expected] else f"{path} holds {content[:80]!r}"

    return check


def says_numbers(*values: float) -> Check:
    """The answer states every one of `values`."""

    def check(answer: str, workspace: Path) -> str | None:
        said = numbers_in(answer)
        missing = [value for value in values if not any(abs(number - value) < 1e-6 for number in said)]
        return f"answer does not state {', '.join(f'{v:g}' for v in missing)}" if missing else None

    return check


def says_regex(pattern: str, shown: str) -> Check:
    """The answer matches `pattern` (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer, re.IGNORECASE) else f"answer does not say {shown}"

    return check


def either(*checks: Check) -> Check:
    """At least one check passes."""

    def check(answer: str, workspace: Path) -> str | None:
        problems = [one(answer, workspace) for one in checks]
        return None if any(problem is None for problem in problems) else problems[0]

    return check


def says_day_of_month(day: dt.date) -> Check:
    """The answer gives `day`, with its year or without it ("October 30", "30th October", "10月30日")."""
    month = day.strftime("%B").lower()
    number = rf"(?<!\d){day.day}(?:st|nd|rd|th)?(?!\d)"
    without_year = rf"{month}\W*{number}|{number}\W*(?:of\W+)?{month}|(?<!\d){day.month}月{day.day}[日号]"
    return either(says_day(day), says_regex(without_year, day.isoformat()))


def csv_table(path: str, header: list[str], rows: int, at: str) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and `rows` data rows of as many fields,
    the field `at` of each holding an @."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        rows_read = csv.reader(io.StringIO(content))
        table = [[field.strip() for field in row] for row in rows_read if any(field.strip() for field in row)]
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != rows or any(len(row) != len(header) or not all(row) for row in body):
            return f"{path} does not hold {rows} full rows: {content[:80]!r}"
        if not all("@" in row[header.index(at)] for row in body):
            return f"{path} has a row without an address in {at}"
        return None

    return check


def last_weekday(year: int, month: int, weekday: int) -> dt.date:
    """The last `weekday` (0 = Monday) of the month."""
    day = dt.date(year, month, calendar.monthrange(year, month)[1])
    return day - dt.timedelta(days=(day.weekday() - weekday) % 7)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The `n`th `weekday` (0 = Monday) of the month."""
    first = dt.date(year, month, 1)
    return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def working_days(year: int, month: int) -> int:
    """How many Mondays to Fridays the month has."""
    return sum(dt.date(year, month, d).weekday() < 5 for d in range(1, calendar.monthrange(year, month)[1] + 1))


# the workspaces
CRONTAB = ("# m h dom mon dow  command\n*/15 * * * * /usr/local/bin/sync-mail\n30 2 * * * /usr/local/bin/backup.sh "
           "--full\n0 9 * * 1 /usr/local/bin/weekly-report\n45 23 * * 5 /usr/local/bin/rotate-logs\n")
PYPROJECT = ('[project]\nname = "inventory-cli"\nversion = "0.3.0"\nrequires-python = ">=3.10"\ndependencies = [\n'
             '    "requests>=2.31,<3",\n    "click==8.1.7",\n    "rich~=13.7",\n]\n\n[tool.ruff]\nline-length = 100\n')
IPS = ["198.51.100.23", "203.0.113.9", "192.0.2.140", "198.51.100.77"]
PAGES = ["/", "/login", "/cart", "/api/items", "/search?q=lamp", "/static/app.css"]
ACCESS_ORDER = [0, 1, 1, 2, 1, 2, 0, 1, 3, 1, 2, 1]
ACCESS_LOG = "".join(
    f'{IPS[who]} - - [01/Dec/2026:10:{10 + 3 * n:02d}:{17 + n:02d} +0000] "GET {PAGES[n % len(PAGES)]} HTTP/1.1" '
    f"{200 if n % 3 else 304} {812 + 97 * n}\n" for n, who in enumerate(ACCESS_ORDER))
TOP_IP = Counter(IPS[who] for who in ACCESS_ORDER).most_common(1)[0]
MOVING = ("# Moving checklist\n\n## Before\n- [x] book the van\n- [x] order boxes\n- [ ] cancel the gym membership\n"
          "- [x] tell the landlord\n\n## On the day\n- [ ] read the electricity meter\n- [ ] hand back the keys\n"
          "- [x] pack the kitchen last\n\n## After\n- [ ] update address at the bank\n- [ ] register with a doctor\n")
GRADES = [("Maya", "A", 84), ("Tom", "B", 72), ("Lena", "A", 91), ("Omar", "B", 88), ("Iris", "B", 95),
          ("Paul", "A", 67), ("Zoe", "B", 64), ("Ken", "A", 78)]
GRADES_CSV = "student,class,score\n" + "".join(f"{name},{group},{score}\n" for name, group, score in GRADES)
CLASS_B = [score for _, group, score in GRADES if group == "B"]
ESSAY = ("Cities change slowly and then all at once. A bakery closes, a bike lane appears, and the old cinema becomes "
         "a gym. People who grew up there notice every small shift, while visitors only see a busy street. "
         "Writing about a city means choosing which of these layers to keep, and which ones to quietly let go.\n")
SHOUT = "please reply by friday\nthe meeting moved to room b\nbring your laptop\n"
PLAYLIST = ["Blue Monday", "Dancing Queen", "Hey Jude", "Wonderwall", "Africa", "Take On Me"]
CONTACTS = ["Ravi Shah <ravi.shah@gmail.com>", "Ella Brown <ella@outlook.com>", "Jon Park <jpark@gmail.com>",
            "Mia Lopez <mia.lopez@company.io>", "Sam Reed <samreed88@gmail.com>", "Ida Berg <ida@yahoo.com>"]
EMPTY = ["draft.md", "notes/untitled.txt", "logs/old.log"]
FULL = {"todo.txt": "renew passport\n", "notes/ideas.txt": "a tiny garden\n", "logs/app.log": "started\n"}
DRAFTS = {"drafts/intro.md": "# intro\n", "drafts/plan.txt": "step one\n", "drafts/budget.csv": "item,cost\n"}
DRAFTS_KEPT = {"final/intro.md": "# final intro\n", "drafts.txt": "list of drafts\n"}
RATES = "USD to EUR: 0.92\nUSD to GBP: 0.79\nUSD to JPY: 151.30\nUSD to CHF: 0.88\n"
SIGNIN = ["王磊", "陈静", "刘洋", "王磊", "赵敏", "陈静", "孙浩", "周婷", "刘洋", "王磊"]
PHOTOS = {"beach.jpg": "beach pixels\n", "cat.jpg": "cat pixels\n", "mountain.jpg": "mountain pixels\n"}
PHOTOS_OTHER = {"logo.png": "logo pixels\n", "notes.txt": "photo ideas\n"}
BACKUP_DIR = "照片备份"

FRESH_4: list[Task] = [
    # values read from files in other formats
    Task("f4-cron", "what time of day does backup.sh run? it's in crontab.txt",
         says_regex(r"(?<!\d)0?2[:.h]30(?!\d)|half past two|two[- ]thirty", "2:30"), files={"crontab.txt": CRONTAB}),
    Task("f4-toml", "Which exact version of click does pyproject.toml pin?", says_text("8.1.7"),
         files={"pyproject.toml": PYPROJECT}),
    Task("f4-access", "Looking at access.log, which IP address sent the most requests, and how many did it send?",
         both(says_text(TOP_IP[0]), says_count(TOP_IP[1])), files={"access.log": ACCESS_LOG}),
    Task("f4-checklist", "How many things on my moving checklist (moving.md) are still not ticked off?",
         says_count(MOVING.count("- [ ]")), files={"moving.md": MOVING}),
    Task("f4-class-avg", "grades.csv has the scores for two classes. What's the average score in class B?",
         says_about(sum(CLASS_B) / len(CLASS_B), 0.051), files={"grades.csv": GRADES_CSV}),
    Task("f4-words", "I need the exact word count of essay.txt, please.", says_number(len(ESSAY.split())),
         files={"essay.txt": ESSAY}),
    # rewriting, filtering and tidying files
    Task("f4-upper", "Change shout.txt so that all of its text is in capital letters.",
         file_is_exactly("shout.txt", SHOUT.upper().splitlines()), files={"shout.txt": SHOUT}),
    Task("f4-reverse", "Take the songs in playlist.txt and write them in the opposite order (last song first) to "
         "reversed.txt. Leave playlist.txt as it is.",
         both(file_is_lines("reversed.txt", PLAYLIST[::-1]), file_is_lines("playlist.txt", PLAYLIST)),
         files={"playlist.txt": "".join(f"{song}\n" for song in PLAYLIST)}),
    Task("f4-gmail", "contacts.txt has one contact per line. Copy only the ones with a gmail.com address into a new "
         "file gmail.txt.", file_is_lines("gmail.txt", [c for c in CONTACTS if "@gmail.com" in c], ordered=False),
         files={"contacts.txt": "".join(f"{contact}\n" for contact in CONTACTS)}),
    Task("f4-empty", "Some files in here are completely empty (0 bytes). Find and delete all of them, but keep every "
         "file that has something in it.", both(*(deleted(path, *FULL) for path in EMPTY)),
         files={**dict.fromkeys(EMPTY, ""), **FULL}),
    Task("f4-prefix", "Rename every file in the drafts folder so its name starts with old_ (for example notes.md "
         "would become old_notes.md). They stay in the drafts folder.",
         both(*(moved(path, path.replace("drafts/", "drafts/old_"), text) for path, text in DRAFTS.items()),
              kept(*DRAFTS_KEPT)), files={**DRAFTS, **DRAFTS_KEPT}),
    # money and percentages
    Task("f4-tip", "dinner came to 84.60, we're adding an 18% tip and splitting the whole bill three ways. how much "
         "does each of us pay?", says_about(84.60 * 1.18 / 3, 0.005)),
    Task("f4-savings", "If I put 5,000 into a savings account paying 4% a year, compounded annually, and don't touch "
         "it, how much will be in the account after 3 years?", says_about(5000 * 1.04 ** 3, 0.01)),
    # conversions
    Task("f4-sqft", "The listing says the flat is 45 m². Roughly how many square feet is that?",
         says_about(45 / 0.3048 ** 2, 1)),
    Task("f4-runtime", "The film runs 137 minutes. How long is that in hours and minutes?", says_numbers(2, 17)),
    # dates from given dates
    Task("f4-workdays", "How many working days (Monday to Friday) are there in June 2026? Ignore public holidays.",
         says_number(working_days(2026, 6))),
    Task("f4-last-friday", "What is the date of the last Friday in October 2026?",
         says_day_of_month(last_weekday(2026, 10, calendar.FRIDAY))),
    # knowledge
    Task("f4-wall", "In what year did the Berlin Wall come down?", says_number(1989)),
    # made-up content written to a file, and a read, a computation and a write
    Task("f4-people", "Make me a CSV file called people.csv with the columns name, email and city, and fill it with "
         "five made-up people.", csv_table("people.csv", ["name", "email", "city"], 5, "email")),
    Task("f4-pounds", "Using the rate in rates.txt, convert 250 US dollars into British pounds and save the amount "
         "in pounds.txt.", file_holds("pounds.txt", 250 * 0.79), files={"rates.txt": RATES}),
    # Chinese, with --lang zh
    Task("f4-zh-signin", "signin.txt 是今天的签到表，每行一个名字，有人重复签了好几次。一共来了多少个不同的人？",
         either(says_number(len(set(SIGNIN))), says_regex("六(?:个|位|名|人)", "6")),
         files={"signin.txt": "".join(f"{name}\n" for name in SIGNIN)}, lang="zh"),
    Task("f4-zh-change", "苹果 12.8 元一斤，我买了 2.5 斤，给了老板 50 元，应该找我多少钱？",
         says_about(50 - 12.8 * 2.5, 0.005), lang="zh"),
    Task("f4-zh-meeting", "公司年会定在2027年1月的第二个星期一，是几月几号？",
         says_day_of_month(nth_weekday(2027, 1, calendar.MONDAY, 2)), lang="zh"),
    Task("f4-zh-photos", f"新建一个叫“{BACKUP_DIR}”的文件夹，把工作区里所有的 .jpg 照片都复制进去，原来的文件不要动。",
         both(*(copied(path, f"{BACKUP_DIR}/{path}", text) for path, text in PHOTOS.items()),
              kept(*PHOTOS_OTHER)), files={**PHOTOS, **PHOTOS_OTHER}, lang="zh"),
]
