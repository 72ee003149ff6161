"""A fallback model: when the run's model fails after its retries, the same run goes on with the fallback from the
step that failed; a warning says so, the steps it answered name it (transcript, --json, events), the budget covers
both, and the next run begins on the agent's own model again."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from autoagent import AutoGPT
from autoagent.report import JSON_SHAPE
from autoagent.run_json import run_to_json
from autoagent.steps import StopReason
from autoagent.tools import calculator
from autoagent.transcripts.reader import load_transcript
from autoagent.transcripts.writer import TranscriptWriter

from .cli_backend import FakeBackend
from .scripted import ScriptedChatModel, act
from .test_events import Heard
from .test_report import shape_errors


class FailsAfter(ScriptedChatModel):
    """A scripted model whose server goes away after `working` replies."""

    working: int = 0

    def _generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        if len(self.prompts) >= self.working:
            self.prompts.append("")
            raise RuntimeError("the server went away")  # not retried: it fails at once
        return super()._generate(messages, *args, **kwargs)


class Backup(ScriptedChatModel):
    model_name: str = "backup-model"


def test_the_run_goes_on_with_the_fallback_from_the_step_that_failed(tmp_path: Path) -> None:
    primary = FailsAfter(replies=[act("calculator", expression="6*7")], working=1)
    backup = Backup(replies=[act("FINISH"), "42"])
    agent = AutoGPT(primary, tools=[calculator], fallback=backup)
    heard = Heard()
    run = agent.execute("What is 6 * 7?", observers=[heard, TranscriptWriter({}, directory=tmp_path)])

    assert run.finished and run.answer == "42"
    first, second = run.steps
    assert (first.model, second.model) == ("", "backup-model") and second.number == 2
    warnings = [event.message for event in heard.events if event.type == "warning"]
    assert len(warnings) == 1 and "the server went away" in warnings[0] and "backup-model" in warnings[0]
    assert run.usage.calls == 1 + 2 and run.usage.input_tokens == sum(
        len(prompt.split()) for prompt in [*primary.prompts, *backup.prompts])  # both models' calls counted
    report = run_to_json(run)
    assert shape_errors(report, JSON_SHAPE) == [] and "model" not in report["steps"][0]
    assert report["steps"][1]["model"] == "backup-model"
    assert [step.model for step in load_transcript(run.run_id, tmp_path).steps] == ["", "backup-model"]
    completed = [event for event in heard.events if event.type == "step_completed"]
    assert [event.model for event in completed] == ["", "backup-model"]

    assert agent.llm is primary and agent.drafter.llm is primary  # the next run begins on its own model


def test_without_a_fallback_or_when_the_fallback_fails_too_the_run_stops_with_the_error() -> None:
    lone = AutoGPT(FailsAfter(replies=[]), tools=[calculator])
    with pytest.raises(Exception, match="the server went away"):
        lone.execute("What is 6 * 7?")
    assert lone.last_run is not None and lone.last_run.stop_reason is StopReason.ERROR

    both = AutoGPT(FailsAfter(replies=[]), tools=[calculator], fallback=FailsAfter(replies=[]))
    with pytest.raises(Exception, match="the server went away"):
        both.execute("What is 6 * 7?")


def test_the_cli_loads_the_fallback_and_says_so(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.llm

    from .cli_backend import invoke

    made: list[tuple[str | None, str | None]] = []

    def load(spec: str | None = None, *, base_url: str | None = None, **_: object) -> ScriptedChatModel:
        made.append((spec, base_url))
        if spec == "openai:backup":
            return Backup(replies=[act("FINISH"), "42"])
        return FailsAfter(replies=[act("calculator", expression="6*7")], working=1)

    monkeypatch.setattr(autoagent.llm, "load_chat_model", load)
    result = invoke(["--json", "--no-memory", "--fallback-model", "openai:backup", "--fallback-base-url",
                     "http://127.0.0.1:9/v1", "6*7?"], [], backend)
    assert result.exit_code == 0 and ("openai:backup", "http://127.0.0.1:9/v1") in made
    report = json.loads(result.stdout)
    assert report["finished"] and report["steps"][1]["model"] == "backup-model"
    assert "the run goes on with the fallback model backup-model" in result.stderr


def test_a_model_server_stopped_mid_run_leaves_the_run_to_the_fallback(monkeypatch: pytest.MonkeyPatch,
                                                                       isolated_home: Path) -> None:
    import threading

    from click.testing import CliRunner

    from autoagent.cli import cli

    from .fake_openai import FakeOpenAI

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("AUTOAGENT_RETRY_BASE_DELAY", "0.01")  # the retries, quickly
    first, second = FakeOpenAI(act("calculator", expression="6*7")), FakeOpenAI(act("FINISH"), "42")

    def stop_after_one_reply() -> None:
        first.wait_for_requests(1)
        time.sleep(0.3)
        first.close()  # the server goes away mid-run

    stopper = threading.Thread(target=stop_after_one_reply)
    stopper.start()
    try:
        result = CliRunner().invoke(cli, ["--json", "--no-memory", "--model", "openai:gpt-4o-mini", "--base-url",
                                          first.base_url, "--fallback-model", "openai:gpt-4o-mini",
                                          "--fallback-base-url", second.base_url, "6*7?"])
    finally:
        stopper.join()
        second.close()
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["finished"] and report["answer"] == "42"
    assert "model" not in report["steps"][0] and report["steps"][1]["model"] == "gpt-4o-mini"
    assert "the run goes on with the fallback model gpt-4o-mini" in result.stderr
    [transcript] = (isolated_home / "runs").glob("*.jsonl")
    assert "the run goes on with the fallback model" in transcript.read_text()  # the switch, recorded
