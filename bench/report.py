"""`python -m bench report`: bench/RESULTS.md, docs/results.md and the README's results table, made from the
summaries in bench/summaries/ and nothing else, so that no number on those pages is written by hand."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from .ceiling import ceiling_table
from .overhead_report import overhead_markdown
from .pooling import POOLS, Key, Row, key_of, pooled_rows, row_label, run_cell, side_by_side
from .summaries import SUMMARIES, load_summaries, when
from .tasksets import load_set, set_names

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
HEAD = ("| agent, model, config, coach | sets | tasks | right at any stop | finished and right | false successes | "
        "a finish that is right | runs pooled |")


def percent(count: int, total: int) -> str:
    """A count and its share of `total`."""
    return f"{count} ({count / total:.0%})" if total else "0"


def believed(right: int, false: int) -> str:
    """How many of the runs that said `finished` were right."""
    return f"{right} of {right + false} ({right / (right + false):.0%})" if right + false else "-"


def pooled_table(rows: list[Row], commits_in_cell: bool) -> str:
    """The pooled table: per agent, model, config and coach, the suite and the measured-only sets."""
    lines = [HEAD, "|---|---|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        label = row_label(row.key)
        for pool in row.pools:
            counts = pool.counts
            runs = run_cell(pool.summaries, commits_in_cell)
            lines.append(f"| {label} | {pool.name} | {counts['tasks']} | {percent(counts['right'], counts['tasks'])} | "
                         f"{percent(counts['finished_right'], counts['tasks'])} | "
                         f"{percent(counts['false_successes'], counts['tasks'])} | "
                         f"{believed(counts['finished_right'], counts['false_successes'])} | {runs} |")
            label = ""
    return "\n".join(lines)


def side_by_side_section(summaries: list[dict[str, Any]]) -> str:
    """What the side-by-side table shows, then the table: the newest command that ran autoagent beside a peer, per
    pool (see `side_by_side`), and the machines its runs ran on; or a line saying no command did."""
    rows = side_by_side(summaries)
    if not rows:
        return f"{read_template('side_by_side.md')}\n\nNo command has run autoagent and a peer on the same sets yet."
    return f"{read_template('side_by_side.md')}\n\n{pooled_table(rows, True)}\n\n{machines(rows)}"


def machines(rows: list[Row]) -> str:
    """Where the runs of a side-by-side table ran: one machine, or (a command resumed on another machine) each
    machine's sets, and the configs that ran there where not all of a set's did."""
    runs = [summary for row in rows for pool in row.pools for summary in pool.summaries]
    where: dict[str, dict[str, list[str]]] = {}
    for summary in runs:
        machine = f"{summary.get('machine') or 'machine not recorded'}, {summary.get('cores') or '?'} cores"
        where.setdefault(machine, {}).setdefault(summary["set"], []).append(summary["config"])
    if len(where) == 1:
        return f"Every run above ran on one machine: {next(iter(where))}."
    per_set = Counter(summary["set"] for summary in runs)
    parts = [f"{machine}: " + ", ".join(name if len(configs) == per_set[name] else f"{name} ({', '.join(configs)})"
                                         for name, configs in by_set.items()) for machine, by_set in where.items()]
    return (f"The runs above ran on {len(where)} machines (their speed, and so what fits in the time limit, "
            f"differs): {'; '.join(parts)}.")


def run_row(summary: dict[str, Any], size: int) -> str:
    """One summary as a row of its set's table in RESULTS.md."""
    counts, total = summary["counts"], summary["counts"]["tasks"]
    partial = "" if total == size else f" (of {size})"
    steps = "-" if counts["median_steps"] is None else f"{counts['median_steps']:g}"
    seconds = "-" if counts["median_seconds"] is None else f"{counts['median_seconds']:.1f}"
    return (f"| {summary['date']} | {summary['commit'] or '-'} | {row_label(key_of(summary))} | {total}{partial} | "
            f"{percent(counts['right'], total)} | {percent(counts['finished_right'], total)} | "
            f"{percent(counts['false_successes'], total)} | {percent(counts['stopped'], total)} | {steps} | "
            f"{seconds} | {note(summary)} |")


def note(summary: dict[str, Any]) -> str:
    """A run's note, and whether the change it measured was taken out since."""
    taken_out = f"the change measured was reverted in {summary['taken_out']}" if summary.get("taken_out") else ""
    return "; ".join(part for part in (summary.get("note") or "", taken_out) if part)


def set_sections(summaries: list[dict[str, Any]]) -> list[str]:
    """RESULTS.md's task-success part: per set, its description and every run, newest first."""
    lines = []
    for name in set_names():
        task_set = load_set(name)
        runs = [summary for summary in summaries if summary["set"] == name]
        lines += [f"### {name} ({task_set.status}, {len(task_set.tasks)} tasks)", "", task_set.description, ""]
        if not runs:
            lines += ["No run yet.", ""]
            continue
        lines += ["| date | commit | agent, model, config, coach | tasks | right at any stop | finished and right | "
                  "false successes | stopped | median steps | median s | note |",
                  "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
                  *[run_row(summary, len(task_set.tasks)) for summary in reversed(runs)], ""]
    return lines


