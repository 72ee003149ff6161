"""The pooled results: per agent, model, config and coach, the latest full run of each set, summed over the suite
and over the measured-only sets (the sets nobody who changes the agent has read); and side by side, the newest bench
command that ran autoagent and a peer on the same sets. A run of a change since taken out (its summary's `taken_out`
names the commit that reverted it) is left out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .summaries import when
from .tasksets import load_set, set_names

Key = tuple[str, str, str, str, bool]  # agent, model, config, coach, python tool
POOLS = (("suite", "the suite"), ("measured-only", "measured-only"))
COUNTED = ("tasks", "right", "finished_right", "false_successes", "stopped")


@dataclass(frozen=True)
class Pool:
    """The latest full run of each set of one status, for one row, and their summed counts."""

    name: str
    summaries: list[dict[str, Any]]
    counts: dict[str, int]


@dataclass(frozen=True)
class Row:
    """A row of the pooled table: its key and its pools (those with a run)."""

    key: Key
    pools: list[Pool]


def pooled(name: str, summaries: list[dict[str, Any]]) -> Pool:
    """A pool named `name` of `summaries`, their counts summed."""
    return Pool(name, summaries, {field: sum(summary["counts"][field] for summary in summaries) for field in COUNTED})


def key_of(summary: dict[str, Any]) -> Key:
    """The row a summary belongs to."""
    config = summary["config"] + (f"+{summary['variant']}" if summary.get("variant") else "")
    return (summary["agent"], summary["model"], config, summary["coach"], bool(summary["python"]))


def row_label(key: Key) -> str:
    """A row's name: agent, model, config (the python tool where a protocol other than code was offered it), and
    autoagent's coach (a peer has none)."""
    agent, model, config, coach, python = key
    shown = {"plan": "plan mode"}.get(config, f"`{config}`") + (" + python tool" if python and config != "code" else "")
    coached = f", coach {coach or 'default'}" if agent == "autoagent" else ""
    return f"{agent}, {f'`{model}`' if model else 'model not recorded'}, {shown}{coached}"


def pooled_rows(summaries: Sequence[dict[str, Any]]) -> list[Row]:
    """Every row with a full run of the suite or of a measured-only set, the rows whose runs are newest first."""
    sets = {name: load_set(name) for name in set_names()}
    latest: dict[Key, dict[str, dict[str, Any]]] = {}
    for summary in summaries:  # oldest first: a later run of a set replaces an earlier one
        task_set = sets.get(summary["set"])
        if task_set and summary["counts"]["tasks"] == len(task_set.tasks) and not summary.get("taken_out"):
            latest.setdefault(key_of(summary), {})[summary["set"]] = summary
    rows = []
    for key, by_set in latest.items():
        pools = []
        for status, name in POOLS:
            chosen = [summary for set_name, summary in by_set.items() if sets[set_name].status == status]
            if chosen:
                chosen.sort(key=lambda summary: summary["set"])
                label = name if status == "suite" else f"{name}, {len(chosen)} set{'s' if len(chosen) > 1 else ''}"
                pools.append(pooled(label, chosen))
        if pools:
            rows.append(Row(key, pools))
    newest = {row.key: max(when(summary) for pool in row.pools for summary in pool.summaries) for row in rows}
    rows.sort(key=lambda row: newest[row.key], reverse=True)
    return sorted(rows, key=lambda row: (row.key[0] != "autoagent", row.key[0]))  # autoagent's rows first


def side_by_side(summaries: Sequence[dict[str, Any]]) -> list[Row]:
    """Per pool (the suite, the measured-only sets), the newest bench command (its runs share their start) that ran
    autoagent and a peer on full sets of it: a row for each agent, model, config and coach it ran, summed over the
    sets that every one of them ran (a command still under way counts the sets done by all)."""
    sets = {name: load_set(name) for name in set_names()}
    rows = []
    for status, name in POOLS:
        commands: dict[str, list[dict[str, Any]]] = {}
        for summary in summaries:
            task_set = sets.get(summary["set"])
            if summary.get("started") and task_set and task_set.status == status \
                    and summary["counts"]["tasks"] == len(task_set.tasks) and not summary.get("taken_out"):
                commands.setdefault(summary["started"], []).append(summary)
        compared = [runs for runs in commands.values() if len({run["agent"] == "autoagent" for run in runs}) == 2]
        if not compared:
            continue
        runs = max(compared, key=lambda runs: str(runs[0]["started"]))
        by_key: dict[Key, dict[str, dict[str, Any]]] = {}
        for summary in runs:
            by_key.setdefault(key_of(summary), {})[summary["set"]] = summary
        shared = sorted(set.intersection(*(set(by_set) for by_set in by_key.values())))
        label = name if status == "suite" else f"{name}, {len(shared)} set{'s' if len(shared) > 1 else ''}: " \
            + ", ".join(shared)
        for key in sorted(by_key, key=lambda key: (key[0] != "autoagent", key)):
            chosen = [by_key[key][set_name] for set_name in shared]
            rows.append(Row(key, [pooled(label, chosen)]))
    return rows


def run_cell(summaries: Sequence[dict[str, Any]], commits: bool) -> str:
    """The runs pooled: one run's commit and date; several runs' dates from first to last, and their commits."""
    if len(summaries) == 1:
        return f"{summaries[0]['commit'] or '-'} ({summaries[0]['date']})"
    dates = sorted(summary["date"] for summary in summaries)
    span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
    shown = list(dict.fromkeys(summary["commit"] or "-" for summary in sorted(summaries, key=lambda s: s["date"])))
    return f"{span}: {', '.join(shown)}" if commits else span
