# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""Two fresh held-out task sets of shapes bench/tasks.py and bench/tasks_heldout.py do not have: text the agent
makes up and writes, knowledge questions, values read from JSON and CSV files, edits of a file, date arithmetic
between given dates, workspace chores, arithmetic in words, unit conversions, and a few tasks in Chinese.

Both were written on 2026-12-02 before any change of the "core that trusts the model" and the coach.

- `fresh1` (24 tasks) is a DEVELOPMENT set: whoever changes the agent may read it and work on its failures.
- `fresh2` (24 tasks) is MEASURED ONLY: whoever changes the agent must not read it (neither its tasks nor its
  failures), and nobody tunes to it. Report it as numbers; when it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh1 --configs json` (or `--suite fresh2`). Every expected date is computed
from the given dates with datetime, never from today; a check of a file edit reads the file, not the answer.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from tasks import Check, Task, _date_forms, both, deleted, moved, numbers_in, says_number, says_text

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_ZH_WEEKDAY = re.compile(r"(?:星期|周|礼拜)([一二三四五六日天])")
_ZH_DAYS = "一二三四五六日"
_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_ZH_NUMBERS = "零一二三四五六七八九十"


def _read(workspace: Path, path: str) -> str | None:
    """The text of a workspace file, or None when there is none."""
    target = workspace / path
    return target.read_text(encoding="utf-8", errors="replace") if target.is_file() else None


def _lines(text: str) -> list[str]:
    """The non-blank lines of `text`, stripped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def says_any(*needles: str) -> Check:
    """The answer mentions at least one needle (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if any(n.lower() in answer.lower() for n in needles) else f"answer mentions none of {needles}"

    return check


def says_pattern(pattern: str, shown: str) -> Check:
    """The answer matches the regular expression `pattern` (case-sensitive: chemical symbols)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer) else f"answer does not say {shown}"

    return check


def says_about(value: float, tolerance: float) -> Check:
    """The answer states a number within `tolerance` of `value` (a rounded conversion)."""

    def check(answer: str, workspace: Path) -> str | None:
        if any(abs(number - value) <= tolerance for number in numbers_in(answer)):
            return None
        return f"answer does not state about {value:g}"

    return check


def says_count(value: int) -> Check:
    """The answer states the small count `value`, in digits or in words ("8", "eight", "八")."""
    digits = says_number(value)

    def check(answer: str, workspace: Path) -> str | None:
        words = re.findall(r"[a-z]+", answer.lower())
        if _WORDS[value] in words or (value <= 10 and _ZH_NUMBERS[value] in answer):
            return None
        return digits(answer, workspace)

    return check


def says_day(day: dt.date) -> Check:
    """The answer gives the date `day` (ISO, "March 6, 2026", "6th March 2026", "2026年3月6日" ...)."""
    month = day.strftime("%B")
    th = "th" if day.day in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    forms = [*_date_forms(day), f"{day.day}{th} {month} {day.year}", f"{month} {day.day}{th}, {day.year}",
             f"{day.day} {month[:3]} {day.year}", f"{day.year}年{day.month:02d}月{day.day:02d}日"]

    def flat(text: str) -> str:
        return " ".join(text.replace(",", " ").split()).lower()

    def check(answer: str, workspace: Path) -> str | None:
        said = flat(answer)  # "6 march 2026" must not be read out of "16 march 2026"
        if any(re.search(r"(?<!\d)" + re.escape(flat(form)), said) for form in forms):
            return None
        return f"answer does not give {day.isoformat()}"

    return check


def says_weekday_of(day: dt.date) -> Check:
    """The answer names the weekday of `day` (in English or Chinese) and no other weekday."""

    def check(answer: str, workspace: Path) -> str | None:
        named = {name for name in _WEEKDAYS if name in answer.lower()}
        named |= {_WEEKDAYS[_ZH_DAYS.index(m if m != "天" else "日")] for m in _ZH_WEEKDAY.findall(answer)}
        right = _WEEKDAYS[day.weekday()]
        return None if named == {right} else f"answer does not name {right} alone"

    return check


def kept(*paths: str) -> Check:
    """Every file in `paths` is still there."""

    def check(answer: str, workspace: Path) -> str | None:
        lost = [path for path in paths if not (workspace / path).is_file()]
        return f"lost {', '.join(lost)}" if lost else None

    return check


def file_lines(path: str, at_least: int, *, mentions: tuple[str, ...] = (), min_chars: int = 1) -> Check:
    """`path` exists with at least `at_least` non-blank lines and `min_chars` characters, mentioning one of
    `mentions` (case-insensitive) when given."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        if len(_lines(content)) < at_least or len(content.strip()) < min_chars:
            return f"{path} has {len(_lines(content))} lines, {len(content.strip())} characters: {content[:60]!r}"
        if mentions and not any(word.lower() in content.lower() for word in mentions):
            return f"{path} mentions none of {mentions}"
        return None

    return check


def file_is_lines(path: str, expected: list[str], *, ordered: bool = True, spaces: bool = True) -> Check:
    """`path` holds exactly the lines `expected` (case, blank lines and surrounding blanks aside; `spaces=False`:
    blanks inside a line aside too; `ordered=False`: in any order)."""

    def norm(line: str) -> str:
        return (line.strip() if spaces else re.sub(r"\s+", "", line)).lower()

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got, want = [norm(line) for line in _lines(content)], [norm(line) for line in expected]
        if (got if ordered else sorted(got)) != (want if ordered else sorted(want)):
            return f"{path} holds {content[:80]!r}"
        return None

    return check


def file_json(path: str, expected: object) -> Check:
    """`path` holds JSON whose value is `expected`."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        return None if value == expected else f"{path} holds {content[:80]!r}"

    return check


def counted_lines(path: str, first: int, last: int) -> Check:
    """`path` holds the numbers `first` to `last`, one a line, in order."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        got = [numbers_in(line) for line in _lines(content)]
        return None if got == [[float(n)] for n in range(first, last + 1)] else f"{path} holds {content[:60]!r}"

    return check


def weekday_lines(path: str) -> Check:
    """`path` names the seven weekdays, each on a line of its own."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        found = [[day for day in _WEEKDAYS if day in line.lower()] for line in _lines(content)]
        days = [names[0] for names in found if len(names) == 1]
        return None if sorted(set(days)) == sorted(_WEEKDAYS) and len(days) == 7 else f"{path} holds {content[:80]!r}"

    return check


def _clauses(text: str) -> int:
    """How many lines or clauses a Chinese text has (split at line ends and at Chinese or Latin punctuation)."""
    return len([part for part in re.split(r"[\n，。！？；,.!?;]", text) if part.strip()])


def zh_poem(path: str, word: str, at_least: int) -> Check:
    """`path` is a Chinese text mentioning `word`, of at least `at_least` lines or clauses."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        ok = word in content and _clauses(content) >= at_least
        return None if ok else f"{path} holds {content[:60]!r}"

    return check


# fresh1's workspaces
AMOUNTS = [24.5, 129.99, 64.0, 38.75]
ORDERS = [{"id": 101 + n, "item": item, "amount": amount}
          for n, (item, amount) in enumerate(zip(["lamp", "desk", "chair", "rug"], AMOUNTS, strict=True))]
CONFIG = {"app": {"name": "ledger", "version": "2.7.1"}, "database": {"engine": "postgres", "version": "14"}}
WEATHER = "date,city,temp_c\n2026-07-01,Madrid,29.5\n2026-07-02,Madrid,31.4\n2026-07-03,Madrid,27.8\n" \
          "2026-07-04,Madrid,30.2\n"
LETTER = "Dear Sam,\nSee you on Monday at the cafe.\nMonday works best for me.\nBest, Alex\n"
SHOPPING = "bread\nbutter\napples\n"
NAMES = "Olivia\nLiam\nEmma\nNoah\nAva\nLucas\n"
D1 = dt.date(2025, 3, 3), dt.date(2025, 6, 18)
D2 = dt.date(2026, 1, 20)
D3 = dt.date(2030, 12, 25)
D4 = dt.date(2025, 10, 1)

FRESH_1: list[Task] = [
    # text it makes up, written to a file
    Task("f1-days-file", "Write the seven days of the week into days.txt, one per line.", weekday_lines("days.txt")),
    Task("f1-tips", "Write three short tips for saving money into tips.txt, one tip per line.",
         file_lines("tips.txt", 3, min_chars=30)),
    Task("f1-email", "Draft a short email to my landlord saying the kitchen tap is leaking, and save it as email.txt.",
         file_lines("email.txt", 1, mentions=("tap", "faucet", "leak"), min_chars=60)),
    # knowledge
    Task("f1-capital", "What is the capital of Canada?", says_text("ottawa")),
    Task("f1-symbol", "What is the chemical symbol for sodium?", says_pattern(r"(?<![A-Za-z])Na(?![a-z])", "Na")),
    Task("f1-leap", "How many days does a leap year have?", says_number(366)),
    # values read from JSON and CSV
    Task("f1-json-total", "What is the total of all the order amounts in orders.json?",
         says_about(sum(AMOUNTS), 0.005),
         files={"orders.json": json.dumps(ORDERS, indent=2) + "\n"}),
    Task("f1-json-field", "Which version of the app is set in config.json?", says_text("2.7.1"),
         files={"config.json": json.dumps(CONFIG, indent=2) + "\n"}),
    Task("f1-csv-max", "What was the highest temperature recorded in weather.csv?", says_number(31.4),
         files={"weather.csv": WEATHER}),
    # edits of a file
    Task("f1-replace", "In letter.txt, replace the word Monday with Tuesday everywhere.",
         file_is_lines("letter.txt", LETTER.replace("Monday", "Tuesday").splitlines()), files={"letter.txt": LETTER}),
    Task("f1-append", "Add eggs as a new last line of shopping.txt.",
         file_is_lines("shopping.txt", [*SHOPPING.splitlines(), "eggs"]), files={"shopping.txt": SHOPPING}),
    Task("f1-sort", "Sort the names in names.txt alphabetically and save the sorted list to sorted.txt.",
         file_is_lines("sorted.txt", sorted(NAMES.split())), files={"names.txt": NAMES}),
    # date arithmetic between given dates
    Task("f1-days-between", "How many days are there from 3 March 2025 to 18 June 2025?",
         says_number((D1[1] - D1[0]).days)),
    Task("f1-date-plus", "What date is 45 days after 20 January 2026?", says_day(D2 + dt.timedelta(days=45))),
    Task("f1-weekday-of", "What day of the week will 25 December 2030 be?", says_weekday_of(D3)),
    # workspace chores
    Task("f1-file-as", "Move report.txt into the reports folder and rename it to report_2024.txt.",
         both(moved("report.txt", "reports/report_2024.txt", "annual report\n"), kept("reports/2023.txt")),
         files={"report.txt": "annual report\n", "reports/2023.txt": "last year\n"}),
    Task("f1-count-jpg", "How many JPEG pictures (.jpg) are in the photos folder?", says_count(3),
         files={"photos/beach.jpg": "j\n", "photos/city.jpg": "j\n", "photos/dog.png": "p\n", "photos/cake.jpg": "j\n",
                "docs/scan.jpg": "j\n", "readme.md": "# r\n"}),
    # arithmetic in words, unit conversions
    Task("f1-words-mul", "What is twelve times thirteen?", says_number(156)),
    Task("f1-words-add", "Add forty-five and one hundred and seven.", says_number(152)),
    Task("f1-fahrenheit", "Convert 100 degrees Fahrenheit to Celsius.", says_about((100 - 32) * 5 / 9, 0.1)),
    Task("f1-inches", "How many inches are in 2 meters?", says_about(200 / 2.54, 0.3)),
    # Chinese
    Task("f1-zh-capital", "中国的首都是哪座城市？", says_any("北京", "beijing"), lang="zh"),
    Task("f1-zh-weekday", "2025年10月1日是星期几？", says_weekday_of(D4), lang="zh"),
    Task("f1-zh-poem", "写一首关于春天的四行短诗，保存到 spring.txt。", zh_poem("spring.txt", "春", 4),
         lang="zh"),
]


# fresh2's workspaces
EXPENSES = "date,category,amount\n2026-02-01,food,12.40\n2026-02-02,transport,3.10\n2026-02-03,food,8.75\n" \
           "2026-02-05,books,22.00\n2026-02-06,food,15.30\n"
ACTIVE = {"ana": True, "bo": False, "cy": True, "dee": False, "eli": True}
USERS = [{"name": name, "active": active} for name, active in ACTIVE.items()]
PRICES = "fruit,price\napple,0.40\nbanana,0.25\ncherry,3.20\n"
SETTINGS = {"theme": "light", "font_size": 12, "autosave": True}
SCORES = "Ana,91\nBen,78\nCleo,85\n"
EMAILS = "kim@example.com\nlee@example.com\nkim@example.com\nmo@example.com\nlee@example.com\n"
ZH_SCORES = {"张伟": 88, "李娜": 95, "王芳": 79}
E1 = dt.date(1990, 5, 17), dt.date(2026, 5, 16)
E2 = dt.date(2025, 11, 3)
E3 = dt.date(2027, 1, 1)
E4 = dt.date(2026, 3, 1), dt.date(2026, 4, 15)


def _age(born: dt.date, on: dt.date) -> int:
    """Whole years from `born` to `on`."""
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


FRESH_2: list[Task] = [
    Task("f2-packing", "Make a packing list for a weekend camping trip, at least five items, one per line, in "
         "packing.txt.", file_lines("packing.txt", 5)),
    Task("f2-thanks", "Compose a short thank-you note to my colleague Priya and save it in thanks.txt.",
         both(file_lines("thanks.txt", 1, mentions=("priya",), min_chars=30),
              file_lines("thanks.txt", 1, mentions=("thank", "grateful", "appreciate")))),
    Task("f2-counting", "Put the numbers from 1 to 10 in counting.txt, each on its own line.",
         counted_lines("counting.txt", 1, 10)),
    Task("f2-planet", "Which planet in our solar system is the largest?", says_any("jupiter")),
    Task("f2-spider", "How many legs does a spider have?", says_count(8)),
    Task("f2-mona-lisa", "Who painted the Mona Lisa?", says_any("leonardo", "da vinci")),
    Task("f2-csv-food", "How much did I spend on food according to expenses.csv?",
         says_about(12.40 + 8.75 + 15.30, 0.005),
         files={"expenses.csv": EXPENSES}),
    Task("f2-json-active", "How many users in users.json are active?",
         says_count(sum(ACTIVE.values())),
         files={"users.json": json.dumps(USERS, indent=2) + "\n"}),
    Task("f2-csv-lookup", "According to prices.csv, what does a banana cost?", says_number(0.25),
         files={"prices.csv": PRICES}),
    Task("f2-json-set", 'In settings.json, change the theme to "dark" and leave the other settings as they are.',
         file_json("settings.json", {**SETTINGS, "theme": "dark"}),
         files={"settings.json": json.dumps(SETTINGS, indent=2) + "\n"}),
    Task("f2-header", "Insert the header line Name,Score at the top of scores.csv.",
         file_is_lines("scores.csv", ["Name,Score", *SCORES.splitlines()], spaces=False), files={"scores.csv": SCORES}),
    Task("f2-dedupe", "Write each address of emails.txt once, without the repeats, into unique.txt.",
         file_is_lines("unique.txt", sorted(set(EMAILS.split())), ordered=False), files={"emails.txt": EMAILS}),
    Task("f2-age", "Someone was born on 17 May 1990. How old are they on 16 May 2026?", says_number(_age(*E1))),
    Task("f2-weeks-after", "Which date falls exactly 10 weeks after 3 November 2025?",
         says_day(E2 + dt.timedelta(weeks=10))),
    Task("f2-new-year", "On what weekday is New Year's Day 2027?", says_weekday_of(E3)),
    Task("f2-logs", "Move all the .log files into a folder called logs.",
         both(moved("app.log", "logs/app.log", "started\n"), moved("db.log", "logs/db.log", "connected\n"),
              kept("notes.txt")),
         files={"app.log": "started\n", "db.log": "connected\n", "notes.txt": "n\n"}),
    Task("f2-empty-tmp", "Empty the tmp folder: delete every file inside it.",
         both(deleted("tmp/a.tmp", "keep.txt", "src/main.py"), deleted("tmp/b.dat"), deleted("tmp/c.txt")),
         files={"tmp/a.tmp": "a\n", "tmp/b.dat": "b\n", "tmp/c.txt": "c\n", "keep.txt": "k\n", "src/main.py": "m\n"}),
    Task("f2-apples", "I have three hundred apples and give away a quarter of them. How many do I have left?",
         says_number(225)),
    Task("f2-words-div", "What is seven thousand divided by twenty-five?", says_number(280)),
    Task("f2-pounds", "How many pounds is 5 kilograms?", says_about(5 / 0.45359237, 0.1)),
    Task("f2-marathon", "A marathon is 42.195 km. How many miles is that?", says_about(42.195 / 1.609344, 0.1)),
    Task("f2-zh-water", "水的化学式是什么？", says_any("h2o", "h₂o"), lang="zh"),
    Task("f2-zh-days", "2026年3月1日和2026年4月15日相差多少天？", says_number((E4[1] - E4[0]).days),
         lang="zh"),
    Task("f2-zh-json", "读取 scores.json，谁的分数最高？", says_text("李娜"),
         files={"scores.json": json.dumps(ZH_SCORES, ensure_ascii=False, indent=2) + "\n"}, lang="zh"),
]
