# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh15` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written blind, by a helper, on 2026-12-03, before any change it measures, and has never been run yet. Whoever
changes the agent must not read it (neither its tasks nor its failures), and nobody tunes to it. Report it as numbers
only; once it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh15 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content
looks at its properties (its letters, its headings and items, how many characters a line has), not its wording.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from tasks import Check, Task, both, says_number, says_text
from tasks_fresh import _lines, _read, file_json, says_about, says_any, says_count
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_regex
from tasks_fresh9 import csv_rows_in_order
from tasks_fresh12 import says_duration
from tasks_fresh14 import untouched

_HAN = re.compile(r"[\u4e00-\u9fff]")


def lines_added(path: str, original: list[str], added: list[str]) -> Check:
    """`path` still holds the lines `original` first, in order, then exactly the lines `added`, each once, in any
    order (blank lines and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if lines[:len(original)] != original:
            return f"{path} no longer starts with its lines as they were: {content[:80]!r}"
        rest = lines[len(original):]
        return None if sorted(rest) == sorted(added) else f"{path} has {rest!r} after its old lines"

    return check


def pangram(path: str, banned: str, fewest_words: int) -> Check:
    """`path` uses every letter from a to z (case aside), has at least `fewest_words` words, does not contain
    `banned` and is not the alphabet written out."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lower = content.lower()
        missing = sorted(set("abcdefghijklmnopqrstuvwxyz") - set(lower))
        if missing:
            return f"{path} lacks the letters {''.join(missing)}"
        if banned in " ".join(re.findall(r"[a-z]+", lower)) or "abcdef" in re.sub(r"[^a-z]", "", lower):
            return f"{path} holds the well-known pangram or the alphabet"
        count = len(re.findall(r"[a-z]+(?:'[a-z]+)?", lower))
        return None if count >= fewest_words else f"{path} has {count} words"

    return check


def recipe_card(path: str, title_word: str, bullets: int, steps: int) -> Check:
    """`path` starts with a level-one Markdown heading naming `title_word` (case aside), has a heading Ingredients
    (level two or lower) with at least `bullets` bullet items under it and a heading Method with at least `steps`
    numbered items under it."""

    def section(lines: list[str], name: str, item: str) -> int:
        start = next((n for n, line in enumerate(lines) if re.fullmatch(rf"#{{2,6}}\s*{name}\s*:?", line, re.I)), None)
        if start is None:
            return -1
        count = 0
        for line in lines[start + 1:]:
            if line.startswith("#"):
                break
            count += bool(re.match(item, line))
        return count

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if not lines or not re.match(r"#\s+\S", lines[0]) or title_word not in lines[0].lower():
            return f"{path} does not start with a title naming {title_word}: {content[:60]!r}"
        have_bullets = section(lines, "ingredients", r"[-*+]\s+\S")
        if have_bullets < bullets:
            return f"{path} has no Ingredients heading with {bullets} or more bullets ({have_bullets})"
        have_steps = section(lines, "method", r"\d+[.)]\s+\S")
        return None if have_steps >= steps else f"{path} has no Method heading with {steps} or more steps"

    return check


def zh_couplet(path: str, lengths: tuple[int, ...], labels: tuple[str, ...]) -> Check:
    """`path` holds exactly `len(lengths)` non-blank lines, the n-th of `lengths[n]` Chinese characters (punctuation
    and a leading label such as "上联：" aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != len(lengths):
            return f"{path} has {len(lines)} non-blank lines, not {len(lengths)}: {content[:60]!r}"
        label = re.compile(rf"^(?:{'|'.join(labels)})\s*[：:]\s*")
        counts = [len(_HAN.findall(label.sub("", line))) for line in lines]
        return None if tuple(counts) == lengths else f"the lines of {path} have {counts} characters, not {lengths}"

    return check


def _cents(value: Decimal) -> Decimal:
    """`value` rounded to the cent, halves up."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# the workspaces
_EVENTS = [("Dentist check-up", "20270114T093000", "20261201T101500"),
           ("Flight to Lisbon", "20270128T061500", "20261203T200000"),
           ("Team offsite", ";VALUE=DATE:20270204", "20261210T090000"),
           ("Mum's birthday dinner", "20270211T190000", "20261205T120000"),
           ("Early yoga", "20270219T070000", "20270102T080000"),
           ("Car service", "20270226T083000", "20270110T164500"),
           ("Book club", "20270303T183000", "20270215T113000")]
