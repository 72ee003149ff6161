"""The agent half of a peer run, started by the runner inside bench/.venvs/peers: one smolagents run per job.

Reads one job a line on stdin ({"id", "task", "workspace", "agent", "model", "transcript"}; the workspace already
laid out) and writes events a line on stdout: {"event": "started"} once the agent is built and the server's prompt
cache warmed (the runner's time limit starts there), {"event": "step", "steps": N} after each action step, and
{"event": "result", "record": {...}} (see records.py). Anything else printed goes to stderr, the runner's log.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import IO, Any

from smolagents import MultiStepAgent, ToolCallingAgent
from smolagents.memory import ActionStep, SystemPromptStep, TaskStep
from smolagents.utils import AgentMaxStepsError

from .adapters import build_agent, peer_tools, server_model
from .records import AGENTS, ERROR, FINISHED, MAX_STEPS, answer_text, task_record, usage_record

# What a step's transcript keeps: the model's reply and what came of it, not the prompt it was sent each step.
TRANSCRIPT_FIELDS = ("step_number", "model_output", "code_action", "tool_calls", "observations", "action_output",
                     "error", "token_usage", "timing", "is_final_answer")


class Events:
    """The protocol stream to the runner: one JSON object a line, flushed at once."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def emit(self, event: str, **fields: Any) -> None:
        """Write one event."""
        self.stream.write(json.dumps({"event": event, **fields}, ensure_ascii=False, default=str) + "\n")
        self.stream.flush()


def warm_up(agent: MultiStepAgent, base_url: str, model_id: str) -> None:
    """Send the agent's system prompt (and its tools, as a step sends them) for a one-token reply, so the server's
    prompt cache holds it before the clock starts: a max-steps run's forced-answer prompt evicts it, and the next
    task would pay about 45-50 s more for a cause that is no part of its own run."""
    model = server_model(base_url, model_id, max_tokens=1)  # a model's own max_tokens overrides one passed per call
    messages = [*SystemPromptStep(system_prompt=agent.system_prompt).to_messages(),
                *TaskStep(task="warm-up").to_messages()]
    tools = agent.tools_and_managed_agents if isinstance(agent, ToolCallingAgent) else None
    model.generate(messages, tools_to_call_from=tools)


def run_job(job: dict[str, Any], base_url: str, model_id: str, max_steps: int, events: Events) -> dict[str, Any]:
    """Build the agent for one job, warm the server, run the task, and return its record (an error is a record)."""
    started = time.monotonic()
    agent: MultiStepAgent | None = None
    seconds = 0.0
    transcript = Path(job["transcript"]) if job.get("transcript") else None

    def on_step(step: ActionStep) -> None:
        events.emit("step", steps=_step_number(step))
        if agent is not None and transcript is not None:  # after each step: a run stopped by the time limit keeps it
            write_transcript([*_actions(agent), step], transcript)  # the step joins memory after its callbacks

    try:
        agent = build_agent(job["agent"], peer_tools(Path(job["workspace"])), server_model(base_url, model_id),
                            max_steps, on_step=on_step)
        warm_up(agent, base_url, model_id)
        events.emit("started")
        clock = time.monotonic()
        try:
            result = agent.run(job["task"], return_full_result=True)
        finally:
            seconds = time.monotonic() - clock
        finished = result.state == "success"
        return task_record(
            job, stop_reason=FINISHED if finished else MAX_STEPS, answer=answer_text(result.output),
            stop_detail="" if finished else f"reached the {max_steps}-step limit; the answer is smolagents' forced "
                                            "final answer",
            steps=count_steps(agent), seconds=seconds, usage=usage(agent), wall_seconds=time.monotonic() - started)
    except Exception as err:  # the server, the agent or our adapter failed: the record says which, the batch goes on
        return task_record(job, stop_reason=ERROR, stop_detail=f"{type(err).__name__}: {err}",
                           steps=count_steps(agent) if agent else 0, seconds=seconds,
                           usage=usage(agent) if agent else None, wall_seconds=time.monotonic() - started)
    finally:
        if agent is not None and transcript is not None:
            write_transcript(_actions(agent), transcript)


def _step_number(step: ActionStep) -> int:
    """The action steps taken once `step` is done (the forced final answer after the last step is none)."""
    return step.step_number - 1 if isinstance(step.error, AgentMaxStepsError) else step.step_number


def _actions(agent: MultiStepAgent) -> list[ActionStep]:
    """The agent's action steps in memory, the forced final answer's included."""
    return [step for step in agent.memory.steps if isinstance(step, ActionStep)]


def count_steps(agent: MultiStepAgent) -> int:
    """Action steps taken: the forced final answer after the step limit does not count, as in autoagent."""
    return sum(1 for step in _actions(agent) if not isinstance(step.error, AgentMaxStepsError))


def usage(agent: MultiStepAgent) -> dict[str, Any]:
    """Model calls and tokens as the server reported them, summed over the action steps."""
    actions = _actions(agent)
    counted = [step.token_usage for step in actions if step.token_usage is not None]
    return usage_record(len(actions), sum(u.input_tokens for u in counted), sum(u.output_tokens for u in counted))


def write_transcript(steps: list[ActionStep], path: Path) -> None:
    """The run's action steps as JSON beside the results, for reading what the peer did."""
    kept = [{name: value for name, value in step.dict().items() if name in TRANSCRIPT_FIELDS} for step in steps]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(kept, ensure_ascii=False, indent=1, default=str), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Serve jobs from stdin until it closes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="the OpenAI-compatible server, http://HOST:PORT/v1")
    parser.add_argument("--model-id", required=True, help="the model's name on that server")
    parser.add_argument("--max-steps", type=int, default=8, help="action steps before smolagents forces an answer")
    options = parser.parse_args(argv)
    # Keep the protocol stream to ourselves: whatever else writes to stdout (a tool, smolagents) goes to stderr.
    events = Events(os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8"))
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    for line in sys.stdin:
        if line.strip():
            job = json.loads(line)
            if job["agent"] not in AGENTS:
                raise SystemExit(f"unknown agent {job['agent']!r}")
            events.emit("result", record=run_job(job, options.base_url, options.model_id, options.max_steps, events))


if __name__ == "__main__":
    main()