def latest_overhead(folder: Path) -> dict[str, Any] | None:
    """The newest overhead summary (bench/summaries/overhead/), if any."""
    paths = sorted((folder / "overhead").glob("*.json"))
    return json.loads(paths[-1].read_text(encoding="utf-8")) if paths else None


def results_md(folder: Path = SUMMARIES) -> str:
    """bench/RESULTS.md."""
    summaries = load_summaries(folder)
    overhead = latest_overhead(folder)
    return "\n".join([
        "# autoagent benchmarks", "",
        "Generated by `python -m bench report` from the summaries in `bench/summaries/` (one per measured run); "
        "do not edit by hand. The full records of a run (answers, actions, traces) stay in the ignored `bench/out/`.",
        "", "## Framework overhead", "",
        *([overhead_markdown(overhead)] if overhead else ["No overhead summary yet (`python -m bench overhead`)."]),
        "## Task success", "", read_template("classes.md"), "",
        "### Side by side: one command", "", side_by_side_section(summaries), "",
        "### Pooled: the suite and the measured-only sets", "", pooled_table(pooled_rows(summaries), True), "",
        *set_sections(summaries)]).rstrip() + "\n"


def per_set_tables(summaries: list[dict[str, Any]]) -> str:
    """docs/results.md's per-set tables: the latest full run of each kind, per set."""
    lines = []
    for name in set_names():
        task_set = load_set(name)
        latest: dict[Key, dict[str, Any]] = {}
        for summary in summaries:
            if summary["set"] == name and summary["counts"]["tasks"] == len(task_set.tasks) \
                    and not summary.get("taken_out"):
                latest[key_of(summary)] = summary
        if not latest:
            continue
        lines += [f"**{name}** ({task_set.status}, {len(task_set.tasks)} tasks)", "",
                  "| agent, model, config, coach | right at any stop | finished and right | false successes | run |",
                  "|---|---:|---:|---:|---|"]
        for key, summary in sorted(latest.items(), key=lambda item: when(item[1]), reverse=True):
            counts, total = summary["counts"], summary["counts"]["tasks"]
            lines.append(f"| {row_label(key)} | {percent(counts['right'], total)} | "
                         f"{percent(counts['finished_right'], total)} | {percent(counts['false_successes'], total)} | "
                         f"{summary['commit'] or '-'} ({summary['date']}) |")
        lines.append("")
    return "\n".join(lines).rstrip()


def docs_results_md(folder: Path = SUMMARIES) -> str:
    """docs/results.md."""
    from .overhead_report import framework_cost

    summaries = load_summaries(folder)
    overhead = latest_overhead(folder)
    return fill(read_template("results.md"), {
        "classes": read_template("classes.md"), "pooled": pooled_table(pooled_rows(summaries), True),
        "side_by_side": side_by_side_section(summaries),
        "per_set": per_set_tables(summaries), "ceiling": ceiling_table(folder),
        "framework_cost": framework_cost(overhead) if overhead else "No overhead summary yet."})


def readme_md(readme: str, folder: Path = SUMMARIES) -> str:
    """The README with its results tables made again between its markers: side by side, the newest command that ran
    autoagent beside a peer; pooled, autoagent's rows with runs of both the suite and the measured-only sets, and
    every row of a peer (smolagents on the same model), whatever it ran."""
    if BEGIN not in readme or END not in readme:
        raise ValueError(f"the README has no {BEGIN} ... {END} markers")
    summaries = load_summaries(folder)
    rows = pooled_rows(summaries)
    shown = [row for row in rows if len(row.pools) == len(POOLS) or row.key[0] != "autoagent"]
    tables = (f"**Side by side, one command.**\n\n{side_by_side_section(summaries)}\n\n"
              f"**Pooled, the latest full run of each set.**\n\n{pooled_table(shown, True)}")
    return re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: f"{BEGIN}\n{tables}\n{END}", readme,
                  flags=re.S)


def read_template(name: str) -> str:
    """A page template of bench/templates/."""
    return (TEMPLATES / name).read_text(encoding="utf-8").strip()


def fill(template: str, values: dict[str, str]) -> str:
    """`template` with each `{{ name }}` replaced; a name without a value, or a value without a place, is an error."""
    wanted = set(re.findall(r"\{\{ (\w+) \}\}", template))
    if wanted != set(values):
        raise ValueError(f"template placeholders {sorted(wanted)} against values {sorted(values)}")
    return re.sub(r"\{\{ (\w+) \}\}", lambda match: values[match.group(1)], template).rstrip() + "\n"


def outputs(root: Path = ROOT, folder: Path = SUMMARIES) -> dict[Path, str]:
    """Each file `report` writes, and what it writes into it."""
    readme = root / "README.md"
    return {root / "bench/RESULTS.md": results_md(folder), root / "docs/results.md": docs_results_md(folder),
            readme: readme_md(readme.read_text(encoding="utf-8"), folder)}


def write_outputs(root: Path = ROOT) -> list[Path]:
    """Write every output; the paths written."""
    made = outputs(root)
    for path, text in made.items():
        path.write_text(text, encoding="utf-8")
    return list(made)


def stale_outputs(root: Path = ROOT) -> list[str]:
    """The outputs whose committed text is not what `report` would write."""
    return [str(path.relative_to(root)) for path, text in outputs(root).items()
            if not path.is_file() or path.read_text(encoding="utf-8") != text]