CALENDAR_ICS = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Home//Calendar//EN\r\n" + "".join(
    f"BEGIN:VEVENT\r\nUID:{n}@home.example\r\nDTSTAMP:{stamp}Z\r\n"
    f"DTSTART{start if start.startswith(';') else ':' + start}\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\n"
    for n, (summary, start, stamp) in enumerate(_EVENTS, start=1)) + "END:VCALENDAR\r\n")
_STARTS = re.findall(r"^DTSTART[^:\r\n]*:(\d{8})", CALENDAR_ICS, re.M)
IN_FEBRUARY = sum(day[:6] == "202702" for day in _STARTS)
assert len(_STARTS) == len(_EVENTS)
assert len(re.findall("202702", CALENDAR_ICS)) > IN_FEBRUARY  # counting every February stamp gives more

CONTACTS_VCF = ("BEGIN:VCARD\nVERSION:3.0\nFN:Priya Shah\nTEL;TYPE=CELL:+44 7700 900456\n"
                "TEL;TYPE=WORK,VOICE:+44 161 496 0734\nEMAIL:priya.shah@mail.example\nEND:VCARD\n"
                "BEGIN:VCARD\nVERSION:3.0\nFN:Priya Raman\nORG:Halden & Pike LLP\nTEL;TYPE=CELL:+44 7700 900123\n"
                "TEL;TYPE=WORK,VOICE:+44 20 7946 0321\nEMAIL;TYPE=WORK:p.raman@haldenpike.example\nEND:VCARD\n"
                "BEGIN:VCARD\nVERSION:3.0\nFN:Tom Okafor\nTEL;TYPE=HOME:+44 113 496 0288\nEND:VCARD\n")
RAMAN_WORK = "+44 20 7946 0321"
assert f"TYPE=WORK,VOICE:{RAMAN_WORK}" in CONTACTS_VCF.split("FN:Priya Raman")[1].split("END:VCARD")[0]
_DIGITS = RAMAN_WORK.split()[1:]  # "20", "7946", "0321": written after +44 or after a leading 0
SAYS_RAMAN_WORK = says_regex(r"(?:\+\s*44|(?<!\d)0)[\s\-()0]*" + r"[\s\-]*".join(_DIGITS) + r"(?!\d)", RAMAN_WORK)

OWN_SITE = "rosebakery.example"
ABOUT_HTML = f"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>About us - Rose Bakery</title></head>
<body>
<nav><a href="/">Home</a> <a href="/menu">Menu</a> <a href="contact.html">Contact</a> <a href="#hours">Hours</a></nav>
<h1>About Rose Bakery</h1>
<p>We have baked on Mill Lane since 1998. Our flour comes from the
<a href="http://www.stonegroundmill.example/">Stoneground Mill</a> up the valley, and our story was told in
<a href="https://www.{OWN_SITE}/blog/25-years">our anniversary post</a>.</p>
<p id="hours">Open Tuesday to Sunday, 7:00 to 15:00. Find us on
<a href="https://maps.example.org/?q=Rose+Bakery+Mill+Lane">the map</a>.</p>
<p>Follow us on <a href="https://www.instagram.com/rosebakery">Instagram</a> and
<a href="https://www.facebook.com/rosebakery">Facebook</a>, or write to
<a href="mailto:hello@{OWN_SITE}">hello@{OWN_SITE}</a>.</p>
<footer><a href="https://{OWN_SITE}/privacy">Privacy</a></footer>
</body>
</html>
"""
_HREFS = re.findall(r'href="([^"]+)"', ABOUT_HTML)
OUTSIDE_LINKS = sum(href.startswith("http") and OWN_SITE not in href for href in _HREFS)
assert OUTSIDE_LINKS == 4 and len(_HREFS) == 11

SCHEMA_SQL = """-- shop database
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT UNIQUE,
    joined DATE
);

CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    sku TEXT UNIQUE NOT NULL,
    title TEXT NOT NULL,
    price NUMERIC(8, 2) NOT NULL,
    stock INTEGER DEFAULT 0,
    discontinued BOOLEAN DEFAULT FALSE
);

