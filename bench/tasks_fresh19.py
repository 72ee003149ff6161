# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh19` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written blind, by a helper, on 2026-12-03, before any change it measures, and has never been run yet. Whoever
changes the agent must not read it (neither its tasks nor its failures), and nobody tunes to it. Report it as numbers
only; once it has been worked on, write a new set.

Run: `python bench/success.py --suite fresh19 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date and time is computed from the given ones
with datetime, never from today; a check of a file edit reads the file, not the answer; a task that asks for
rounding says how, and its check wants the rounded value.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from tasks import Check, Task, both, copied, moved, numbers_in, says_number, says_text
from tasks_fresh import _read, file_json, says_about, says_count
from tasks_fresh4 import either, file_is_exactly, says_day_of_month, says_regex
from tasks_fresh9 import csv_rows_in_order
from tasks_fresh12 import file_number
from tasks_fresh14 import untouched
from tasks_fresh16 import says_day_short

_CENT = Decimal("0.01")


def _cents(value: Decimal) -> Decimal:
    """`value` rounded to the cent, half up; it must not lie on a half cent, where rounding rules part ways."""
    assert (value * 100) % 1 != Decimal("0.5")
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


def says_hours_minutes(minutes: int) -> Check:
    """The answer gives a span of `minutes` as hours and minutes ("32 hours 25 minutes", "32h 25m", "32:25", with
    whole days split off or not: "1 day, 8 hours and 25 minutes") or as a count of minutes."""
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(minutes, 60)
    sep = r"[\s,]*(?:and\s*)?"
    hour, minute = r"\s*(?:h|hrs?|hours?)(?![a-z])", r"\s*(?:m|mins?|minutes?)(?![a-z])"
    forms = [rf"(?<![\d:.]){hours}{hour}{sep}0?{mins}{minute}", rf"(?<![\d:.]){hours}:{mins:02d}(?!\d)"]
    if days:
        forms.append(rf"(?<![\d:.]){days}\s*days?{sep}{rest // 60}{hour}{sep}0?{rest % 60}{minute}")
    return either(says_regex("|".join(forms), f"{hours}:{mins:02d}"), says_number(minutes))


def lines_now(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, in order, case and leading blanks included, with no blank line
    between them (trailing blanks of a line and blank lines at the very end aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [line.rstrip() for line in content.splitlines()]
        while got and not got[-1]:
            got.pop()
        return None if got == expected else f"{path} holds {content[:80]!r}"

    return check


def only_files(folder: str, names: list[str]) -> Check:
    """The workspace folder `folder` holds the files `names` and nothing else."""

    def check(answer: str, workspace: Path) -> str | None:
        root = workspace / folder
        if not root.is_dir():
            return f"{folder} was not made"
        found = sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())
        return None if found == sorted(names) else f"{folder} holds {found}"

    return check


# the workspaces
ORDERS = [{"id": "A-1001", "customer": "Mira Holt", "status": "shipped",
           "items": [{"sku": "MUG-01", "qty": 2, "unit_price": 8.5}, {"sku": "TEA-12", "qty": 1, "unit_price": 12.99}]},
          {"id": "A-1002", "customer": "Jonas Berg", "status": "cancelled",
           "items": [{"sku": "KET-03", "qty": 1, "unit_price": 34.0}]},
          {"id": "A-1003", "customer": "Aisha Khan", "status": "shipped",
           "items": [{"sku": "TEA-12", "qty": 3, "unit_price": 12.99},
                     {"sku": "SPN-02", "qty": 4, "unit_price": 2.25}]},
          {"id": "A-1004", "customer": "Tom Reyes", "status": "pending",
           "items": [{"sku": "MUG-01", "qty": 6, "unit_price": 8.5}]},
          {"id": "A-1005", "customer": "Lena Vogel", "status": "shipped",
           "items": [{"sku": "KET-03", "qty": 1, "unit_price": 34.0}, {"sku": "FLT-10", "qty": 2, "unit_price": 4.75}]},
          {"id": "A-1006", "customer": "Sam Osei", "status": "shipped",
           "items": [{"sku": "SPN-02", "qty": 2, "unit_price": 2.25}]},
          {"id": "A-1007", "customer": "Mira Holt", "status": "returned",
           "items": [{"sku": "KET-03", "qty": 1, "unit_price": 34.0}, {"sku": "MUG-01", "qty": 2, "unit_price": 8.5}]},
          {"id": "A-1008", "customer": "Paul Imrie", "status": "shipped",
           "items": [{"sku": "TEA-12", "qty": 1, "unit_price": 12.99}, {"sku": "FLT-10", "qty": 1, "unit_price": 4.75},
                     {"sku": "MUG-01", "qty": 1, "unit_price": 8.5}]},
          {"id": "A-1009", "customer": "Aisha Khan", "status": "shipped",
           "items": [{"sku": "TEA-12", "qty": 1, "unit_price": 12.99}]}]
ORDERS_JSON = json.dumps(ORDERS, indent=2) + "\n"
_VALUES = {order["id"]: sum(item["qty"] * item["unit_price"] for item in order["items"])
           for order in json.loads(ORDERS_JSON, parse_float=Decimal)}
_SHIPPED = [_VALUES[order["id"]] for order in json.loads(ORDERS_JSON) if order["status"] == "shipped"]
SHIPPED_AVERAGE = _cents(sum(_SHIPPED) / len(_SHIPPED))
assert sum(_SHIPPED) % len(_SHIPPED) != 0 and _cents(sum(_VALUES.values()) / len(_VALUES)) != SHIPPED_AVERAGE
assert float(SHIPPED_AVERAGE) not in numbers_in(ORDERS_JSON)

RESULTS = ["Lions 1-1 Hawks", "Bears 2-1 Wolves", "Hawks 5-0 Bears", "Wolves 0-0 Lions", "Lions 2-1 Bears",
           "Wolves 2-1 Hawks", "Hawks 1-1 Lions", "Bears 1-3 Hawks", "Lions 2-2 Wolves", "Hawks 0-1 Wolves",
           "Bears 0-1 Lions", "Wolves 0-2 Bears"]
RESULTS_TXT = "".join(f"{line}\n" for line in RESULTS)
_POINTS: dict[str, int] = defaultdict(int)
_SCORED: dict[str, int] = defaultdict(int)
for _home, _home_goals, _away_goals, _away in re.findall(r"^(\w+) (\d+)-(\d+) (\w+)$", RESULTS_TXT, re.M):
    _hg, _ag = int(_home_goals), int(_away_goals)
    _POINTS[_home] += 3 if _hg > _ag else 1 if _hg == _ag else 0
    _POINTS[_away] += 3 if _ag > _hg else 1 if _hg == _ag else 0
    _SCORED[_home] += _hg
    _SCORED[_away] += _ag
LEADER = max(_POINTS, key=lambda team: _POINTS[team])
LEADER_POINTS = _POINTS[LEADER]
assert len(_POINTS) == 4 and sorted(_POINTS.values())[-2] < LEADER_POINTS
assert max(_SCORED, key=lambda team: _SCORED[team]) != LEADER and LEADER_POINTS not in _SCORED.values()
assert LEADER_POINTS not in numbers_in(RESULTS_TXT)

COFFEES = [("House Blend", "250 g", "4.49"), ("Dark Roast", "1 kg", "15.90"), ("Colombia Supremo", "500 g", "8.75"),
           ("Espresso Crema", "750 g", "11.45"), ("Decaf Blend", "200 g", "3.29")]
SHELF_HTML = ('<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>Coffee shelf</title></head>\n<body>\n'
              "<h1>Coffee</h1>\n<table>\n  <tr><th>Product</th><th>Pack size</th><th>Price</th></tr>\n"
              + "".join(f"  <tr><td>{name}</td><td>{size}</td><td>&pound;{price}</td></tr>\n"
                        for name, size, price in COFFEES)
              + "</table>\n</body>\n</html>\n")
_PER_KG = {name: Decimal(price) / (Decimal(size) / (1000 if unit == "g" else 1))
           for name, size, unit, price in re.findall(r"<td>([^<]+)</td><td>([\d.]+) (g|kg)</td><td>&pound;([\d.]+)<",
                                                     SHELF_HTML)}
CHEAPEST = min(_PER_KG, key=lambda name: _PER_KG[name])
CHEAPEST_PER_KG = _cents(_PER_KG[CHEAPEST])
assert len(_PER_KG) == len(COFFEES) and sorted(_PER_KG.values())[1] - _PER_KG[CHEAPEST] > Decimal("0.1")
assert min(COFFEES, key=lambda row: Decimal(row[2]))[0] != CHEAPEST and _PER_KG[CHEAPEST] != CHEAPEST_PER_KG
assert float(CHEAPEST_PER_KG) not in numbers_in(SHELF_HTML)

STATUS_LOG = """2027-02-03 08:14:00 monitor: api UP
2027-02-03 08:14:00 monitor: db UP
2027-02-03 11:02:00 monitor: api DOWN
2027-02-03 11:19:00 monitor: api UP
2027-02-03 23:51:00 monitor: api DOWN
2027-02-04 00:37:00 monitor: api UP
2027-02-04 14:05:00 monitor: db DOWN
2027-02-04 14:20:00 monitor: db UP
2027-02-05 09:40:00 monitor: api DOWN
2027-02-05 10:14:00 monitor: api UP
2027-02-05 18:00:00 monitor: daily report sent
"""
_DOWN: dict[str, list[int]] = defaultdict(list)
_SINCE: dict[str, dt.datetime] = {}
for _when, _service, _state in re.findall(r"^(\S+ \S+) monitor: (\w+) (UP|DOWN)$", STATUS_LOG, re.M):
    _at = dt.datetime.fromisoformat(_when)
    if _state == "DOWN":
        _SINCE[_service] = _at
    elif _service in _SINCE:
        _DOWN[_service].append((_at - _SINCE.pop(_service)) // dt.timedelta(minutes=1))
API_DOWN_MINUTES = sum(_DOWN["api"])
assert len(_DOWN["api"]) == 3 and not _SINCE and API_DOWN_MINUTES not in numbers_in(STATUS_LOG)

_CUSTOMERS = [(1, "Aiko Tanaka", "Japan", "2025-11-02"), (2, "Liam O''Brien", "Canada", "2026-01-15"),
              (3, "Sofia Marquez", "Mexico", "2026-02-03"), (4, "Ethan Clarke", "Canada", "2025-12-30"),
              (5, "Noor Haddad", "Canada", "2026-03-21"), (6, "Jack Morin", "United States", "2026-04-09"),
              (7, "Chloe Tremblay", "Canada", "2026-06-11"), (8, "Marta Nowak", "Poland", "2026-07-01"),
              (9, "Owen Fraser", "Canada", "2027-01-04"), (10, "Grace Lee", "Canada", "2026-09-27"),
              (11, "Diego Rossi", "Italy", "2026-10-12"), (12, "Hannah Wright", "United States", "2026-11-30")]
_ORDERS_SQL = [(101, 2, "Canada", "2026-02-01"), (102, 6, "Canada", "2026-05-14"), (103, 8, "Canada", "2026-08-19"),
               (104, 10, "Canada", "2026-10-02"), (105, 11, "Italy", "2026-10-20"),
               (106, 3, "Canada", "2026-11-03")]
DUMP_SQL = ("-- shop database dump\nCREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, "
            "signed_up DATE);\nINSERT INTO customers (id, name, country, signed_up) VALUES\n"
            + ",\n".join(f"  ({n}, '{name}', '{country}', '{day}')" for n, name, country, day in _CUSTOMERS)
            + ";\n\nCREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, ship_to TEXT, placed DATE);\n"
              "INSERT INTO orders (id, customer_id, ship_to, placed) VALUES\n"
            + ",\n".join(f"  ({n}, {who}, '{country}', '{day}')" for n, who, country, day in _ORDERS_SQL) + ";\n")
_CUSTOMER_ROWS = re.findall(r"\((\d+), '((?:[^']|'')*)', '([^']*)', '(\d{4})-\d\d-\d\d'\)",
                            DUMP_SQL.split("CREATE TABLE orders")[0])
CANADA_2026 = sum(country == "Canada" and year == "2026" for _, _, country, year in _CUSTOMER_ROWS)
assert len(_CUSTOMER_ROWS) == len(_CUSTOMERS) and CANADA_2026 <= 12
assert CANADA_2026 not in (sum(country == "Canada" for _, _, country, _ in _CUSTOMER_ROWS),
                           sum(year == "2026" for _, _, _, year in _CUSTOMER_ROWS),
                           sum(country == "Canada" for _, _, country, _ in _ORDERS_SQL))

PROJECT = {"src/app/__init__.py": '"""The inventory app."""\n__version__ = "0.4.1"\n',
           "src/app/main.py": ("import sys\nfrom app.db import connect\nfrom app.utils.text import slug\n"
                               "def main(argv=None):\n    args = argv or sys.argv[1:]\n    db = connect()\n"
                               "    for name in args:\n        db.add(slug(name))\n    return 0\n"
                               'if __name__ == "__main__":\n    sys.exit(main())\n'),
           "src/app/db.py": ("import sqlite3\ndef connect(path=\"inventory.db\"):\n"
                             "    conn = sqlite3.connect(path)\n    conn.execute(\"CREATE TABLE IF NOT EXISTS items "
                             "(name TEXT)\")\n    return conn\n"),
           "src/app/utils/__init__.py": '"""Small helpers."""\n',
           "src/app/utils/text.py": ("import re\ndef slug(text):\n    text = text.strip().lower()\n"
                                     "    text = re.sub(r\"[^a-z0-9]+\", \"-\", text)\n    return text.strip(\"-\")\n"
                                     "def shout(text):\n    return text.upper() + \"!\"\n"),
           "src/app/README.md": "# app\n\nThe package itself.\n",
           "src/app/main.py.bak": "import sys\ndef main():\n    return 0\n",
           "src/app/__pycache__/main.cpython-311.pyc": "compiled bytes\n",
           "tests/test_text.py": ("from app.utils.text import slug\ndef test_slug():\n"
                                  "    assert slug(' A b ') == 'a-b'\n"),
           "setup.py": "from setuptools import setup\nsetup(name=\"inventory\", package_dir={\"\": \"src\"})\n"}
_SOURCES = [text for path, text in PROJECT.items() if path.startswith("src/") and path.endswith(".py")]
PY_FILES, PY_LINES = len(_SOURCES), sum(len(text.splitlines()) for text in _SOURCES)
assert all(text.endswith("\n") and "\n\n" not in text for text in _SOURCES)
assert sum(len(text.splitlines()) for path, text in PROJECT.items() if path.endswith(".py")) != PY_LINES
assert sum(path.endswith(".py") for path in PROJECT) != PY_FILES and PY_FILES <= 12

# dates
SPRINT_ONE, SPRINT_DAYS, SPRINT_ASKED = dt.date(2027, 1, 4), 14, dt.date(2027, 8, 26)
SPRINT_NO = (SPRINT_ASKED - SPRINT_ONE).days // SPRINT_DAYS + 1
SPRINT_END = SPRINT_ONE + dt.timedelta(days=SPRINT_DAYS * SPRINT_NO - 1)
assert SPRINT_ONE.weekday() == 0 and SPRINT_END.weekday() == 6 and 0 <= (SPRINT_END - SPRINT_ASKED).days < 14
assert (SPRINT_ASKED - SPRINT_ONE).days // SPRINT_DAYS != SPRINT_NO and SPRINT_NO not in (SPRINT_END.day, 8, 26)
assert SPRINT_NO == 17  # "seventeenth" below
SAYS_SPRINT = says_regex(rf"sprint\W{{0,3}}(?:#|no\.?|number)?\s*{SPRINT_NO}\b|\b{SPRINT_NO}(?:th)?\s+sprint"
                         r"|seventeenth", f"sprint {SPRINT_NO}")

MIGRATION_START, MIGRATION_END = dt.datetime(2027, 4, 30, 21, 47), dt.datetime(2027, 5, 2, 6, 12)
MIGRATION_MINUTES = (MIGRATION_END - MIGRATION_START) // dt.timedelta(minutes=1)
assert MIGRATION_MINUTES > 24 * 60 and (MIGRATION_END - MIGRATION_START).seconds // 3600 != MIGRATION_MINUTES // 60

# units
ACRES, SQUARE_METRES_PER_ACRE = Decimal("2.5"), Decimal("4046.8564224")  # an international acre
PLOT_M2 = int((ACRES * SQUARE_METRES_PER_ACRE).quantize(Decimal(1), rounding=ROUND_HALF_UP))
assert abs(ACRES * SQUARE_METRES_PER_ACRE - PLOT_M2) < Decimal("0.4")

KETTLE_WATTS, BOIL_SECONDS, CENTS_PER_KWH = 2400, 210, 28
BOIL_KWH = Decimal(KETTLE_WATTS) * BOIL_SECONDS / 3600 / 1000
BOIL_CENTS = BOIL_KWH * CENTS_PER_KWH
assert Decimal("0.14") == BOIL_KWH and BOIL_CENTS.quantize(_CENT) == BOIL_CENTS

# file edits
ATTENDEES = ["Hannah Whitfield", "Oscar Bright", "Leila Nasser", "Ben Adeyemi", "Chloe Marsh", "Sven Lund",
             "Ada Kowalski", "Mark Evans", "Zoe Carter"]
ATTENDEES_TXT = "".join(f"{name}\n" for name in ATTENDEES)
BY_SURNAME = sorted((line for line in ATTENDEES_TXT.splitlines() if line), key=lambda name: name.split()[-1])
assert BY_SURNAME not in (ATTENDEES, sorted(ATTENDEES)) and len({n.split()[-1][0] for n in ATTENDEES}) == 9

SERVICE = {"service_name": "order_api", "listen_port": 8080, "max_connections": 200,
           "tls_settings": {"cert_path": "/etc/ssl/order_api.pem", "min_version": "1.2"},
           "retry_policy": {"max_attempts": 5, "backoff_seconds": 1.5, "retry_on_status": [502, 503]},
           "upstream_servers": [{"host_name": "db_primary", "port_number": 5432},
                                {"host_name": "db_replica", "port_number": 5433}],
           "debug": False}
SERVICE_JSON = json.dumps(SERVICE, indent=2) + "\n"


def _camel(value: Any) -> Any:
    """`value` with every key of every object in it, lists included, in camelCase; the values stay as they are."""
    if isinstance(value, dict):
        return {re.sub(r"_([a-z0-9])", lambda match: match.group(1).upper(), key): _camel(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_camel(item) for item in value]
    return value


SERVICE_CAMEL = _camel(json.loads(SERVICE_JSON))
assert "maxConnections" in SERVICE_CAMEL and SERVICE_CAMEL["upstreamServers"][0]["hostName"] == "db_primary"

PAYMENTS_CSV = """date,customer,card,amount
2026-11-02,Nora Quist,4539148803436467,42.10
2026-11-05,Felix Adebayo,5425233430109903,18.00
2026-11-09,Ines Carvalho,378282246310005,230.45
2026-11-14,Rahul Mehta,6011111111111117,9.99
2026-11-21,Eva Lindgren,4916338506082832,76.30
"""
_PAYMENTS = list(csv.reader(io.StringIO(PAYMENTS_CSV)))
PAYMENTS_HEADER = _PAYMENTS[0]
PAYMENTS_MASKED = [[day, who, "*" * (len(card) - 4) + card[-4:], amount] for day, who, card, amount in _PAYMENTS[1:]]
assert len({len(row[2]) for row in PAYMENTS_MASKED}) == 2

SSHD_CONFIG = """# This is the sshd server system-wide configuration file.
# See sshd_config(5) for more information.

Port 2222
#AddressFamily any
ListenAddress 0.0.0.0

# Authentication
PermitRootLogin no
#MaxAuthTries 6
PasswordAuthentication no
PubkeyAuthentication yes

  # keep idle sessions alive
ClientAliveInterval 300
ClientAliveCountMax 2

Subsystem sftp /usr/lib/openssh/sftp-server

Match User backup
    # only the backup job may log in with a password
    PasswordAuthentication yes
    ForceCommand /usr/local/bin/backup-shell
"""
SSHD_KEPT = [line.rstrip() for line in SSHD_CONFIG.splitlines() if line.strip() and not line.lstrip().startswith("#")]
assert len(SSHD_KEPT) == 11 and sum(line.startswith(" ") for line in SSHD_KEPT) == 2

# workspace chores
DOWNLOADS = {"downloads/Tax Return 2026.pdf": "%PDF-1.4 tax return\n",
             "downloads/holiday photo 03.jpg": "JPEG holiday photo\n",
             "downloads/Meeting notes (draft).docx": "DOCX meeting notes\n",
             "downloads/bank statement nov.csv": "date,amount\n2026-11-01,-12.00\n",
             "downloads/invoice_4471.pdf": "%PDF-1.4 invoice\n",
             "downloads/readme.txt": "Things I downloaded.\n"}
DOWNLOADS_OUTSIDE = {"desktop notes.txt": "Not in downloads, so it stays as it is.\n"}
SPACED = {path: "downloads/" + path.split("/", 1)[1].replace(" ", "_") for path in DOWNLOADS if " " in path}
DOWNLOADS_SAME = {path: text for path, text in DOWNLOADS.items() if path not in SPACED}
assert len(SPACED) == 4 and len(DOWNLOADS_SAME) == 2 and "  " not in "".join(DOWNLOADS)

NOTE_FILES = {"notes/groceries.md": "# Groceries\n\n- oat milk\n- lemons\n",
              "notes/ideas.md": "# Ideas\n\n- a bird feeder for the balcony\n",
              "notes/reading-list.md": "# Reading list\n\n1. The Dispossessed\n2. Braiding Sweetgrass\n",
              "notes/todo.txt": "renew the bike lock\n",
              "notes/whiteboard.jpg": "JPEG whiteboard photo\n"}
NOTES_OUTSIDE = {"README.md": "# My workspace\n"}
MARKDOWN_NOTES = {path: text for path, text in NOTE_FILES.items() if path.endswith(".md")}
BACKED_UP = [path.split("/", 1)[1] for path in MARKDOWN_NOTES]
assert len(MARKDOWN_NOTES) == 3

# several steps
EXPENSES_CSV = """date,item,amount,currency
2026-10-03,Hotel in Lyon,312.00,EUR
2026-10-04,Train to Geneva,58.40,CHF
2026-10-05,Conference ticket,450.00,USD
2026-10-06,Dinner with a client,96.50,EUR
2026-10-07,Taxi in London,41.80,GBP
2026-10-08,Books,73.25,USD
"""
RATES = {"base": "EUR", "note": "how much of each currency one euro buys",
         "rates": {"USD": 1.085, "GBP": 0.842, "CHF": 0.9365}}
RATES_JSON = json.dumps(RATES, indent=2) + "\n"
_RATES = {"EUR": Decimal(1), **json.loads(RATES_JSON, parse_float=Decimal)["rates"]}
_IN_EUR = [Decimal(row["amount"]) / _RATES[row["currency"]] for row in csv.DictReader(io.StringIO(EXPENSES_CSV))]
EXPENSES_EUR = _cents(sum(_IN_EUR))
assert sum(_cents(value) for value in _IN_EUR) == EXPENSES_EUR  # rounding each or only the total: the same
_MULTIPLIED = [Decimal(row["amount"]) * _RATES[row["currency"]] for row in csv.DictReader(io.StringIO(EXPENSES_CSV))]
assert _cents(sum(_MULTIPLIED)) != EXPENSES_EUR  # the rates the wrong way round

PRIMES_BELOW = 100_000
_SIEVE = bytearray([1]) * PRIMES_BELOW
_SIEVE[:2] = b"\0\0"
for _n in range(2, int(PRIMES_BELOW ** 0.5) + 1):
    if _SIEVE[_n]:
        _SIEVE[_n * _n::_n] = bytearray(len(range(_n * _n, PRIMES_BELOW, _n)))
PRIME_COUNT = sum(_SIEVE)
assert PRIME_COUNT == 9592

# Chinese
LEDGER = [("11月1日", "收入", "工资", "9200"), ("11月2日", "支出", "房租", "3100"),
          ("11月5日", "支出", "超市", "286.5"), ("11月8日", "收入", "稿费", "650"),
          ("11月12日", "支出", "水电燃气", "312.4"), ("11月15日", "支出", "话费", "58"),
          ("11月20日", "支出", "聚餐", "420"), ("11月26日", "收入", "二手书转卖", "85"),
          ("11月28日", "支出", "健身卡", "199")]
LEDGER_TXT = "".join(f"{day} {kind} {what} {amount}\n" for day, kind, what, amount in LEDGER)
LEDGER_LEFT = sum(Decimal(amount) * (1 if kind == "收入" else -1)
                  for _, kind, _, amount in (line.split() for line in LEDGER_TXT.splitlines()))
assert LEDGER_LEFT > 0 and float(LEDGER_LEFT) not in numbers_in(LEDGER_TXT)

BABY_BORN, BABY_NTH = dt.date(2027, 3, 8), 100
BABY_DAY = BABY_BORN + dt.timedelta(days=BABY_NTH - 1)  # the day of birth is day 1
assert BABY_BORN + dt.timedelta(days=BABY_NTH) != BABY_DAY and BABY_DAY.month != BABY_BORN.month

SIGNUPS = ["张敏", "王磊", "李静", "张敏", "刘洋", "陈晨", "王磊", "赵雪", "李静", "孙悦"]
SIGNUPS_TXT = "".join(f"{name}\n" for name in SIGNUPS)
SIGNUPS_ONCE = list(dict.fromkeys(SIGNUPS_TXT.split()))
assert len(SIGNUPS_ONCE) == 7 and sorted(set(SIGNUPS)) != SIGNUPS_ONCE

FRESH_19: list[Task] = [
    # answers computed from files
    Task("f19-orders", "orders.json holds last week's web-shop orders. What was the average value of the orders that "
         "have shipped, rounded to the nearest cent? An order's value is quantity times unit price, summed over its "
         "items.", says_about(float(SHIPPED_AVERAGE), 0.001), files={"orders.json": ORDERS_JSON}),
    Task("f19-league", "results.txt has every match of our five-a-side league this season, home team first. With 3 "
         "points for a win, 1 for a draw and none for a loss, which team is top of the table and how many points "
         "does it have?", both(says_text(LEADER), says_number(LEADER_POINTS)), files={"results.txt": RESULTS_TXT}),
    Task("f19-coffee", "shelf.html is the coffee shelf of my local shop. Which coffee is the cheapest per kilogram, "
         "and what does it cost per kilogram, to the nearest penny?",
         both(says_text(CHEAPEST), says_about(float(CHEAPEST_PER_KG), 0.001)), files={"shelf.html": SHELF_HTML}),
    Task("f19-downtime", "status.log comes from our uptime monitor. For how many minutes in total was the api service "
         "down?", says_hours_minutes(API_DOWN_MINUTES), files={"status.log": STATUS_LOG}),
    Task("f19-customers", "How many of the customers in dump.sql live in Canada and signed up during 2026?",
         says_count(CANADA_2026), files={"dump.sql": DUMP_SQL}),
    Task("f19-py-lines", "How many .py files are there under src, counting all its subfolders, and how many lines do "
         "they have altogether?", both(says_count(PY_FILES), says_number(PY_LINES)), files=PROJECT),
    # dates from given dates
    Task("f19-sprint", "We work in two-week sprints, back to back, each running from a Monday to the Sunday of the "
         f"following week. Sprint 1 started on Monday {SPRINT_ONE.day} {SPRINT_ONE:%B %Y}. Which sprint will "
         f"{SPRINT_ASKED.day} {SPRINT_ASKED:%B %Y} fall in, and on what date does that sprint end?",
         both(SAYS_SPRINT, says_day_short(SPRINT_END))),
    Task("f19-migration", f"A database migration started at {MIGRATION_START:%H:%M} on {MIGRATION_START.day} "
         f"{MIGRATION_START:%B %Y} and finished at {MIGRATION_END:%H:%M} on {MIGRATION_END.day} "
         f"{MIGRATION_END:%B %Y}. How long did it run?", says_hours_minutes(MIGRATION_MINUTES)),
    # units
    Task("f19-acres", f"The listing says the plot is {ACRES} acres. How many square metres is that, to the nearest "
         "square metre?", either(says_number(PLOT_M2), says_regex(rf"(?<![\d.]){PLOT_M2 // 1000}[\s\u00a0\u202f]"
                                                                   rf"{PLOT_M2 % 1000:03d}(?![\d.])", str(PLOT_M2)))),
    Task("f19-kettle", f"My kettle is rated at {KETTLE_WATTS:,} watts and takes three and a half minutes to boil. How "
         f"many kilowatt-hours does one boil use, and what does it cost at {CENTS_PER_KWH} cents per kWh? Give the "
         "cost in cents, to two decimal places.",
         both(says_about(float(BOIL_KWH), 1e-6), says_about(float(BOIL_CENTS), 1e-6))),
    # knowledge
    Task("f19-http", "Which HTTP status code does a server send back when a client has sent too many requests in a "
         "given amount of time?", says_number(429)),
    Task("f19-wall", "In what year did the Berlin Wall fall?", says_number(1989)),
    # file edits
    Task("f19-surnames", "Sort attendees.txt alphabetically by surname (the last word of each line). Keep each name "
         "as it is written, one per line, and save the result back into attendees.txt.",
         file_is_exactly("attendees.txt", BY_SURNAME), files={"attendees.txt": ATTENDEES_TXT}),
    Task("f19-camel", "Our new frontend wants camelCase. Rewrite service.json so every key is in camelCase "
         "(max_connections becomes maxConnections), at every level, including the keys of objects inside lists. "
         "Leave all the values exactly as they are.", file_json("service.json", SERVICE_CAMEL),
         files={"service.json": SERVICE_JSON}),
    Task("f19-mask", "Mask the card numbers in payments.csv: in the card column, replace every digit except the last "
         "four with an asterisk, so 4111111111111111 becomes ************1111. Everything else in the file stays as "
         "it is.", csv_rows_in_order("payments.csv", PAYMENTS_HEADER, PAYMENTS_MASKED),
         files={"payments.csv": PAYMENTS_CSV}),
    Task("f19-sshd", "Clean up sshd_config: remove every comment line (a line whose first non-blank character is #) "
         "and every blank line. Keep all the other lines exactly as they are, indentation included, in the same "
         "order.", lines_now("sshd_config", SSHD_KEPT), files={"sshd_config": SSHD_CONFIG}),
    # workspace chores
    Task("f19-underscores", "In the downloads folder, rename every file whose name has spaces in it so that each "
         "space becomes an underscore. Leave the other files, and everything outside downloads, as they are.",
         both(*(moved(path, SPACED[path], DOWNLOADS[path]) for path in SPACED),
              untouched({**DOWNLOADS_SAME, **DOWNLOADS_OUTSIDE})), files={**DOWNLOADS, **DOWNLOADS_OUTSIDE}),
    Task("f19-md-backup", "Copy every Markdown (.md) file in the notes folder into a new folder called backup, at "
         "the top of the workspace, keeping their names. The originals stay where they are.",
         both(*(copied(path, f"backup/{path.split('/', 1)[1]}", text) for path, text in MARKDOWN_NOTES.items()),
              only_files("backup", BACKED_UP), untouched({**NOTE_FILES, **NOTES_OUTSIDE})),
         files={**NOTE_FILES, **NOTES_OUTSIDE}),
    # several steps
    Task("f19-expenses", "expenses.csv lists my trip expenses in several currencies, and rates.json has the exchange "
         "rates I'm allowed to use. Convert every expense to euros, add them up, and write the total, rounded to the "
         "cent, into total_eur.txt. Just the number.", file_number("total_eur.txt", float(EXPENSES_EUR), 0.001),
         files={"expenses.csv": EXPENSES_CSV, "rates.json": RATES_JSON}),
    Task("f19-primes", f"Count how many prime numbers there are below {PRIMES_BELOW:,} and write just that count "
         "into primes.txt.", file_number("primes.txt", PRIME_COUNT, 0)),
    # Chinese, with --lang zh
    Task("f19-zh-ledger", "账本.txt 是我11月的收支记录。这个月的总收入减去总支出，还剩多少钱？",
         says_about(float(LEDGER_LEFT), 0.005), files={"账本.txt": LEDGER_TXT}, lang="zh"),
    Task("f19-zh-author", "《红楼梦》的作者是谁？", says_text("曹雪芹"), lang="zh"),
    Task("f19-zh-baby", f"我女儿是{BABY_BORN.year}年{BABY_BORN.month}月{BABY_BORN.day}日出生的。出生当天算第1天，"
         f"那么第{BABY_NTH}天是几月几号？", says_day_of_month(BABY_DAY), lang="zh"),
    Task("f19-zh-signups", "报名名单.txt 里有人报了两次名。把重复的名字删掉，每个名字只保留第一次出现的那一行，"
         "顺序不变，直接保存在原文件里。", file_is_exactly("报名名单.txt", SIGNUPS_ONCE),
         files={"报名名单.txt": SIGNUPS_TXT}, lang="zh"),
]

assert len(FRESH_19) == 24 and sum(task.lang == "zh" for task in FRESH_19) == 4
assert len({task.name for task in FRESH_19}) == len(FRESH_19)
