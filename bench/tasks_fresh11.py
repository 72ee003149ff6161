# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh11` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh11 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date is computed from the given ones with
datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content looks
at its properties (its keys and their types, its rows, its order, what its lines name), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path

from tasks import Check, Task, both, file_holds, moved, says_number, says_text
from tasks_fresh import (
    _lines,
    _read,
    file_is_lines,
    kept,
    says_about,
    says_any,
    says_count,
    says_pattern,
    says_weekday_of,
)
from tasks_fresh4 import either, says_day_of_month, says_regex

_MARKER = re.compile(r"^(?:[-*•]\s*|\d+[.)]\s*)")
_QUOTES = "\"'“”‘’「」"


def _same(got: str, want: str) -> bool:
    """Two CSV fields agree: as numbers when both are numbers ("23.4" and "23.40"), else case and blanks aside."""
    got, want = got.strip(), want.strip()
    try:
        return abs(float(got.replace(",", "")) - float(want.replace(",", ""))) < 1e-6
    except ValueError:
        return got.lower() == want.lower()


def _table(content: str) -> list[list[str]]:
    """The non-blank rows of a CSV text, each field stripped."""
    return [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(content)) if any(c.strip() for c in row)]


def csv_is(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case aside) and exactly the rows `rows`, in order (numbers
    compared as numbers)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        table = _table(content)
        if not table or [cell.lower() for cell in table[0]] != header:
            return f"{path} does not start with {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        ok = len(body) == len(rows) and all(
            len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want, strict=True))
            for got, want in zip(body, rows, strict=True))
        return None if ok else f"{path} holds {content[:100]!r}"

    return check


def conversion_table(path: str, header: list[str], pairs: list[tuple[float, float]], tolerance: float) -> Check:
    """`path` is a CSV file with the header `header` (case aside) and one row per pair, in order: the first field the
    pair's first value, the second within `tolerance` of its second."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = _table(content)
        if not table or [cell.lower() for cell in table[0]] != header:
            return f"{path} does not start with {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != len(pairs) or any(len(row) != 2 for row in body):
            return f"{path} has {len(body)} rows, not {len(pairs)}"
        try:
            got = [(float(a), float(b)) for a, b in body]
        except ValueError:
            return f"{path} has a field that is not a number"
        for (a, b), (x, y) in zip(got, pairs, strict=True):
            if abs(a - x) > 1e-6 or abs(b - y) > tolerance:
                return f"{path} has the row {a:g},{b:g} where {x:g},{y:g} belongs"
        return None

    return check


def invented_record(path: str) -> Check:
    """`path` holds one JSON object with exactly the keys title, author (non-empty text), year (a whole number) and
    genres (a list of at least two non-empty strings)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, dict) or set(value) != {"title", "author", "year", "genres"}:
            return f"{path} does not have exactly the four keys: {content[:80]!r}"
        if not all(isinstance(value[key], str) and value[key].strip() for key in ("title", "author")):
            return f"{path}: title and author are not both text"
        if not isinstance(value["year"], int) or isinstance(value["year"], bool):
            return f"{path}: year is not a whole number"
        genres = value["genres"]
        if not isinstance(genres, list) or len(genres) < 2 or not all(isinstance(g, str) and g.strip() for g in genres):
            return f"{path}: genres is not a list of at least two strings"
        return None

    return check