CREATE TABLE invoices (
    id INTEGER,
    customer_id INTEGER NOT NULL,
    issued DATE NOT NULL,
    paid BOOLEAN DEFAULT FALSE,
    PRIMARY KEY (id),
    FOREIGN KEY (customer_id) REFERENCES customers (id),
    CHECK (issued >= '2020-01-01')
);

CREATE TABLE invoice_lines (
    invoice_id INTEGER REFERENCES invoices (id),
    product_id INTEGER REFERENCES products (id),
    quantity INTEGER NOT NULL,
    unit_price NUMERIC(8, 2) NOT NULL,
    PRIMARY KEY (invoice_id, product_id)
);
"""
_TABLES = {name: [line.strip() for line in body.splitlines() if line.strip()]
           for name, body in re.findall(r"CREATE TABLE (\w+) \((.*?)\n\);", SCHEMA_SQL, re.S)}
_COLUMNS = {name: sum(not re.match(r"(PRIMARY|FOREIGN|CHECK|UNIQUE)\b", line) for line in lines)
            for name, lines in _TABLES.items()}
WIDEST = max(_COLUMNS, key=_COLUMNS.__getitem__)
assert sorted(_COLUMNS.values())[-2] < _COLUMNS[WIDEST]  # one table alone is widest
assert max(_TABLES, key=lambda name: len(_TABLES[name])) != WIDEST  # counting every line gives another table

UMSATZ = [("03.11.2026", "Bäckerei Vogel", "149,90"), ("07.11.2026", "Autohaus Krämer", "1.249,00"),
          ("12.11.2026", "Praxis Dr. Lenz", "23,50"), ("18.11.2026", "Café Mohn", "310,00"),
          ("21.11.2026", "Blumen Reich", "8,75"), ("28.11.2026", "Kita Sonnenschein", "64,20")]
UMSATZ_CSV = "Datum;Kunde;Betrag\n" + "".join(f"{day};{who};{amount}\n" for day, who, amount in UMSATZ)
_AMOUNTS = [Decimal(row["Betrag"].replace(".", "").replace(",", "."))
            for row in csv.DictReader(io.StringIO(UMSATZ_CSV), delimiter=";")]
UMSATZ_TOTAL = sum(_AMOUNTS)
_EURO, _CENT = f"{UMSATZ_TOTAL:.2f}".split(".")
SAYS_UMSATZ = either(says_about(float(UMSATZ_TOTAL), 0.005),
                     says_regex(rf"(?<![\d.,]){_EURO[:-3]}[.\s\u202f]?{_EURO[-3:]},{_CENT}(?!\d)", f"{_EURO},{_CENT}"))
assert UMSATZ_TOTAL >= 1000

ROMAN = "MDCCCLXXXVIII"
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
ROMAN_YEAR = sum(-_ROMAN_VALUES[a] if _ROMAN_VALUES[a] < _ROMAN_VALUES[b] else _ROMAN_VALUES[a]
                 for a, b in zip(ROMAN, ROMAN[1:] + "I", strict=True))
assert ROMAN_YEAR == 1888

MASK_BITS = 22
_MASK = 0xFFFFFFFF << (32 - MASK_BITS) & 0xFFFFFFFF
MASK_BINARY = ".".join(f"{_MASK >> shift & 0xFF:08b}" for shift in (24, 16, 8, 0))
MASK_DOTTED = ".".join(str(int(part, 2)) for part in MASK_BINARY.split("."))
assert MASK_DOTTED == "255.255.252.0"

LOAN, LOAN_RATE, LOAN_MONTHS = 14500, 0.069, 48
_MONTHLY = LOAN_RATE / 12
INSTALMENT = LOAN * _MONTHLY / (1 - (1 + _MONTHLY) ** -LOAN_MONTHS)

IMAGE_GB, LINE_MBIT = 4.7, 50
DOWNLOAD_S = round(IMAGE_GB * 1e9 * 8 / (LINE_MBIT * 1e6))
assert abs(DOWNLOAD_S - IMAGE_GB * 1e9 * 8 / (LINE_MBIT * 1e6)) < 1e-9

UNIX_TIME = 1_800_000_000
UNIX_UTC = dt.datetime.fromtimestamp(UNIX_TIME, dt.timezone.utc)
assert UNIX_UTC.minute == 0 and UNIX_UTC.second == 0
assert UNIX_UTC.hour < 12  # a morning: "08:00", "8:00 am" or "8 a.m.", never followed by pm
SAYS_UNIX_TIME = says_regex(rf"(?<![\d:])0?{UNIX_UTC.hour}(?::00(?::00)?|\s*a\.?m\b)(?!\s*p\.?m)",
                            f"{UNIX_UTC:%H:%M}")


def _easter(year: int) -> dt.date:
    """Western Easter Sunday (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * el) // 433
    month = (h + el - 7 * m + 90) // 25
    return dt.date(year, month, (h + el - 7 * m + 33 * month + 19) % 32)


