# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh6` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-02 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh6 --configs json`. No task needs the network. Every expected value is
computed here from the task's files or given values; every expected date is computed from the given dates with
datetime, never from today; a check of a file edit reads the file, not the answer; a check of made-up content looks
at its properties (how many numbered items, what the last one says), not its wording.
"""

from __future__ import annotations

import configparser
import csv
import datetime as dt
import io
import json
import re
from pathlib import Path

from tasks import Check, Task, both, copied, moved, says_number, says_text
from tasks_fresh import _read, file_is_lines, file_json, kept, says_about, says_weekday_of
from tasks_fresh4 import file_is_exactly, says_regex


def numbered_items(path: str, count: int, last_mentions: str) -> Check:
    """`path` holds exactly `count` items numbered 1 to `count` ("1." or "1)"), the last one mentioning
    `last_mentions` (case-insensitive); other lines (a title) may stand around them."""
    item = re.compile(r"^\s*(?:[-*]\s*)?(\d+)[.)]\s+(\S.*)$")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        found = [match for match in (item.match(line) for line in content.splitlines()) if match]
        if [int(match.group(1)) for match in found] != list(range(1, count + 1)):
            return f"{path} does not hold items numbered 1 to {count}: {content[:80]!r}"
        if last_mentions.lower() not in found[-1].group(2).lower():
            return f"the last item of {path} does not mention {last_mentions}"
        return None

    return check


# the workspaces
SERVERS = [{"name": "web-1", "region": "eu-west", "ram_gb": 16}, {"name": "web-2", "region": "us-east", "ram_gb": 32},
           {"name": "db-1", "region": "eu-west", "ram_gb": 64}, {"name": "cache-1", "region": "eu-west", "ram_gb": 8},
           {"name": "db-2", "region": "us-east", "ram_gb": 64}, {"name": "batch-1", "region": "ap-south", "ram_gb": 24}]
SERVERS_JSON = json.dumps({"servers": SERVERS}, indent=2) + "\n"
EU_RAM = sum(server["ram_gb"] for server in SERVERS if server["region"] == "eu-west")

SETTINGS = ("; database pools per environment\n[staging]\nhost = staging-db.internal\nmax_connections = 40\n"
            "timeout_s = 30\n\n[production]\nhost = db.internal\nmax_connections = 250\ntimeout_s = 60\n")
_INI = configparser.ConfigParser()
_INI.read_string(SETTINGS)
POOL_GAP = _INI.getint("production", "max_connections") - _INI.getint("staging", "max_connections")

WORKER = ("2026-11-30 14:02:11 INFO  worker started, 4 threads\n2026-11-30 14:09:48 WARN  queue depth 120 above 100\n"
          "2026-11-30 14:31:02 INFO  batch 17 done\n2026-11-30 15:12:36 WARN  retrying upload (attempt 2)\n"
          "2026-11-30 15:40:19 ERROR upload failed: timeout\n2026-11-30 16:47:05 WARN  disk 91% full\n"
          "2026-11-30 17:03:54 INFO  batch 18 done\n2026-11-30 17:20:00 ERROR worker lost heartbeat\n"
          "2026-11-30 17:20:09 INFO  worker restarted\n")
LAST_WARN = [line.split()[1] for line in WORKER.splitlines() if line.split()[2] == "WARN"][-1]
LAST_WARN_HM = LAST_WARN[:5]

RAIN = {"January": 78.4, "February": 61.2, "March": 55.0, "April": 47.9, "May": 52.3, "June": 38.6, "July": 21.7,
        "August": 29.4, "September": 44.1, "October": 69.8, "November": 83.5, "December": 80.2}
RAIN_CSV = "month,rain_mm\n" + "".join(f"{month},{mm}\n" for month, mm in RAIN.items())
DRIEST = min(RAIN, key=RAIN.__getitem__)

INVOICES = [("1041", "Larkin & Co", 1200.00, "paid"), ("1042", "Brightside Ltd", 845.50, "unpaid"),
            ("1043", "Moss Studio", 2310.00, "unpaid"), ("1044", "Larkin & Co", 560.25, "paid"),
            ("1045", "Novak Bakery", 415.75, "unpaid")]
INVOICES_MD = ("# Invoices 2026\n\n| Invoice | Client | Amount | Status |\n|---|---|---|---|\n"
               + "".join(f"| {no} | {who} | {amount:,.2f} | {status} |\n" for no, who, amount, status in INVOICES))
OWED = sum(amount for _, _, amount, status in INVOICES if status == "unpaid")

COMMUTE = [34, 41, 29, 52, 38, 36, 44, 31, 47, 22]
COMMUTE_CSV = "date,minutes\n" + "".join(f"2026-11-{day + 2:02d},{minutes}\n" for day, minutes in enumerate(COMMUTE))

INVITE = ("Hi all,\nOur winter party is on Friday in Hall B at 7pm.\nPlease RSVP by Wednesday; a map to Hall B is "
          "attached.\nSee you in Hall B!\n")
GUESTS = ["Anna Kowalski", "Ben Ortiz (declined)", "Chloe Martin", "Dev Patel", "Esther Cole (declined)",
          "Finn Walsh", "Grace Liu (declined)"]
PANCAKES = ["200 g flour", "2 eggs", "300 ml milk", "1 pinch salt", "1 tbsp butter"]
ROUTER = ["Unplug the router", "Wait 30 seconds", "Wait for the lights to turn green", "Plug the router back in",
          "Test the connection"]
MEMBERS_CSV = ("name,email,joined\nLiam Grant,liam.grant@fastmail.com,2024-03-02\nNora Diaz,nora@diaz.dev,2025-01-17\n"
               "Otto Kim,otto.kim@proton.me,2023-11-30\nPia Ruiz,pia.ruiz@gmail.com,2026-06-08\n")
MEMBER_EMAILS = [row["email"] for row in csv.DictReader(io.StringIO(MEMBERS_CSV))]
PALETTE = {"sky": "#87CEEB", "grass": "#7CFC00", "brick": "#B22222", "sand": "#F4A460"}
PALETTE_TXT = "".join(f"{name} = {code}\n" for name, code in PALETTE.items())

CAPS = {"docs/Minutes.TXT": "minutes of the 3 Nov meeting\n", "docs/Budget.CSV": "item,cost\nchairs,120\n"}
CAPS_KEPT = {"docs/index.html": "<h1>docs</h1>\n", "docs/notes.txt": "to read\n"}
TEMPLATE = "# Week __\n\n## Done\n\n## Next\n\n## Blockers\n"

STAY_START, STAY_END = dt.date(2027, 2, 22), dt.date(2027, 3, 8)
LEAP_DAY = dt.date(2028, 2, 29)

STOCK = {"苹果": 42, "香蕉": 17, "橙子": 9, "葡萄": 23, "梨": 31}
STOCK_CSV = "水果,箱数\n" + "".join(f"{fruit},{boxes}\n" for fruit, boxes in STOCK.items())
FEWEST = min(STOCK, key=STOCK.__getitem__)
ROSTER = ["李娜", "张伟", "王芳", "张伟民", "刘强", "张伟"]
NEW_YEAR_GAP = (dt.date(2027, 2, 6) - dt.date(2026, 12, 25)).days

FRESH_6: list[Task] = [
    # values read from files
    Task("f6-eu-ram", "Going by servers.json, how much memory do the machines in the eu-west region have altogether?",
         says_number(EU_RAM), files={"servers.json": SERVERS_JSON}),
    Task("f6-pool-gap", "settings.ini has a database pool for each environment. By how many connections does the "
         "production limit exceed the staging one?", says_number(POOL_GAP), files={"settings.ini": SETTINGS}),
    Task("f6-last-warn", "When was the most recent warning written to worker.log? I just need the time.",
         says_regex(rf"(?<!\d){re.escape(LAST_WARN_HM)}", LAST_WARN), files={"worker.log": WORKER}),
    Task("f6-driest", "Which month had the least rain in rainfall.csv, and how much fell that month?",
         both(says_text(DRIEST), says_number(RAIN[DRIEST])), files={"rainfall.csv": RAIN_CSV}),
    Task("f6-owed", "invoices.md lists what I've billed this year. How much are clients still owing me, counting only "
         "the ones not yet paid?", says_about(OWED, 0.005), files={"invoices.md": INVOICES_MD}),
    Task("f6-commute", "commute.csv logs how long my drive to work took each day. On average, how many minutes was it?",
         says_about(sum(COMMUTE) / len(COMMUTE), 0.051), files={"commute.csv": COMMUTE_CSV}),
    # small edits of a file
    Task("f6-venue", "The venue in invite.txt is out of date: wherever it says Hall B it should say Room 12. Please "
         "fix the file.", file_is_exactly("invite.txt", INVITE.replace("Hall B", "Room 12").splitlines()),
         files={"invite.txt": INVITE}),
    Task("f6-declined", "Take everybody who declined off guests.txt; keep the remaining names in the order they're in.",
         file_is_lines("guests.txt", [guest for guest in GUESTS if "declined" not in guest]),
         files={"guests.txt": "".join(f"{guest}\n" for guest in GUESTS)}),
    Task("f6-baking-powder", "pancakes.txt is my ingredient list. Put a new line '1 tsp baking powder' directly "
         "underneath the flour.",
         file_is_exactly("pancakes.txt", [*PANCAKES[:1], "1 tsp baking powder", *PANCAKES[1:]]),
         files={"pancakes.txt": "".join(f"{line}\n" for line in PANCAKES)}),
    Task("f6-router", "Lines three and four of router-steps.txt are the wrong way round. Swap those two and leave the "
         "rest alone.", file_is_exactly("router-steps.txt", [*ROUTER[:2], ROUTER[3], ROUTER[2], *ROUTER[4:]]),
         files={"router-steps.txt": "".join(f"{line}\n" for line in ROUTER)}),
    # files made from another file
    Task("f6-emails", "Pull the email column out of members.csv into emails.txt: only the addresses, one a line, no "
         "header, in the CSV's order.", file_is_lines("emails.txt", MEMBER_EMAILS),
         files={"members.csv": MEMBERS_CSV}),
    Task("f6-palette", "palette.txt has one colour per line written as name = hex code. Turn it into a JSON object "
         "(the colour name as key, its hex code as value) and save that as palette.json.",
         file_json("palette.json", PALETTE), files={"palette.txt": PALETTE_TXT}),
    # made-up content
    Task("f6-agenda", "Draft an agenda for Monday's team sync in agenda.md. It needs exactly four numbered points, and "
         "the final point should be any other business.", numbered_items("agenda.md", 4, "other business")),
    # dates from given dates
    Task("f6-nights", "Our holiday rental is booked from 22 February 2027 until 8 March 2027. How many nights is "
         "that?", says_number((STAY_END - STAY_START).days)),
    Task("f6-leap-day", "What day of the week does 29 February 2028 fall on?", says_weekday_of(LEAP_DAY)),
    # arithmetic in words and conversions
    Task("f6-fuel", "my car uses 6.5 litres per 100 km. for a 420 km drive with fuel at 1.85 a litre, what will the "
         "fuel cost me?", says_about(420 / 100 * 6.5 * 1.85, 0.006)),
    Task("f6-gallons", "The aquarium holds 5 US gallons. How many litres is that?", says_about(5 * 3.785411784, 0.02)),
    # knowledge
    Task("f6-ocean", "Which is the largest ocean on Earth?", says_text("Pacific")),
    # workspace chores
    Task("f6-lower-ext", "A few files in the docs folder have their extension in capitals (like .TXT). Rename those so "
         "the extension is lowercase; the part of the name before the dot stays exactly as it is.",
         both(*(moved(path, path.rsplit(".", 1)[0] + "." + path.rsplit(".", 1)[1].lower(), text)
                for path, text in CAPS.items()), kept(*CAPS_KEPT)), files={**CAPS, **CAPS_KEPT}),
    Task("f6-weeks", "Start my weekly notes from template.md: I want two copies of it, named week-49.md and "
         "week-50.md.",
         both(*(copied("template.md", f"week-{week}.md", TEMPLATE) for week in (49, 50))),
         files={"template.md": TEMPLATE}),
    # Chinese, with --lang zh
    Task("f6-zh-stock", "stock.csv 是仓库里各种水果还剩的箱数。哪种水果剩得最少？还有几箱？",
         both(says_text(FEWEST), says_number(STOCK[FEWEST])), files={"stock.csv": STOCK_CSV}, lang="zh"),
    Task("f6-zh-roster", "名单 roster.txt 里“张伟”这个名字写错了，应该是“张玮”。"
         "请把文件里的“张伟”都改过来，别的名字不要动。",
         file_is_exactly("roster.txt", ["张玮" if name == "张伟" else name for name in ROSTER]),
         files={"roster.txt": "".join(f"{name}\n" for name in ROSTER)}, lang="zh"),
    Task("f6-zh-spring", "2027年的春节是2月6日。从2026年12月25日算起，还要过多少天才到春节？",
         says_number(NEW_YEAR_GAP), lang="zh"),
    Task("f6-zh-solstice", "二十四节气里，北半球白天最长的是哪一个节气？", says_text("夏至"), lang="zh"),
]
