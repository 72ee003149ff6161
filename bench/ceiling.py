"""How many tasks of each set were ever answered right: over the summaries of every full run of a set (every agent,
protocol, model, coach and commit measured), the tasks right in at least one run, beside the best single run. The
first number is what a perfect judge choosing among all those runs, task by task, would reach.

Run: python -m bench ceiling
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .summaries import SUMMARIES, load_summaries
from .tasksets import load_set, set_names

RIGHT = ("right-finished", "right-stopped")


def ceiling_table(folder: Path = SUMMARIES) -> str:
    """The Markdown table: per set, its full runs, its tasks, the tasks right in some run, the best single run."""
    sizes = {name: len(load_set(name).tasks) for name in set_names()}
    runs: dict[str, list[dict[str, str]]] = defaultdict(list)
    for summary in load_summaries(folder):
        if summary["set"] in sizes and summary["counts"]["tasks"] == sizes[summary["set"]]:
            runs[summary["set"]].append(summary["tasks"])
    lines = ["| set | runs | tasks | right in some run | best single run |", "|---|---:|---:|---:|---:|"]
    for name in set_names():
        if runs[name]:
            tasks = set().union(*runs[name])
            ever = sum(any(run.get(task) in RIGHT for run in runs[name]) for task in tasks)
            best = max(sum(cls in RIGHT for cls in run.values()) for run in runs[name])
            lines.append(f"| {name} | {len(runs[name])} | {len(tasks)} | {ever} | {best} |")
    return "\n".join(lines)