EASTER_YEAR = 2027
EASTER = _easter(EASTER_YEAR)
assert EASTER.weekday() == 6 and _easter(2024) == dt.date(2024, 3, 31) and _easter(2025) == dt.date(2025, 4, 20)

SHIFT_START, SHIFT_LENGTH = dt.datetime(2027, 1, 4, 21, 45), dt.timedelta(hours=9, minutes=40)
SHIFT_END = SHIFT_START + SHIFT_LENGTH
SAYS_SHIFT_END = says_regex(rf"(?<![\d:])0?{SHIFT_END.hour}[:.h]{SHIFT_END.minute:02d}(?!\d)(?!\s*p\.?m)",
                            f"{SHIFT_END:%H:%M}")
assert SHIFT_END.hour < 12

MEMBERS = [("Alice Hart", "alice@club.example", "Leeds"), ("Ben Moss", "ben@club.example", "York"),
           ("Cara Lowe", "cara@club.example", "Hull"), ("Dan Pryce", "dan@club.example", "Leeds"),
           ("Eve Stone", "eve@club.example", "Hull"), ("Finn Carr", "finn@club.example", "Leeds"),
           ("Gwen Ashby", "gwen@club.example", "York")]
MEMBERS_HEADER = ["name", "email", "city"]
MEMBERS_CSV = ",".join(MEMBERS_HEADER) + "\n" + "".join(f"{name},{email},{city}\n" for name, email, city in MEMBERS)
_BY_CITY: dict[str, list[list[str]]] = {}
for _row in csv.DictReader(io.StringIO(MEMBERS_CSV)):
    _BY_CITY.setdefault(_row["city"].lower(), []).append([_row[key] for key in MEMBERS_HEADER])
SPLIT_FILES = {f"{city}.csv": rows for city, rows in _BY_CITY.items()}
assert len(SPLIT_FILES) == 3 and "leeds.csv" in SPLIT_FILES

GITIGNORE = ["# Python", "*.pyc", ".venv/", "__pycache__/", "dist/", "", "# editors", ".idea/", "*.swp"]
GITIGNORE_TXT = "".join(f"{line}\n" for line in GITIGNORE)
WANTED = [".env", "__pycache__/", "*.log"]
MISSING = [entry for entry in WANTED if entry not in GITIGNORE]
assert 0 < len(MISSING) < len(WANTED)

NGINX = ["server {", "    listen 80;", "    server_name shop.example;", "    root /var/www/shop;", "",
         "    # gzip on;", "    # gzip_types text/css application/javascript;", "    # access_log off;", "",
         "    location / {", "        try_files $uri $uri/ =404;", "    }", "}"]
NGINX_CONF = "".join(f"{line}\n" for line in NGINX)
NGINX_AFTER = [re.sub(r"^(\s*)#\s*(gzip)", r"\1\2", line) for line in NGINX]
assert sum(a != b for a, b in zip(NGINX, NGINX_AFTER, strict=True)) == 2

PROFILE = {"name": "Ines Duarte", "e-mail": "ines@duarte.example", "timezone": "Europe/Lisbon", "newsletter": True,
           "languages": ["pt", "en"]}
PROFILE_JSON = json.dumps(PROFILE, indent=2, ensure_ascii=False) + "\n"
PROFILE_AFTER = {("email" if key == "e-mail" else key): value for key, value in json.loads(PROFILE_JSON).items()}

ORDER = [("A4 paper (500 sheets)", "4", "5.49"), ("Gel pens (pack of 10)", "3", "7.95"), ("Stapler", "1", "12.30"),
         ("Sticky notes", "12", "1.15"), ("Ring binder", "6", "2.85")]
