"""The event stream on the real embedded model: `stream` yields a whole run's events in order, leaving it after two
events stops the run at its next model call with a transcript that `--resume` continues, and `astream` and
`aexecute` run it from asyncio. Properties of any run, never one trajectory (other CPUs give other tokens)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.llm.local import ChatLocalLlama
from autoagent.steps import StopReason
from autoagent.tools import default_tools
from autoagent.transcripts.reader import load_transcript
from autoagent.transcripts.writer import TranscriptWriter

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
TASK = "What is 1234 * 5678 + 17?"


def embedded_agent(local_weights: Path, workspace: Path) -> AutoGPT:
    llm = ChatLocalLlama(model_path=str(local_weights))
    llm.llama().reset()
    return AutoGPT(llm, default_tools(workspace), compact_thoughts=True, max_thought_steps=5, advisors=[Coach()])


def test_a_stream_left_early_on_the_embedded_model_resumes_from_its_transcript(local_weights: Path,
                                                                                tmp_path: Path) -> None:
    agent = embedded_agent(local_weights, tmp_path / "workspace")
    seen = []
    for event in agent.stream(TASK, observers=[TranscriptWriter({"model": "local"}, directory=tmp_path)]):
        seen.append(event.type)
        if len(seen) == 2:
            break
    assert seen == ["run_started", "model_call_started"]
    stopped = agent.last_run
    assert stopped is not None and stopped.stop_reason is StopReason.INTERRUPTED and len(stopped.steps) == 1
    transcript = load_transcript(stopped.run_id, tmp_path)
    assert transcript.resumable and len(transcript.steps) == 1

    resumed = agent.execute(TASK, resume=transcript.steps, run_id=stopped.run_id,
                            observers=[TranscriptWriter({}, run_id=stopped.run_id, directory=tmp_path)])
    print(f"\n[measure] resumed: {resumed.stop_reason.value}, {len(resumed.steps)} steps, {resumed.answer!r}")
    kept = resumed.steps[0]
    assert (kept.number, kept.observation) == (1, stopped.steps[0].observation) and len(resumed.steps) > 1
    assert resumed.stop_reason is not StopReason.INTERRUPTED


def test_astream_and_aexecute_on_the_embedded_model(local_weights: Path, tmp_path: Path) -> None:
    agent = embedded_agent(local_weights, tmp_path / "workspace")

    async def main() -> tuple[list[str], StopReason]:
        types = [event.type async for event in agent.astream(TASK)]
        result = await agent.aexecute(TASK)
        return types, result.stop_reason

    types, reason = asyncio.run(main())
    assert types[0] == "run_started" and types[-1] == "run_ended" and "step_completed" in types
    assert types.index("model_call_started") < types.index("model_call_ended") < types.index("step_completed")
    assert reason is not StopReason.INTERRUPTED and reason is not StopReason.ERROR