def sorted_names(path: str, count: int, allowed: set[str]) -> Check:
    """`path` names `count` different entries of `allowed` (case aside), one a line, in alphabetical order."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        names = [_MARKER.sub("", line).strip().strip(".").lower() for line in _lines(content)]
        if len(names) != count or len(set(names)) != count:
            return f"{path} has {len(names)} lines ({len(set(names))} different), not {count}"
        strange = [name for name in names if name not in allowed]
        if strange:
            return f"{path} names {', '.join(strange)}"
        return None if names == sorted(names) else f"{path} is not in alphabetical order"

    return check


def backup_then_edit(original: str, backup: str, before: str, lines: list[str]) -> Check:
    """`backup` holds `before`, the text `original` had at the start, and `original` now holds the lines `lines`."""
    edit = file_is_lines(original, lines)

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, backup)
        if content is None:
            return f"{backup} was not written"
        if content.strip() != before.strip():
            return f"{backup} does not hold the text {original} had at the start"
        return edit(answer, workspace)

    return check


def lines_unquoted(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, in order (blank lines, surrounding blanks and quotes aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [line.strip(_QUOTES).strip() for line in _lines(content)]
        return None if got == expected else f"{path} holds {content[:80]!r}"

    return check


# the workspaces
INVOICE = {"invoice": "INV-2291", "customer": "Harbor Books", "discount_percent": 12,
           "lines": [{"sku": "PEN-BLK", "qty": 40, "unit_price": 1.35}, {"sku": "NB-A5", "qty": 25, "unit_price": 3.8},
                     {"sku": "STAPLER", "qty": 3, "unit_price": 14.5}, {"sku": "TAPE", "qty": 12, "unit_price": 2.25}]}
INVOICE_DUE = (sum(line["qty"] * line["unit_price"] for line in INVOICE["lines"])
               * (1 - INVOICE["discount_percent"] / 100))

STOCK = [("hinge", "North", 140), ("bracket", "North", 60), ("screw box", "North", 12), ("latch", "North", 45),
         ("hinge", "South", 35), ("bracket", "South", 58), ("screw box", "South", 200), ("latch", "South", 70)]
STOCK_CSV = "item,warehouse,qty\n" + "".join(f"{item},{where},{qty}\n" for item, where, qty in STOCK)
STOCK_TOTALS = {item: sum(q for i, _, q in STOCK if i == item) for item, _, _ in STOCK}
LOWEST = min(STOCK_TOTALS.items(), key=lambda pair: pair[1])

READINGS = ["21.4", "19.8", "ERR", "22.9", "20.6", "--", "23.3", "18.7", "21.1", "ERR", "20.2"]
VALID = sorted(float(r) for r in READINGS if re.fullmatch(r"\d+\.\d+", r))
MEDIAN = (VALID[len(VALID) // 2 - 1] + VALID[len(VALID) // 2]) / 2 if len(VALID) % 2 == 0 else VALID[len(VALID) // 2]

WORKER_CONF = "name = ingest-worker\ndebug = true\nthreads = 4\nlog_level = info\ncache_ttl = 300\n"
WORKER_AFTER = [line.replace("debug = true", "debug = false").replace("cache_ttl = 300", "cache_ttl = 900")
                for line in WORKER_CONF.splitlines()]

EXPENSES = [["2026-11-02", "groceries", "54.20"], ["2026-11-05", "transport", "18.00"],
            ["2026-11-09", "dining", "36.75"], ["2026-11-12", "groceries", "41.90"]]
NEW_EXPENSE = ["2026-11-14", "transport", "23.40"]
EXPENSES_CSV = "date,category,amount\n" + "".join(",".join(row) + "\n" for row in EXPENSES)
EXPENSES_TOTAL = sum(float(row[2]) for row in [*EXPENSES, NEW_EXPENSE])

VOCAB = ["quince", "anchor", "meadow", "ember", "lattice", "bristle", "harbor", "cobalt", "orchid", "fathom"]

SUBSCRIBERS = ["nina@fastmail.com", "omar.k@proton.me", "lee.wu@gmail.com", "nina@fastmail.com", "b.ortiz@aol.com",
               "omar.k@proton.me", "tess@hey.com", "lee.wu@gmail.com", "nina@fastmail.com"]

EUROPE = {
    "albania", "andorra", "armenia", "austria", "azerbaijan", "belarus", "belgium", "bosnia and herzegovina",
    "bosnia & herzegovina", "bulgaria", "croatia", "cyprus", "czech republic", "czechia", "denmark", "england",
    "estonia", "finland", "france", "georgia", "germany", "great britain", "greece", "hungary", "iceland", "ireland",
    "italy", "kosovo", "latvia", "liechtenstein", "lithuania", "luxembourg", "malta", "moldova", "monaco",
    "montenegro", "netherlands", "the netherlands", "north macedonia", "macedonia", "northern ireland", "norway",
    "poland", "portugal", "romania", "russia", "san marino", "scotland", "serbia", "slovakia", "slovenia", "spain",
    "sweden", "switzerland", "turkey", "türkiye", "ukraine", "united kingdom", "uk", "vatican city", "holy see",
    "wales", "kazakhstan"}

CELSIUS = [(float(c), c * 9 / 5 + 32) for c in range(0, 101, 10)]

ARCHIVE_MOVE = {"2025-03-minutes.txt": "March minutes\n", "2025-11-budget.csv": "line,amount\nrent,1200\n"}
ARCHIVE_STAY = {"2026-01-minutes.txt": "January minutes\n", "readme.md": "# shared folder\n",
                "notes-2025.txt": "notes about last year\n"}

THESIS = ("# Chapter 2\n\nThe colour of a surface changes how warm a room feels.\n"
          "We asked forty people to rank six colours by calm.\nMost chose a pale blue colour over white.\n"
          "Light matters as much as colour itself.\n")
THESIS_AFTER = _lines(THESIS.replace("colour", "color"))

ABSTRACT = ("Data quality shapes every result. We cleaned the data twice, merged three datasets, and stored the data "
            "in a single database. Metadata was kept apart from the raw data so that later audits could trace each "
            "step. Good data beats clever models.\n")
DATA_WORDS = len(re.findall(r"\bdata\b", ABSTRACT, re.IGNORECASE))

RECEIPTS = [("Bakery", 4.80), ("Pharmacy", 12.35), ("Bookshop", 23.00), ("Cafe", 6.45), ("Hardware store", 17.90)]
RECEIPTS_TXT = "".join(f"{shop} {amount:.2f}\n" for shop, amount in RECEIPTS)
RECEIPTS_TOTAL = round(sum(amount for _, amount in RECEIPTS), 2)

TRIAL_START = dt.date(2026, 11, 20)
TRIAL_LAST = TRIAL_START + dt.timedelta(days=90 - 1)

RUN_SECONDS = 52 * 60 + 30
PACE = divmod(round(RUN_SECONDS / 10), 60)

POOL_LITRES = 12 * 5 * 1.5 * 1000

WORDS_START = dt.date(2026, 11, 3)
WORDS_100 = WORDS_START + dt.timedelta(days=100 - 1)

SCORES = [("李华", 88, 92, 79), ("张伟", 95, 81, 90), ("王芳", 79, 99, 85), ("刘强", 90, 87, 86)]
SCORES_CSV = "姓名,语文,数学,英语\n" + "".join(f"{name},{a},{b},{c}\n" for name, a, b, c in SCORES)
TOP_SCORE = max(((name, a + b + c) for name, a, b, c in SCORES), key=lambda pair: pair[1])

TODO = ["交房租", "取快递", "给妈妈打电话"]

FUEL_COST = 350 / 100 * 6.8 * 7.9

FRESH_11: list[Task] = [
    # values read from files, then worked out
    Task("f11-invoice", "What does invoice.json come to once the discount listed in it is taken off?",
         says_about(INVOICE_DUE, 0.006), files={"invoice.json": json.dumps(INVOICE, indent=2) + "\n"}),
    Task("f11-stock", "stock.csv lists how many units of each product we hold in each warehouse. Which product has the "
         "smallest total across all warehouses, and what is that total?",
         both(says_text(LOWEST[0]), says_number(LOWEST[1])), files={"stock.csv": STOCK_CSV}),
    Task("f11-median", "Some lines in readings.txt are sensor errors rather than numbers. Leaving those out, what is "
         "the median of the readings?", says_about(MEDIAN, 0.005),
         files={"readings.txt": "".join(f"{r}\n" for r in READINGS)}),
    Task("f11-data-word", "How many times does the word \"data\" appear on its own in abstract.txt? Any "
         "capitalisation counts, but words like database or datasets don't.", says_count(DATA_WORDS),
         files={"abstract.txt": ABSTRACT}),
    Task("f11-receipts", "Add up the amounts in receipts.txt and save just the total in a file called total.txt.",
         file_holds("total.txt", RECEIPTS_TOTAL), files={"receipts.txt": RECEIPTS_TXT}),
    # edits of a file
    Task("f11-conf", "In worker.conf, set debug to false and raise cache_ttl to 900. Nothing else in the file should "
         "change.", file_is_lines("worker.conf", WORKER_AFTER, spaces=False), files={"worker.conf": WORKER_CONF}),
    Task("f11-expense", "Add a line to expenses.csv for 2026-11-14, transport, 23.40, and then tell me what all the "
         "expenses in the file add up to.",
         both(csv_is("expenses.csv", ["date", "category", "amount"], [*EXPENSES, NEW_EXPENSE]),
              says_about(EXPENSES_TOTAL, 0.005)), files={"expenses.csv": EXPENSES_CSV}),
    Task("f11-vocab", "Put the words in vocab.txt into alphabetical order. Keep them in vocab.txt, one per line.",
         file_is_lines("vocab.txt", sorted(VOCAB)), files={"vocab.txt": "".join(f"{w}\n" for w in VOCAB)}),
    Task("f11-subscribers", "subscribers.txt has some addresses listed more than once. Remove the repeats so every "
         "address is there only once, keeping each one where it first appeared.",
         file_is_lines("subscribers.txt", list(dict.fromkeys(SUBSCRIBERS))),
         files={"subscribers.txt": "".join(f"{s}\n" for s in SUBSCRIBERS)}),
    Task("f11-thesis", "Make a backup copy of thesis.md called thesis.bak.md, then change every \"colour\" in "
         "thesis.md to the American spelling \"color\".",
         backup_then_edit("thesis.md", "thesis.bak.md", THESIS, THESIS_AFTER), files={"thesis.md": THESIS}),
    # made-up or generated content written to a file
    Task("f11-book", "Invent a book and save it as book.json: a JSON object with the keys title (text), author (text), "
         "year (a whole number) and genres (a list of at least two strings), and no other keys.",
         invented_record("book.json")),
    Task("f11-europe", "Write the names of eight European countries to europe.txt, one per line, in alphabetical "
         "order.", sorted_names("europe.txt", 8, EUROPE)),
    Task("f11-celsius", "Make a file celsius.csv with two columns, celsius and fahrenheit, and a row for every 10 "
         "degrees Celsius from 0 to 100.", conversion_table("celsius.csv", ["celsius", "fahrenheit"], CELSIUS, 0.05)),
    # workspace chores
    Task("f11-archive", "Move every file whose name begins with 2025- into a new folder called 2025. Leave all the "
         "other files where they are.",
         both(*(moved(path, f"2025/{path}", text) for path, text in ARCHIVE_MOVE.items()), kept(*ARCHIVE_STAY)),
         files={**ARCHIVE_MOVE, **ARCHIVE_STAY}),
    # knowledge and short text transformations
    Task("f11-tungsten", "What's the chemical symbol for tungsten?", says_pattern(r"(?<![A-Za-z])W(?![a-z])", "W")),
    Task("f11-french", "How do you say \"library\" in French (the place where you borrow books)?",
         says_any("bibliothèque", "bibliotheque")),
    Task("f11-slug", "Turn this headline into a URL slug (lowercase, words joined by hyphens, no punctuation): "
         "Ten Tips for Better Sleep & Sharper Focus!",
         says_pattern(r"(?<![\w-])ten-tips-for-better-sleep-(?:and-)?sharper-focus(?![\w-])",
                      "ten-tips-for-better-sleep-sharper-focus")),
    # dates from given dates
    Task("f11-trial", "A 90-day free trial starts on 20 November 2026, and that day counts as day 1. What is the date "
         "of the trial's last day, and what day of the week is it?",
         both(says_day_of_month(TRIAL_LAST), says_weekday_of(TRIAL_LAST))),
    # arithmetic in words and conversions
    Task("f11-pace", "I ran 10 km in 52 minutes 30 seconds. What was my average pace per kilometre, in minutes and "
         "seconds?", says_regex(rf"(?<!\d){PACE[0]}\s*(?::|'|m(?:in(?:ute)?s?)?\.?\s*(?:and\s*)?){PACE[1]:02d}(?!\d)",
                                f"{PACE[0]}:{PACE[1]:02d}")),
    Task("f11-pool", "A rectangular pool is 12 m long, 5 m wide and 1.5 m deep everywhere. How many litres of water "
         "does it take to fill it to the brim?",
         either(says_number(POOL_LITRES), says_regex(rf"(?<![\d.]){int(POOL_LITRES) // 1000}[\s\u202f\u00a0]000(?!\d)",
                                                      f"{POOL_LITRES:g}"))),
    # Chinese, with --lang zh
    Task("f11-zh-words", "我从2026年11月3日开始每天背单词，这一天算第1天。"
         "坚持到第100天的那一天是几月几号？",
         says_day_of_month(WORDS_100), lang="zh"),
    Task("f11-zh-scores", "scores.csv 是这次考试的成绩。三科总分最高的是谁？总分多少？",
         both(says_text(TOP_SCORE[0]), says_number(TOP_SCORE[1])), files={"scores.csv": SCORES_CSV}, lang="zh"),
    Task("f11-zh-todo", "在 todo.txt 的最后加上一行“买牛奶”，原来的内容保持不变。",
         lines_unquoted("todo.txt", [*TODO, "买牛奶"]), files={"todo.txt": "".join(f"{t}\n" for t in TODO)},
         lang="zh"),
    Task("f11-zh-fuel", "我的车每百公里油耗6.8升，油价7.9元一升，"
         "开350公里大概要花多少油费？",
         says_about(FUEL_COST, 0.5), lang="zh"),
]