ORDER_HEADER = ["item", "qty", "unit_price"]
ORDER_CSV = ",".join(ORDER_HEADER) + "\n" + "".join(f"{item},{qty},{price}\n" for item, qty, price in ORDER)
ORDER_AFTER = [[row["item"], row["qty"], row["unit_price"], str(_cents(int(row["qty"]) * Decimal(row["unit_price"])))]
               for row in csv.DictReader(io.StringIO(ORDER_CSV))]

MENU = {"餐厅": "川味小馆", "菜品": [{"名称": "宫保鸡丁", "价格": 38}, {"名称": "鱼香肉丝", "价格": 32},
                                   {"名称": "麻婆豆腐", "价格": 26}, {"名称": "酸辣汤", "价格": 18},
                                   {"名称": "米饭", "价格": 3}, {"名称": "可乐", "价格": 6}]}
MENU_JSON = json.dumps(MENU, ensure_ascii=False, indent=2) + "\n"
_PRICE = {dish["名称"]: dish["价格"] for dish in json.loads(MENU_JSON)["菜品"]}
MENU_TOTAL = _PRICE["宫保鸡丁"] + _PRICE["麻婆豆腐"] + 3 * _PRICE["米饭"] + 2 * _PRICE["可乐"]

SWIM_FROM, SWIM_TO, SWIM_DAYS = dt.date(2027, 1, 1), dt.date(2027, 1, 31), (0, 2, 4)  # Monday, Wednesday, Friday
SWIM_LESSONS = sum((SWIM_FROM + dt.timedelta(days=n)).weekday() in SWIM_DAYS
                   for n in range((SWIM_TO - SWIM_FROM).days + 1))
assert SWIM_LESSONS == 13

