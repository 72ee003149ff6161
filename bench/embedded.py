"""The embedded model (llama.cpp, 2 threads) on the calculator task: seconds per step and end to end,
with and without reuse of the cached prompt prefix between model calls. The finish step writes the answer inside it;
the finish prompt's call is timed on its own and left out of the step's seconds.

Run in the project's venv with the weights assembled under $AUTOAGENT_HOME/models:
`AUTOAGENT_HOME=/tmp/aahome python bench/embedded.py` prints JSON. The agent is built as `autoagent --model local
--no-memory` builds it (every default tool, compact thoughts). Three runs of the same task:
cold: the KV cache is cleared before the run, so step 1 processes the whole prompt and later calls reuse the prefix;
warm: straight after the cold run, nothing cleared (what a second task in the REPL sees: the finish prompt in between
  has replaced the cached prefix);
primed: the cache cleared, then filled (untimed) with the prompt's static part, up to "Task:" - what a cache of the
  static prefix kept across runs (or on disk, across processes) would give step 1;
no reuse: the cache is cleared before every model call (llama.cpp reprocesses the whole prompt each time).
A short untimed call first pages the weights in, so the first run does not pay for that.
These four runs have prefix snapshots off. `--snapshots` measures snapshots instead, in fresh processes (3 rounds, each
in a new snapshot directory): "off" (snapshots off), "first" (no snapshot on disk yet: it saves one), "second" (a new
process that loads it), then "off, other task" and "second, other task" (another task in a new process, with that
snapshot); each process runs its task twice, the second time as a REPL's next task does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage

from autoagent import AutoGPT
from autoagent.llm import load_chat_model
from autoagent.llm.embeddings import load_embeddings
from autoagent.llm.local import ChatLocalLlama
from autoagent.steps import StepKind
from autoagent.tools import default_tools

TASK = "What is 1234 * 5678 + 17?"
ANSWERS = ("7006669", "7,006,669")


class FirstPrompt(BaseCallbackHandler):
    """Keeps the text of the first prompt the model is sent."""

    def __init__(self) -> None:
        self.text = ""

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        if not self.text:
            self.text = "\n".join(message.text for message in messages[0])


class ClearCache(BaseCallbackHandler):
    """Clears llama.cpp's KV cache before each chat model call, so no prompt prefix is reused."""

    def __init__(self, llm: ChatLocalLlama) -> None:
        self.llm = llm

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        self.llm.llama().reset()


