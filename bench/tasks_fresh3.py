# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""`fresh3` (24 tasks, 4 of them in Chinese): a held-out task set that is MEASURED ONLY.

It was written on 2026-12-01 before any change it measures. Whoever changes the agent must not read it (neither its
tasks nor its failures), and nobody tunes to it. Report it as numbers only; once it has been worked on, write a new
set.

Run: `python bench/success.py --suite fresh3 --configs json`. No task needs the network. Every expected date is
computed from the given dates with datetime, never from today; a check of a file edit reads the file, not the answer;
a check of made-up text looks at its properties (the file, its line count, a required word), not its wording.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tasks import Check, Task, both, moved, says_number
from tasks_fresh import _lines, _read, file_is_lines, kept, says_about, says_any, says_count, says_day


def file_shape(path: str, lines: tuple[int, int], *words: str) -> Check:
    """`path` exists with `lines[0]` to `lines[1]` non-blank lines and mentions every one of `words`
    (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        count = len(_lines(content))
        if not lines[0] <= count <= lines[1]:
            return f"{path} has {count} non-blank lines: {content[:60]!r}"
        missing = [word for word in words if word.lower() not in content.lower()]
        return f"{path} does not mention {', '.join(missing)}" if missing else None

    return check


# the workspaces
APP_INI = "[server]\nhost = 0.0.0.0\nport = 8080\n\n[database]\nhost = db.internal\nport = 5433\nname = orders\n"
STOCK = {"pen": (120, 0.75), "notebook": (45, 2.40), "stapler": (8, 11.50)}
STOCK_TSV = "item\tqty\tunit_price\n" + "".join(f"{item}\t{qty}\t{price:.2f}\n" for item, (qty, price) in STOCK.items())
BOARD = [("Login page", "Ana", "done"), ("Password reset", "Ben", "in progress"), ("Email templates", "Ana", "done"),
         ("Audit log", "Chen", "todo"), ("Rate limiting", "Ben", "done"), ("Dark mode", "Chen", "in progress"),
         ("Export to CSV", "Ana", "todo"), ("Billing page", "Ben", "todo")]
BOARD_MD = "# Sprint 14\n\n| # | Task | Owner | Status |\n|---|------|-------|--------|\n" + "".join(
    f"| {n} | {task} | {owner} | {status} |\n" for n, (task, owner, status) in enumerate(BOARD, start=1))
SERVER_LOG = (
    "2026-11-30 08:12:10 INFO  service started on :9000\n"
    "2026-11-30 08:13:22 INFO  connected to cache\n"
    "2026-11-30 08:20:31 ERROR failed to reach payments api (timeout)\n"
    "2026-11-30 08:21:00 WARN  retrying payments api\n"
    "2026-11-30 08:21:30 ERROR failed to reach payments api (timeout)\n"
    "2026-11-30 09:02:17 INFO  nightly job queued\n"
    "2026-11-30 09:10:58 ERROR disk usage above 90% on /var\n"
    "2026-11-30 09:11:12 INFO  old files cleaned\n"
    "2026-11-30 09:30:33 WARN  slow query (2.8s)\n"
    "2026-11-30 09:31:19 ERROR worker 7 crashed\n"
    "2026-11-30 09:31:20 INFO  worker 7 restarted\n"
)
SIZES = [250, 18, 1024, 7, 96, 310]
TAGS = ["travel", "food", "photography", "hiking", "budget"]
HOSTS = ("# local hosts\n127.0.0.1 localhost\n# dev boxes\n10.0.0.5 dev1\n10.0.0.6 dev2\n# 10.0.0.7 dev3 (retired)\n"
         "192.168.1.20 printer\n")
YEAR_FILES = {"report-2025-q1.txt": "q1 numbers\n", "report-2025-q2.txt": "q2 numbers\n",
              "budget-2025.csv": "month,spent\njan,100\n"}
OTHER_FILES = {"report-2026-q1.txt": "this year\n", "readme.txt": "reports live here\n"}
STANDUP = "# Standup\n- deploy friday\n- fix login bug\n"
PICS = {"pics/beach.jpeg": "beach pixels\n", "pics/sunset.jpeg": "sunset pixels\n"}
PICS_KEPT = {"pics/logo.png": "logo pixels\n", "pics/notes.txt": "shot list\n"}
FRUITS = ["苹果", "香蕉", "橙子", "葡萄"]
INVOICE = dt.date(2026, 11, 15)
CONFERENCE = dt.date(2027, 3, 9)
KICKOFF = dt.date(2026, 12, 1)

FRESH_3: list[Task] = [
    # values read from files in other formats
    Task("f3-ini", "which port does the database listen on? the config is app.ini", says_number(5433),
         files={"app.ini": APP_INI}),
    Task("f3-tsv", "Could you work out the total value of everything in stock.tsv? That's quantity times unit "
         "price for each item, added up.", says_about(sum(qty * price for qty, price in STOCK.values()), 0.005),
         files={"stock.tsv": STOCK_TSV}),
    Task("f3-md-share", "What share of the tasks on the board in tasks.md are finished (status done)? Give it as a "
         "percentage.", says_about(100 * sum(row[2] == "done" for row in BOARD) / len(BOARD), 0.5),
         files={"tasks.md": BOARD_MD}),
    Task("f3-log", "how many ERROR entries are there in server.log", says_count(SERVER_LOG.count(" ERROR ")),
         files={"server.log": SERVER_LOG}),
    # rewriting, sorting and renaming files
    Task("f3-jpeg", "In the pics folder, change the extension of every .jpeg file to .jpg. Don't touch the other "
         "files.", both(*(moved(path, path.removesuffix(".jpeg") + ".jpg", text) for path, text in PICS.items()),
                        kept(*PICS_KEPT)), files={**PICS, **PICS_KEPT}),
    Task("f3-sort", "sizes.txt has one number per line. Sort them numerically, smallest first, and write them back "
         "into sizes.txt.", file_is_lines("sizes.txt", [str(n) for n in sorted(SIZES)]),
         files={"sizes.txt": "".join(f"{n}\n" for n in SIZES)}),
    Task("f3-tags", "tags.txt has all my tags on a single line separated by commas. Can you change the file so each "
         "tag is on its own line?", file_is_lines("tags.txt", TAGS), files={"tags.txt": ", ".join(TAGS) + "\n"}),
    Task("f3-comments", "Strip the comment lines (the ones that start with #) out of hosts.conf and keep every other "
         "line as it is.", file_is_lines("hosts.conf", [ln for ln in HOSTS.splitlines() if not ln.startswith("#")]),
         files={"hosts.conf": HOSTS}),
    # percentages and comparisons
    Task("f3-growth", "Our newsletter had 1,250 subscribers at the end of March and 1,600 at the end of April. By "
         "what percent did it grow?", says_about((1600 - 1250) / 1250 * 100, 0.05)),
    Task("f3-plans", "I can pay 12.99 a month for the plan, or 139 for a whole year up front. Over 12 months, how "
         "much do I save by paying yearly?", says_about(12 * 12.99 - 139, 0.005)),
    # unit conversions
    Task("f3-height", "I'm 5 ft 11 in tall. What is that in centimetres?", says_about((5 * 12 + 11) * 2.54, 0.5)),
    Task("f3-oven", "recipe says bake at 180°C but my oven only shows fahrenheit, what should i set it to",
         says_about(180 * 9 / 5 + 32, 1)),
    # knowledge
    Task("f3-novel", "Who wrote the novel Pride and Prejudice?", says_any("austen")),
    Task("f3-boil", "At sea level, at what temperature in Fahrenheit does water boil?", says_number(212)),
    # dates from given dates
    Task("f3-due", "Invoice INV-0931 is dated 2026-11-15 and the terms are net 30, so it is due 30 days after the "
         "invoice date. What is the due date?", says_day(INVOICE + dt.timedelta(days=30))),
    Task("f3-early-bird", "The conference is on 9 March 2027 and early registration closes exactly 3 weeks before "
         "it. Which date is the last day to register early?", says_day(CONFERENCE - dt.timedelta(weeks=3))),
    # multi-step chores
    Task("f3-archive", "Please create a folder called archive-2025 and move every file that has 2025 in its name "
         "into it. Leave the other files where they are.",
         both(*(moved(path, f"archive-2025/{path}", text) for path, text in YEAR_FILES.items()), kept(*OTHER_FILES)),
         files={**YEAR_FILES, **OTHER_FILES}),
    Task("f3-backup", "Back up notes.md first (call the backup notes.md.bak), then add the line '- reviewed by QA' "
         "at the end of notes.md.", both(file_is_lines("notes.md.bak", STANDUP.splitlines()),
                                 file_is_lines("notes.md", [*STANDUP.splitlines(), "- reviewed by QA"])),
         files={"notes.md": STANDUP}),
    # generated text written to a file
    Task("f3-haiku", "Write me a haiku about the sea, three lines, and use the word salt somewhere in it. Save it as "
         "haiku.txt.", file_shape("haiku.txt", (3, 3), "salt")),
    Task("f3-readme", "Create a README.md for my little command-line tool called tidyfiles: a title, one sentence "
         "saying it tidies up a messy downloads folder, and a Usage section.",
         file_shape("README.md", (3, 200), "tidyfiles", "usage")),
    # Chinese, with --lang zh
    Task("f3-zh-discount", "这件外套原价 360 元，现在打八折，折后多少钱？", says_number(360 * 0.8), lang="zh"),
    Task("f3-zh-date", "项目 2026年12月1日启动，100天后验收。验收那天是几月几号？",
         says_day(KICKOFF + dt.timedelta(days=100)), lang="zh"),
    Task("f3-zh-number", "给 fruits.txt 里的每一行前面加上序号，格式像“1. 苹果”这样，直接改原文件就行。",
         file_is_lines("fruits.txt", [f"{n}. {fruit}" for n, fruit in enumerate(FRUITS, start=1)], spaces=False),
         files={"fruits.txt": "".join(f"{fruit}\n" for fruit in FRUITS)}, lang="zh"),
    Task("f3-zh-river", "中国最长的河是哪一条？", says_any("长江", "yangtze"), lang="zh"),
]
