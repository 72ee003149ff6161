"""How many tasks of each set were ever answered right: for every set with records in bench/runs/ (bench/success.py's
JSON lines, every protocol, model, coach and commit measured), the tasks right in at least one run, beside the best
single run. The first number is what a perfect judge choosing among all those runs, task by task, would reach.

Run: python bench/ceiling.py [bench/runs]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

MIN_TASKS = 20  # a record of a few chosen tasks is not a run of the set


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent / "runs")
    runs: dict[str, list[dict[str, bool]]] = defaultdict(list)
    for path in sorted(folder.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        if len(records) < MIN_TASKS or not records[0].get("suite"):
            continue
        runs[records[0]["suite"]].append({record["task"]: bool(record["success"]) for record in records})
    print("| set | runs | tasks | right in some run | best single run |\n|---|---:|---:|---:|---:|")
    for suite, results in sorted(runs.items(), key=lambda item: (len(item[0]), item[0])):
        tasks = set().union(*results)
        ever = sum(any(run.get(task, False) for run in results) for task in tasks)
        best = max(sum(run.values()) for run in results)
        print(f"| {suite} | {len(results)} | {len(tasks)} | {ever} | {best} |")


if __name__ == "__main__":
    main()
