# ruff: noqa: RUF001  (Chinese punctuation in the tasks, as people write them)
"""Two more task sets beside bench/tasks.py, for checking that what helps the suite helps tasks it was not tuned on.

`heldout1` (20 tasks) was written in the third session of 2026-12-01 and its failures were then worked on: it is a
development set now. `heldout2` (20 tasks) was written after that and only measured in that session; the fourth
session worked on its failures, so it is a development set too. `heldout3` (24 tasks) was written at the start of
the fourth session and its failures then worked on. `heldout4` (20 tasks) was written right after heldout3's first
run, before any change it could have shaped: it is only measured; write a new set before working on its failures.
Run: `python bench/success.py --suite heldout4 --configs json`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tasks import (
    Check,
    Task,
    both,
    copied,
    deleted,
    file_holds,
    moved,
    says_date,
    says_number,
    says_text,
    says_weekday,
    today,
)

_ZH = ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]


def says_weekday_any(days: int) -> Check:
    """The answer names the weekday `days` days after today, in Chinese or in English."""
    english = says_weekday(days)

    def check(answer: str, workspace: Path) -> str | None:
        day = today() + dt.timedelta(days=days)
        sunday = {"星期日"} if "星期天" in answer or "周日" in answer else set()
        zh = {name for name in _ZH if name in answer} | sunday
        if zh:
            return None if zh == {_ZH[day.weekday()]} else f"answer does not name {_ZH[day.weekday()]}"
        return english(answer, workspace)

    return check


HELDOUT_1: list[Task] = [
    Task("h-div", "What is 98765 divided by 25?", says_number(3950.6)),
    Task("h-sale", "A jacket costs 80 dollars and is 25% off. What is the sale price?", says_number(60)),
    Task("h-minutes", "How many minutes are there in 6 hours?", says_number(360)),
    Task("h-avg", "What is the average of 12, 18 and 27?", says_number(19)),
    Task("h-chain", "Multiply 17 by 23, then add 100.", says_number(491)),
    Task("h-meters", "How many meters are in 4.5 km?", says_number(4500)),
    Task("h-write-sum", "Add 256 and 512 and save the answer to sum.txt.", file_holds("sum.txt", 768)),
    Task("h-read-max", "Read scores.txt and tell me the highest score.", says_number(94),
         files={"scores.txt": "71\n94\n88\n"}),
    Task("h-read-mul", "Read width.txt and multiply the number in it by 3.", says_number(126),
         files={"width.txt": "42\n"}),
    Task("h-count-md", "How many Markdown files are in the workspace?", says_number(2),
         files={"a.md": "# a\n", "b.md": "# b\n", "c.txt": "c\n"}),
    Task("h-find", "Which file mentions the password?", says_text("secrets.txt"),
         files={"readme.txt": "hello\n", "secrets.txt": "the password is hunter2\n", "log.txt": "ok\n"}),
    Task("h-copy-folder", "Copy notes.txt into the backup folder.", copied("notes.txt", "backup/notes.txt", "n1\n"),
         files={"notes.txt": "n1\n", "backup/old.txt": "o\n"}),
    Task("h-write-text", "Create a file named todo.txt that says buy milk.", file_holds("todo.txt", "buy milk")),
    Task("h-delete", "Remove temp.txt from the workspace.", deleted("temp.txt", "keep.txt"),
         files={"temp.txt": "x\n", "keep.txt": "y\n"}),
    Task("h-week", "What date will it be one week from today?", says_date(7)),
    Task("h-yesterday", "What was yesterday's date?", says_date(-1)),
    Task("h-weekday", "What day of the week is it today?", says_weekday(0)),
    Task("h-zh-div", "计算 144 除以 16。", says_number(9), lang="zh"),
    Task("h-zh-date", "3天后是几号？", says_date(3), lang="zh"),
    Task("h-zh-write", "把 12 加 30 的结果保存到 result.txt。", file_holds("result.txt", 42), lang="zh"),
]


HELDOUT_2: list[Task] = [
    Task("g-pct", "What is 3.5 percent of 12000?", says_number(420)),
    Task("g-sub", "Subtract 1789 from 5000.", says_number(3211)),
    Task("g-pow-sub", "What is 2 to the 10th power, minus 24?", says_number(1000)),
    Task("g-eggs", "A box holds 24 eggs. How many eggs are in 17 boxes?", says_number(408)),
    Task("g-hours", "How many hours are in 3 weeks?", says_number(504)),
    Task("g-convert", "Convert 2.5 hours to minutes.", says_number(150)),
    Task("g-write-div", "Divide 1000 by 8 and write the result to quotient.txt.", file_holds("quotient.txt", 125)),
    Task("g-count-items", "Read items.txt and tell me how many items it lists.", says_number(4),
         files={"items.txt": "apple\nbanana\ncherry\nkiwi\n"}),
    Task("g-greeting", "What is written in greeting.txt?", says_text("hello from the team"),
         files={"greeting.txt": "Hello from the team\n"}),
    Task("g-two-files", "Read a.txt and b.txt and add the two numbers.", says_number(42),
         files={"a.txt": "15\n", "b.txt": "27\n"}),
    Task("g-copy", "Make a copy of data.csv called data_old.csv.", copied("data.csv", "data_old.csv", "x,y\n1,2\n"),
         files={"data.csv": "x,y\n1,2\n"}),
    Task("g-move", "Move report.txt into the docs folder.", moved("report.txt", "docs/report.txt", "r\n"),
         files={"report.txt": "r\n", "docs/index.md": "# docs\n"}),
    Task("g-del-tmp", "Delete every .tmp file in the workspace.",
         both(deleted("x.tmp", "keep.txt"), deleted("y.tmp", "keep.txt")),
         files={"x.tmp": "1\n", "y.tmp": "2\n", "keep.txt": "k\n"}),
    Task("g-find", "Which file contains the word budget?", says_text("plan.txt"),
         files={"notes.txt": "lunch at noon\n", "plan.txt": "the budget is due\n"}),
    Task("g-weekday3", "What weekday is it 3 days from today?", says_weekday(3)),
    Task("g-ago", "What date was it 5 days ago?", says_date(-5)),
    Task("g-zh-pct", "计算 250 的 20%。", says_number(50), lang="zh"),
    Task("g-zh-weekday", "5天后是星期几？", says_weekday_any(5), lang="zh"),
    Task("g-zh-copy", "把文件 a.txt 复制为 b.txt。", copied("a.txt", "b.txt", "abc\n"), files={"a.txt": "abc\n"},
         lang="zh"),
    Task("g-zh-lines", "notes.txt 有几行？", says_number(3), files={"notes.txt": "x\ny\nz\n"}, lang="zh"),
]


HELDOUT_3: list[Task] = [
    Task("k-pct", "What is 12% of 850?", says_number(102)),
    Task("k-books", "I bought 3 books at 14.50 dollars each. How much did I spend in total?", says_number(43.5)),
    Task("k-paren", "What is (48 + 52) * 7?", says_number(700)),
    Task("k-cube-root", "What is the cube root of 3375?", says_number(15)),
    Task("k-days", "How many days are in 12 weeks?", says_number(84)),
    Task("k-grams", "How many grams are in 3.2 kilograms?", says_number(3200)),
    Task("k-split", "Split a bill of 186 dollars evenly among 6 people. How much does each pay?", says_number(31)),
    Task("k-write-diff", "Subtract 275 from 1000 and write the answer to left.txt.", file_holds("left.txt", 725)),
    Task("k-write-phrase", "Write 'see you soon' into a file called bye.txt.", file_holds("bye.txt", "see you soon")),
    Task("k-read-min", "What is the smallest number in values.txt?", says_number(9),
         files={"values.txt": "17\n9\n23\n"}),
    Task("k-read-tax", "Read price.txt and add 20% tax to the price in it.", says_number(60),
         files={"price.txt": "50\n"}),
    Task("k-read-owner", "Read owner.txt and tell me whose name is in it.", says_text("maria"),
         files={"owner.txt": "Owner: Maria Lopez\n"}),
    Task("k-count-py", "How many Python files are in the workspace?", says_number(3),
         files={"a.py": "a = 1\n", "b.py": "b = 2\n", "c.py": "c = 3\n", "d.txt": "d\n"}),
    Task("k-find", "Which file mentions Paris?", says_text("trip.txt"),
         files={"trip.txt": "flight to Paris on monday\n", "shop.txt": "eggs, bread\n"}),
    Task("k-rename", "Rename summary.md to summary_old.md.", moved("summary.md", "summary_old.md", "# summary\n"),
         files={"summary.md": "# summary\n"}),
    Task("k-copy-folder", "Put a copy of config.ini in the backup folder.",
         copied("config.ini", "backup/config.ini", "[app]\nport = 80\n"),
         files={"config.ini": "[app]\nport = 80\n", "backup/readme.txt": "backups\n"}),
    Task("k-delete-two", "Delete a.log and b.log.", both(deleted("a.log", "keep.txt"), deleted("b.log", "keep.txt")),
         files={"a.log": "1\n", "b.log": "2\n", "keep.txt": "k\n"}),
    Task("k-date-2w", "What is the date two weeks from today?", says_date(14)),
    Task("k-weekday-yday", "What day of the week was it yesterday?", says_weekday(-1)),
    Task("k-date-3ago", "What was the date 3 days ago?", says_date(-3)),
    Task("k-zh-mul", "计算 35 乘以 12。", says_number(420), lang="zh"),
    Task("k-zh-tomorrow", "明天是几号？", says_date(1), lang="zh"),
    Task("k-zh-rename", "把 notes.txt 重命名为 old_notes.txt。", moved("notes.txt", "old_notes.txt", "n\n"),
         files={"notes.txt": "n\n"}, lang="zh"),
    Task("k-zh-read-add", "读取 count.txt，把里面的数字加上 8。", says_number(42),
         files={"count.txt": "34\n"}, lang="zh"),
]


HELDOUT_4: list[Task] = [
    Task("m-mul", "What is 4096 times 3?", says_number(12288)),
    Task("m-discount", "A phone costs 640 dollars. How much is 15 percent of that price?", says_number(96)),
    Task("m-sub-chain", "Start with 900, subtract 125, then multiply the result by 2.", says_number(1550)),
    Task("m-minutes-days", "How many minutes are in 2 days?", says_number(2880)),
    Task("m-liters", "How many milliliters are in 1.75 liters?", says_number(1750)),
    Task("m-square", "What is 37 squared?", says_number(1369)),
    Task("m-write-product", "Multiply 19 by 21 and save the result in out.txt.", file_holds("out.txt", 399)),
    Task("m-write-name", "Create a file called name.txt containing the text Ada Lovelace.",
         file_holds("name.txt", "ada lovelace")),
    Task("m-read-avg", "Read marks.txt and give me the average of the numbers in it.", says_number(75),
         files={"marks.txt": "60\n80\n85\n"}),
    Task("m-read-city", "Read address.txt and tell me which city it names.", says_text("lisbon"),
         files={"address.txt": "Rua Augusta 10, Lisbon, Portugal\n"}),
    Task("m-count-txt", "How many text files (.txt) are in the workspace?", says_number(2),
         files={"one.txt": "1\n", "two.txt": "2\n", "three.md": "3\n"}),
    Task("m-find-error", "Which log file contains an error?", says_text("app2.log"),
         files={"app1.log": "all good\n", "app2.log": "ERROR: disk full\n"}),
    Task("m-copy", "Duplicate settings.json as settings.bak.", copied("settings.json", "settings.bak", "{}\n"),
         files={"settings.json": "{}\n"}),
    Task("m-move", "Move photo.png into the images folder.", moved("photo.png", "images/photo.png", "png\n"),
         files={"photo.png": "png\n", "images/cat.png": "cat\n"}),
    Task("m-delete", "Please delete cache.tmp.", deleted("cache.tmp", "main.txt"),
         files={"cache.tmp": "c\n", "main.txt": "m\n"}),
    Task("m-date-4d", "What date will it be 4 days from today?", says_date(4)),
    Task("m-weekday-2d", "What day of the week is the day after tomorrow?", says_weekday(2)),
    Task("m-zh-add", "计算 2500 加 1300。", says_number(3800), lang="zh"),
    Task("m-zh-yesterday", "昨天是几月几号？", says_date(-1), lang="zh"),
    Task("m-zh-delete", "删除文件 old.txt。", deleted("old.txt", "new.txt"), files={"old.txt": "o\n", "new.txt": "n\n"},
         lang="zh"),
]