class CallTimes(BaseCallbackHandler):
    """Seconds per chat model call: wall time, and CPU time of this process (both llama.cpp threads: wall time, less
    other load)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.started = (0.0, 0.0)

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        self.started = (time.perf_counter(), time.process_time())

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        self.wall.append(time.perf_counter() - self.started[0])
        self.cpu.append(time.process_time() - self.started[1])


def step_seconds(result: Any, calls: CallTimes) -> tuple[list[float], float]:
    """The steps' seconds and the finish prompt's. The finish step writes the answer inside it, so where the run
    finished with one model call more than its steps, that last call is the finish prompt and leaves the step."""
    steps = [step.seconds for step in result.steps]
    finish = calls.wall[-1] if result.finished and len(calls.wall) == len(steps) + 1 else 0.0
    if finish:
        steps[-1] -= finish
    return steps, finish


def run(llm: ChatLocalLlama, tools: list[Any], mode: str, first: FirstPrompt) -> dict[str, Any]:
    """One run of the task in `mode` (cold, warm, primed, no reuse)."""
    if mode in ("cold", "primed"):
        llm.llama().reset()
    if mode == "primed":
        static = first.text.split("\nTask: ")[0]
        llm.invoke([HumanMessage(static)], max_tokens=1)
    calls = CallTimes()
    callbacks: list[BaseCallbackHandler] = [first, calls]
    if mode == "no reuse":
        callbacks.append(ClearCache(llm))
    agent = AutoGPT(llm, tools, max_thought_steps=6, compact_thoughts=True, protocol="json", callbacks=callbacks)
    started = time.perf_counter()
    result = agent.execute(TASK)
    seconds = time.perf_counter() - started
    steps, finish = step_seconds(result, calls)
    record = {
        "mode": mode, "steps": steps, "median_step_s": statistics.median(steps), "end_to_end_s": seconds,
        "finish_prompt_s": finish, "calls": result.usage.calls,
        "input_tokens": result.usage.input_tokens, "output_tokens": result.usage.output_tokens,
        "tools": [step.action.name if step.action else step.kind.value for step in result.steps],
        "calculator_ran": any(step.kind is StepKind.ACTION and step.action is not None
                              and step.action.name == "calculator" for step in result.steps),
        "stop_reason": result.stop_reason.value, "correct": any(answer in result.answer for answer in ANSWERS),
    }
    print(f"  embedded, {mode}: steps {', '.join(f'{s:.1f}' for s in steps)} s, end to end {seconds:.1f} s, "
          f"{record['tools']}, {result.stop_reason.value}", file=sys.stderr, flush=True)
    return record


OTHER_TASK = "What is 4321 * 8765 + 19?"  # another task's process reuses the snapshot's static part only
ANSWERS_BY_TASK = {TASK: ANSWERS, OTHER_TASK: ("37873584", "37,873,584")}
# (name, snapshots on, task): each a fresh process, in this order, sharing one snapshot directory per round.
PROCESSES = [("off", False, TASK), ("first", True, TASK), ("second", True, TASK),
             ("off, other task", False, OTHER_TASK), ("second, other task", True, OTHER_TASK)]


def one_process(snapshots: str, task: str) -> None:
    """In this process: `task` twice (one-shot, then as a REPL's next task), with snapshots in a directory or off."""
    llm = load_chat_model("local")
    assert isinstance(llm, ChatLocalLlama)
    llm = llm.model_copy(update={"prefix_cache_dir": None if snapshots == "off" else snapshots})
    llm.invoke([HumanMessage("Say OK.")], max_tokens=4)  # page the weights in
    with tempfile.TemporaryDirectory(prefix="bench-embedded-") as workspace:
        tools = default_tools(Path(workspace), load_embeddings("local"))
        runs = []
        for _ in range(2):
            calls = CallTimes()
            agent = AutoGPT(llm, tools, max_thought_steps=6, compact_thoughts=True, protocol="json", callbacks=[calls])
            started = time.perf_counter()
            result = agent.execute(task)
            seconds = time.perf_counter() - started
            runs.append({"steps": step_seconds(result, calls)[0], "end_to_end_s": seconds,
                         "replies": [step.reply for step in result.steps], "answer": result.answer,
                         "call_cpu_s": calls.cpu,
                         "tools": [step.action.name if step.action else step.kind.value for step in result.steps],
                         "correct": any(answer in result.answer for answer in ANSWERS_BY_TASK[task])})
    events = [vars(event) for event in llm.prefix_snapshots().events]
    files = sorted(Path(snapshots).glob("*.snap")) if snapshots != "off" else []
    print(json.dumps({"runs": runs, "events": events, "file_bytes": [file.stat().st_size for file in files]}))


def snapshot_rounds(rounds: int) -> None:
    """`rounds` x the PROCESSES; a summary (medians over rounds) on stderr, JSON on stdout."""
    records: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in PROCESSES}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(prefix="bench-prefix-") as directory:
            for name, snapshots, task in PROCESSES:
                command = [sys.executable, __file__, "--one-process", directory if snapshots else "off", "--task", task]
                out = subprocess.run(command, check=True, capture_output=True, text=True, env=os.environ).stdout
                records[name].append(json.loads(out.splitlines()[-1]))
                print(f"  {name}: " + "; ".join(f"steps {', '.join(f'{s:.1f}' for s in run['steps'])} s"
                                                for run in records[name][-1]["runs"]), file=sys.stderr, flush=True)
    summary = {}
    for name, _, task in PROCESSES:
        baseline = records["off" if task == TASK else "off, other task"][0]["runs"][0]
        for number in (0, 1):
            runs = [process["runs"][number] for process in records[name]]
            summary[f"{name}, run {number + 1}"] = {
                "step_1_s": statistics.median(run["steps"][0] for run in runs),
                "step_2_s": statistics.median(run["steps"][1] for run in runs if len(run["steps"]) > 1),
                "median_step_s": statistics.median(statistics.median(run["steps"]) for run in runs),
                "step_1_cpu_s": statistics.median(run["call_cpu_s"][0] for run in runs),
                "end_to_end_s": statistics.median(run["end_to_end_s"] for run in runs),
                "same_replies_as_off": all(run["replies"] == baseline["replies"] and run["answer"] == baseline["answer"]
                                           for run in runs),
                "tools": runs[0]["tools"], "correct": all(run["correct"] for run in runs),
            }
    events = [event for processes in records.values() for process in processes for event in process["events"]]
    for kind in ("save", "load"):
        chosen = [event for event in events if event["kind"] == kind]
        if chosen:
            summary[kind] = {"count": len(chosen), "median_ms": 1000 * statistics.median(e["seconds"] for e in chosen),
                             "tokens": chosen[0]["n_tokens"], "state_bytes": chosen[0]["size"]}
    summary["file_bytes"] = records["first"][0]["file_bytes"]
    for name, row in summary.items():
        print(f"  {name}: {row}", file=sys.stderr)
    print(json.dumps({"summary": summary, "processes": records}))


def main() -> None:
    """Load the model (timed), then the runs; JSON on stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshots", action="store_true", help="measure prefix snapshots in fresh processes")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --snapshots processes")
    parser.add_argument("--one-process", metavar="DIR", help="(internal) one --snapshots process: DIR or off")
    parser.add_argument("--task", default=TASK, help="(internal) the task of --one-process")
    arguments = parser.parse_args()
    if arguments.one_process:
        one_process(arguments.one_process, arguments.task)
        return
    if arguments.snapshots:
        snapshot_rounds(arguments.rounds)
        return
    started = time.perf_counter()
    llm = load_chat_model("local")
    assert isinstance(llm, ChatLocalLlama)
    llm = llm.model_copy(update={"prefix_cache_dir": None})  # these runs measure llama.cpp's own reuse only
    llm.llama()
    load = time.perf_counter() - started
    llm.invoke([HumanMessage("Say OK.")], max_tokens=4)  # page the weights in
    print(f"  embedded: model loaded in {load:.1f} s ({llm.n_threads} threads)", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-embedded-") as workspace:
        tools = default_tools(Path(workspace), load_embeddings("local"))
        first = FirstPrompt()
        runs = [run(llm, tools, mode, first) for mode in ("cold", "warm", "primed", "no reuse")]
    print(json.dumps({"load_s": load, "threads": llm.n_threads, "n_tools": len(tools), "runs": runs}))


if __name__ == "__main__":
    main()