FRESH_15: list[Task] = [
    # answers read from files
    Task("f15-calendar", "How many of the events in calendar.ics take place in February 2027?",
         says_count(IN_FEBRUARY), files={"calendar.ics": CALENDAR_ICS}),
    Task("f15-vcard", "I need to ring Priya Raman at her office. What's her work number? My contacts are exported in "
         "contacts.vcf.", SAYS_RAMAN_WORK, files={"contacts.vcf": CONTACTS_VCF}),
    Task("f15-links", f"How many of the links on about.html lead to other websites? Our own site is {OWN_SITE}.",
         says_count(OUTSIDE_LINKS), files={"about.html": ABOUT_HTML}),
    Task("f15-schema", "Looking at schema.sql, which table has the most columns, and how many columns is that?",
         both(says_text(WIDEST), says_count(_COLUMNS[WIDEST])), files={"schema.sql": SCHEMA_SQL}),
    Task("f15-umsatz", "My accountant sent me umsatz.csv, exported from a German copy of Excel. What do the amounts "
         "in it add up to?", SAYS_UMSATZ, files={"umsatz.csv": UMSATZ_CSV}),
    # numbers and units in words
    Task("f15-roman", f"The foundation stone of our town library is carved with the year {ROMAN}. Which year is "
         "that in ordinary numbers?", says_number(ROMAN_YEAR)),
    Task("f15-netmask", f"An old router config gives the netmask in binary as {MASK_BINARY}. Write it for me in "
         "dotted-decimal notation and tell me the prefix length in CIDR terms.",
         both(says_text(MASK_DOTTED), says_regex(rf"(?<!\d)(?<!\d\.){MASK_BITS}(?!\.?\d)", f"/{MASK_BITS}"))),
    Task("f15-loan", f"I'm borrowing {LOAN:,} for a car at {LOAN_RATE:.1%} a year, paid back in {LOAN_MONTHS} equal "
         "monthly instalments, with the interest worked out monthly on the balance still owed. How much is each "
         "instalment?", says_about(INSTALMENT, 0.011)),
    Task("f15-download", f"How long does it take to download a {IMAGE_GB} GB disk image over a {LINE_MBIT} Mbit/s "
         "connection running flat out? Take a GB as a billion bytes.",
         either(says_duration(DOWNLOAD_S), says_regex(rf"(?<![\d.,]){DOWNLOAD_S}\s*(?:s\b|sec)", f"{DOWNLOAD_S} s"),
                says_regex(rf"(?<![\d.,]){DOWNLOAD_S / 60:.2f}\s*min", f"{DOWNLOAD_S / 60:.2f} min"))),
    # dates and times
    Task("f15-unix", f"A line in our server log carries the Unix timestamp {UNIX_TIME}. What date and time is that "
         "in UTC?", both(says_day_of_month(UNIX_UTC.date()), SAYS_UNIX_TIME)),
    Task("f15-easter", f"On what date does Easter Sunday fall in {EASTER_YEAR}?", says_day_of_month(EASTER)),
    Task("f15-shift", f"My night shift starts at {SHIFT_START:%H:%M} and lasts 9 hours 40 minutes, breaks included. "
         "What time will it be when I finish?", SAYS_SHIFT_END),
    # text it makes up
    Task("f15-pangram", "Make up a pangram, a sentence that uses every letter of the alphabet at least once. Not the "
         "famous one about the quick brown fox, please: invent your own. Save it in pangram.txt.",
         pangram("pangram.txt", "quick brown fox", 5)),
    Task("f15-recipe", "Write a recipe for banana pancakes into recipe.md: a level-one heading with the dish's name "
         "first, then an '## Ingredients' section with the ingredients as a bulleted list (at least four), then a "
         "'## Method' section with numbered steps (at least three).", recipe_card("recipe.md", "pancake", 4, 3)),
    # workspace chores and file edits
    Task("f15-split", "Split members.csv into one file per city, each named after its city in lower case "
         "(leeds.csv and so on). Every file keeps the header row and gets that city's members in the order they "
         "appear now. Leave members.csv itself as it is.",
         both(*(csv_rows_in_order(name, MEMBERS_HEADER, rows) for name, rows in SPLIT_FILES.items()),
              untouched({"members.csv": MEMBERS_CSV})), files={"members.csv": MEMBERS_CSV}),
    Task("f15-gitignore", f"Make sure .gitignore covers {', '.join(WANTED[:-1])} and {WANTED[-1]}: add whichever of "
         "those entries are missing at the end of the file, one per line, without listing anything twice. Don't "
         "change the lines already there.",
         lines_added(".gitignore", [line for line in GITIGNORE if line], MISSING),
         files={".gitignore": GITIGNORE_TXT}),
    Task("f15-nginx", "Turn gzip compression on in nginx.conf. The gzip lines are already in the file, just commented "
         "out. Nothing else should change.", file_is_exactly("nginx.conf", [line for line in NGINX_AFTER if line]),
         files={"nginx.conf": NGINX_CONF}),
    Task("f15-rename-key", 'profile.json has a key called "e-mail", but our app reads "email". Rename that key, '
         "keeping its value and everything else in the file as it is.", file_json("profile.json", PROFILE_AFTER),
         files={"profile.json": PROFILE_JSON}),
    Task("f15-line-total", "Add a line_total column at the end of order.csv holding qty times unit_price for each "
         "row, to two decimal places.", csv_rows_in_order("order.csv", [*ORDER_HEADER, "line_total"], ORDER_AFTER),
         files={"order.csv": ORDER_CSV}),
    # knowledge
    Task("f15-seasons", "Who composed The Four Seasons, the set of violin concertos?", says_any("vivaldi")),
    # Chinese, with --lang zh
    Task("f15-zh-poem", "“床前明月光”的下一句是什么？", says_any("疑是地上霜"), lang="zh"),
    Task("f15-zh-menu", "按 菜单.json 上的价格，我们点一份宫保鸡丁、一份麻婆豆腐、三碗米饭和两瓶可乐，一共要付多少钱？",
         says_number(MENU_TOTAL), files={"菜单.json": MENU_JSON}, lang="zh"),
    Task("f15-zh-couplet", "帮我写一副春联，存到 春联.txt：第一行是上联，第二行是下联，各七个字；第三行是横批，四个字。"
         "文件里只写这三行。", zh_couplet("春联.txt", (7, 7, 4), ("上联", "下联", "横批")), lang="zh"),
    Task("f15-zh-swim", f"我报了游泳课，从{SWIM_FROM.year}年{SWIM_FROM.month}月{SWIM_FROM.day}日开始，每周一、周三、"
         f"周五各上一次，一直上到{SWIM_TO.month}月{SWIM_TO.day}日（这两天都算在内）。这段时间我一共要上几节课？",
         either(says_number(SWIM_LESSONS), says_regex("十三", str(SWIM_LESSONS))), lang="zh"),
]

assert len(FRESH_15) == 24 and sum(task.lang == "zh" for task in FRESH_15) == 4
assert len({task.name for task in FRESH_15}) == len(FRESH_15)
