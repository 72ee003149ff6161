"""Run transcripts: written and synced step by step, read back faithfully, resumed, and free of secrets."""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.errors import ConfigurationError
from autoagent.redact import REDACTED, Redactor, collect_secrets, is_secret_name
from autoagent.reply import ThoughtAndAction
from autoagent.steps import RunResult, Step, StepKind, StopReason, Usage
from autoagent.transcripts.reader import TAIL_BLOCK, list_transcripts, load_transcript
from autoagent.transcripts.writer import TranscriptWriter, new_run_id, runs_dir

from .scripted import ScriptedChatModel, act

SETTINGS = {"model": "openai:gpt-4o-mini", "max_steps": 5, "protocol": "json"}


def decision(name: str, thought: str = "working on it", call_id: str = "", **args: Any) -> ThoughtAndAction:
    return ThoughtAndAction.model_validate({"thought": {"text": thought}, "action": {"name": name, "args": args,
                                                                                     "call_id": call_id}})


def sample_steps() -> list[Step]:
    """One step of each kind, with the fields a faithful rebuild must keep."""
    full = ThoughtAndAction.model_validate({
        "thought": {"text": "multiply", "reasoning": "it is asked", "plan": ["multiply", "finish"],
                    "criticism": "none", "speak": "on it"},
        "action": {"name": "multiply", "args": {"a": 6, "b": 7, "note": "café ☕", "nested": {"x": [1, 2.5, None]}}}})
    return [
        Step(1, StepKind.ACTION, '{"thought": ...}', full, "42", seconds=1.234567, input_tokens=120, output_tokens=31),
        Step(2, StepKind.PARSE_ERROR, "not json at all", None, "no JSON object found", success=False, seconds=0.5),
        Step(3, StepKind.REPEATED, "again", decision("multiply", a=6, b=7), "you did that at step 1", success=False),
        Step(4, StepKind.ACTION, "", decision("explode", call_id="call_7", reason="x"), "Error: boom\nline 2",
             success=False, seconds=0.01, input_tokens=7, output_tokens=3),
        Step(5, StepKind.FINISH, "done", decision("FINISH"), "", input_tokens=9, output_tokens=2),
    ]


def write_run(directory: Path, steps: list[Step], *, task: str = "What is 6 times 7?", run_id: str | None = None,
              stop: StopReason | None = StopReason.FINISHED, answer: str = "42",
              settings: dict[str, Any] | None = None) -> RunResult:
    """Drive a writer through a run as the agent does; `stop=None` leaves it killed (no end record)."""
    writer = TranscriptWriter(settings or SETTINGS, run_id=run_id, directory=directory)
    run = RunResult(task=task)
    writer.on_run_start(run, 5)
    for step in steps:
        run.steps.append(step)
        writer.on_step(step)
    if stop is not None:
        run.stop_reason, run.answer, run.seconds = stop, answer, 2.5
        run.usage = Usage(calls=len(steps) + 1, input_tokens=300, output_tokens=40, estimated=True, cost_usd=0.00012)
        writer.on_run_end(run)
    return run


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_run_ids_sort_by_time_and_differ() -> None:
    ids = {new_run_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{4}", run_id) for run_id in ids)
    assert runs_dir() == Path(os.environ["AUTOAGENT_HOME"]) / "runs"


def test_each_record_is_on_disk_as_soon_as_it_is_written(tmp_path: Path) -> None:
    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    run = RunResult(task="What is 6 times 7?")
    writer.on_run_start(run, 5)
    assert run.run_id and writer.path == tmp_path / f"{run.run_id}.jsonl"
    step = sample_steps()[0]
    assert step.decision is not None
    writer.on_step(step)

    start, written = records(writer.path)  # the run is still open
    assert set(start) == {"type", "run_id", "task", "settings", "started", "version", "max_steps"}
    assert (start["type"], start["run_id"], start["task"], start["settings"], start["max_steps"]) == (
        "start", run.run_id, "What is 6 times 7?", SETTINGS, 5)
    assert written == {"type": "step", "number": 1, "kind": "action", "reply": step.reply,
                       "decision": {**step.decision.model_dump(), "action": {**step.decision.action.model_dump(),
                                                                             "call_id": ""}},
                       "observation": "42", "success": True, "seconds": 1.234567, "input_tokens": 120,
                       "output_tokens": 31, "check": "", "in_reply_of": 0}

    writer.on_plan(["multiply", "finish"])
    writer.on_warning("80% of the token budget is spent")
    run.stop_reason, run.answer = StopReason.BUDGET, "about 42"
    run.usage = Usage(calls=2, input_tokens=10, output_tokens=4, estimated=True, cost_usd=None)
    writer.on_run_end(run)
    plan, warning, end = records(writer.path)[2:]
    assert plan == {"type": "plan", "plan": ["multiply", "finish"]}
    assert warning["message"] == "80% of the token budget is spent" and warning["time"]
    assert end == {"type": "end", "stop_reason": "budget", "stop_detail": "", "answer": "about 42", "model_answer": "",
                   "steps": 1,
                   "seconds": 0.0, "usage": {"calls": 2, "input_tokens": 10, "output_tokens": 4, "estimated": True,
                                             "cost_usd": None}}


def test_a_given_run_id_is_used_and_set_on_the_run(tmp_path: Path) -> None:
    run = write_run(tmp_path, [], run_id="my-run")
    assert run.run_id == "my-run" and (tmp_path / "my-run.jsonl").is_file()


def test_rebuilt_steps_equal_the_originals(tmp_path: Path) -> None:
    steps = sample_steps()
    run = write_run(tmp_path, steps)

    transcript = load_transcript(run.run_id, tmp_path)

    assert transcript.steps == steps
    assert transcript.steps[3].decision is not None and transcript.steps[3].decision.action.call_id == "call_7"
    assert (transcript.task, transcript.settings, transcript.max_steps) == ("What is 6 times 7?", SETTINGS, 5)
    assert (transcript.stop_reason, transcript.answer, transcript.status) == (StopReason.FINISHED, "42", "finished")
    assert transcript.usage == {"calls": 6, "input_tokens": 300, "output_tokens": 40, "estimated": True,
                                "cost_usd": 0.00012}
    assert not transcript.resumable and transcript.last_step == 5


def test_a_resumed_run_appends_to_its_transcript(tmp_path: Path) -> None:
    steps = sample_steps()
    first = write_run(tmp_path, steps[:2], stop=StopReason.BUDGET, answer="")
    interrupted = load_transcript(first.run_id, tmp_path)
    assert interrupted.resumable and interrupted.status == "stopped: budget" and interrupted.last_step == 2

    # What `autoagent --resume` does: the transcript's task, settings and steps, then the rest of the run.
    writer = TranscriptWriter({**interrupted.settings, "max_steps": 10}, directory=tmp_path)
    run = RunResult(task=interrupted.task, run_id=interrupted.run_id, steps=list(interrupted.steps))
    writer.on_run_start(run, 10)
    assert records(interrupted.path)[-1]["type"] == "resume"
    assert not load_transcript(first.run_id, tmp_path).stop_reason  # resumed: no longer ended
    for step in steps[2:]:
        run.steps.append(step)
        writer.on_step(step)
    run.stop_reason, run.answer = StopReason.FINISHED, "42"
    writer.on_run_end(run)

    types = [record["type"] for record in records(interrupted.path)]
    assert types == ["start", "step", "step", "end", "resume", "step", "step", "step", "end"]
    resume = records(interrupted.path)[4]
    assert resume["from_step"] == 3 and resume["settings"]["max_steps"] == 10 and resume["time"]
    resumed = load_transcript(first.run_id, tmp_path)
    assert resumed.steps == steps and resumed.stop_reason is StopReason.FINISHED and not resumed.resumable
    assert resumed.settings["max_steps"] == 10 and resumed.task == "What is 6 times 7?"
    assert [(summary.status, summary.steps) for summary in list_transcripts(tmp_path)] == [("finished", 5)]


def test_a_resume_from_an_earlier_step_drops_the_steps_after_it(tmp_path: Path) -> None:
    steps = sample_steps()
    run = write_run(tmp_path, steps[:3], stop=None)
    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    writer.on_run_start(RunResult(task=run.task, run_id=run.run_id, steps=steps[:1]), 5)
    assert load_transcript(run.run_id, tmp_path).steps == steps[:1]


def test_a_resumed_run_whose_transcript_is_gone_starts_a_whole_one(tmp_path: Path) -> None:
    steps = sample_steps()
    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    writer.on_run_start(RunResult(task="t", run_id="elsewhere", steps=steps[:2]), 5)
    assert [record["type"] for record in records(tmp_path / "elsewhere.jsonl")] == ["start", "step", "step"]
    assert load_transcript("elsewhere", tmp_path).steps == steps[:2]


def test_a_torn_last_line_is_skipped_and_a_resume_starts_on_a_new_line(tmp_path: Path) -> None:
    steps = sample_steps()
    run = write_run(tmp_path, steps[:2], stop=None)
    path = tmp_path / f"{run.run_id}.jsonl"
    with path.open("a", encoding="utf-8") as file:
        file.write('{"type": "step", "number": 3, "kind": "act')  # killed mid-write

    killed = load_transcript(run.run_id, tmp_path)
    assert killed.steps == steps[:2] and killed.stop_reason is None and killed.status == "killed"
    assert killed.resumable
    assert [(summary.status, summary.steps) for summary in list_transcripts(tmp_path)] == [("killed", 2)]

    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    resumed = RunResult(task=run.task, run_id=run.run_id, steps=list(killed.steps))
    writer.on_run_start(resumed, 5)
    writer.on_step(steps[2])
    assert load_transcript(run.run_id, tmp_path).steps == steps[:3]


def test_a_damaged_line_inside_a_transcript_is_an_error(tmp_path: Path) -> None:
    run = write_run(tmp_path, sample_steps()[:1], stop=None)
    path = tmp_path / f"{run.run_id}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], "garbage", lines[1]]) + "\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="damaged: record 2 is not JSON"):
        load_transcript(run.run_id, tmp_path)
    path.write_text(lines[0] + '\n{"type": "step", "number": 1, "kind": "dance"}\n', encoding="utf-8")
    with pytest.raises(ConfigurationError, match="damaged: record 2"):
        load_transcript(run.run_id, tmp_path)
    path.write_text("", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="no start record"):
        load_transcript(run.run_id, tmp_path)


def test_ids_are_found_by_unique_prefix_and_unknown_or_ambiguous_ones_fail(tmp_path: Path) -> None:
    for run_id in ("20260101-090000-aaaa", "20260101-090000-aaab", "20260102-100000-cccc", "abc", "abcd"):
        write_run(tmp_path, [], run_id=run_id, task=f"task {run_id}")

    assert load_transcript("20260102", tmp_path).task == "task 20260102-100000-cccc"
    assert load_transcript("20260101-090000-aaab", tmp_path).run_id == "20260101-090000-aaab"
    assert load_transcript("abc", tmp_path).run_id == "abc"  # an exact id wins over the ids it starts
    with pytest.raises(ConfigurationError, match=r"the id '20260101' is ambiguous: it starts 2 runs "
                                                 r"\(20260101-090000-aaab, 20260101-090000-aaaa\)"):
        load_transcript("20260101", tmp_path)
    with pytest.raises(ConfigurationError, match=r"no run with id 'zzz' in .*autoagent runs list"):
        load_transcript("zzz", tmp_path)
    with pytest.raises(ConfigurationError, match="no run with id ''"):
        load_transcript("", tmp_path)
    with pytest.raises(ConfigurationError, match="no run with id"):
        load_transcript("anything", tmp_path / "missing")


def test_list_is_newest_first_with_each_status_and_reads_big_files_from_the_end(tmp_path: Path) -> None:
    steps = sample_steps()
    big = Step(1, StepKind.ACTION, "r", decision("flood"), "y" * (3 * TAIL_BLOCK))
    write_run(tmp_path, steps, run_id="20260101-090000-0001", task="first\ntask")
    write_run(tmp_path, steps[:2], run_id="20260101-090000-0002", stop=StopReason.MAX_STEPS)
    write_run(tmp_path, [big], run_id="20260101-090000-0003", stop=StopReason.INTERRUPTED)
    write_run(tmp_path, [big, steps[1]], run_id="20260101-090000-0004", stop=None)
    write_run(tmp_path, [], run_id="20260101-090000-0005", stop=None)

    summaries = list_transcripts(tmp_path)

    assert [(s.run_id[-4:], s.status, s.steps) for s in summaries] == [
        ("0005", "killed", 0), ("0004", "killed", 2), ("0003", "interrupted", 1), ("0002", "stopped: max_steps", 2),
        ("0001", "finished", 5)]
    assert summaries[-1].task == "first\ntask" and summaries[-1].started.endswith("+00:00")
    assert [s.run_id[-4:] for s in list_transcripts(tmp_path, limit=2)] == ["0005", "0004"]
    assert list_transcripts(tmp_path / "none") == []


def test_a_disk_problem_is_one_warning_and_the_run_goes_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        run = write_run(blocked, sample_steps())
    assert run.run_id
    assert len(caplog.records) == 1  # once, though every later record failed too
    assert caplog.records[0].getMessage().startswith(
        f"the transcript {blocked / run.run_id}.jsonl is not written further: [Errno")


# Secrets --------------------------------------------------------------------------------------------------------

ENV_SECRET = "sk-env-0123456789abcdef"
FILE_SECRET = "serp-file-secret-987654"
CWD_SECRET = "tok-cwd-secret-555555"


@pytest.fixture
def secrets_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A key in the environment, one in $AUTOAGENT_HOME/api_keys.env and one in ./api_keys.env."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_SECRET)
    monkeypatch.setenv("AUTOAGENT_MODEL", "openai:gpt-4o-mini")  # a long value, but no secret
    home = Path(os.environ["AUTOAGENT_HOME"])
    (home / "api_keys.env").write_text(f"SERPAPI_API_KEY={FILE_SECRET}\nSHORT_KEY=abc12\nAUTOAGENT_LANG=english\n")
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    (workdir / "api_keys.env").write_text(f'export MY_SERVICE_TOKEN="{CWD_SECRET}"\n')
    monkeypatch.chdir(workdir)
    return workdir


def test_secret_names_and_values(secrets_set: Path) -> None:
    assert all(is_secret_name(name) for name in ("OPENAI_API_KEY", "amap_api_key", "GH_TOKEN", "DB_PASSWORD",
                                                 "client-secret", "api_key", "KEY"))
    assert not any(is_secret_name(name) for name in ("AUTOAGENT_MODEL", "MAX_TOKENS", "KEYBOARD", "MONKEY"))
    secrets = collect_secrets()
    assert {ENV_SECRET, FILE_SECRET, CWD_SECRET} <= secrets
    assert "abc12" not in secrets and "english" not in secrets and "openai:gpt-4o-mini" not in secrets
    redactor = Redactor([ENV_SECRET, ENV_SECRET[:10]])
    assert redactor.text(f"key={ENV_SECRET}; prefix={ENV_SECRET[:10]}") == f"key={REDACTED}; prefix={REDACTED}"
    assert redactor.record({ENV_SECRET: (1, None, Path(ENV_SECRET))}) == {REDACTED: [1, None, REDACTED]}


def test_transcripts_contain_no_secret_from_api_keys_env(secrets_set: Path, tmp_path: Path) -> None:
    secrets = (ENV_SECRET, FILE_SECRET, CWD_SECRET)
    leak = " ".join(secrets)

    @tool
    def show_config(setting: str) -> str:
        """Show a configuration value.

        Args:
            setting: the setting's name
        """
        return f"{setting} is {os.environ['OPENAI_API_KEY']}, serpapi is {FILE_SECRET}"

    settings = {"model": "openai:gpt-4o-mini", "openai_api_key": ENV_SECRET, "base_url": f"https://x/?k={CWD_SECRET}",
                "serpapi_api_key": "short"}
    writer = TranscriptWriter(settings, directory=tmp_path)
    started = RunResult(task=f"check that {leak} works")
    writer.on_run_start(started, 5)
    llm = ScriptedChatModel(replies=[act("show_config", thought=f"the key is {ENV_SECRET}", setting=CWD_SECRET),
                                     act("FINISH"), f"The keys are {leak}"])
    agent = AutoGPT(llm=llm, tools=[show_config], on_step=writer.on_step)
    run = agent.execute(started.task)
    writer.on_warning(f"retrying with {FILE_SECRET}")
    run.stop_detail = f"detail {leak}"
    run.run_id = started.run_id
    writer.on_run_end(run)

    assert ENV_SECRET in run.steps[0].observation and FILE_SECRET in run.answer  # the run itself saw them
    assert writer.path is not None
    text = writer.path.read_text(encoding="utf-8")
    assert not [secret for secret in secrets if secret in text]
    assert text.count(REDACTED) >= 10
    saved = records(writer.path)
    assert saved[0]["settings"] == {"model": "openai:gpt-4o-mini", "openai_api_key": REDACTED,
                                    "base_url": f"https://x/?k={REDACTED}", "serpapi_api_key": REDACTED}
    assert saved[1]["observation"] == f"{REDACTED} is {REDACTED}, serpapi is {REDACTED}"
    assert load_transcript(run.run_id, tmp_path).steps[0].decision == decision(
        "show_config", thought=f"the key is {REDACTED}", setting=REDACTED)


def test_a_secret_is_redacted_json_escaped_and_cut_short() -> None:
    from autoagent.acting.fence import truncate

    quoted, accented = 'pa"ss\\word-0123456789', "clé-secrète-0123456789"
    redactor = Redactor([quoted, accented, ENV_SECRET])
    for ensure_ascii in (True, False):
        written = json.dumps({"a": quoted, "b": accented}, ensure_ascii=ensure_ascii)
        assert redactor.text(written) == json.dumps({"a": REDACTED, "b": REDACTED})
    cut = truncate("x" * 1959 + ENV_SECRET + "y" * 100, 2000)  # the key's first 10 characters end the kept text
    assert redactor.text(cut) == "x" * 1959 + f"{REDACTED}\n[... {len(ENV_SECRET) - 10 + 100} more characters cut]"
    assert redactor.text(f"{ENV_SECRET[:9]} is too short to tell") == f"{ENV_SECRET[:9]} is too short to tell"


def test_records_nested_thousands_deep_are_redacted(tmp_path: Path) -> None:
    deep: Any = ENV_SECRET
    for _ in range(5000):
        deep = {"k": [deep]}
    copy = Redactor([ENV_SECRET]).record(deep)
    for _ in range(5000):
        copy = copy["k"][0]
    assert copy == REDACTED

    args: Any = ENV_SECRET
    for _ in range(600):
        args = [args]
    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    writer._redactor = Redactor([ENV_SECRET])
    writer.on_run_start(RunResult(task="deep"), 5)
    writer.on_step(Step(1, StepKind.ACTION, "{...}", decision("calculator", expression=args), "done"))
    assert writer.path is not None and ENV_SECRET not in writer.path.read_text(encoding="utf-8")
    assert [record["type"] for record in records(writer.path)] == ["start", "step"]


def test_undecodable_names_and_lone_surrogates_leave_transcript_and_memory_whole(tmp_path: Path) -> None:
    from autoagent.tools import default_tools
    from tests.test_memory_support import HashingEmbeddings, local_memory

    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with open(os.fsencode(workspace) + b"/caf\xe9.txt", "w"):  # a Latin-1 name: not valid UTF-8
        pass
    memory = local_memory(tmp_path / "memory")
    llm = ScriptedChatModel(replies=[act("list_files", thought="look \ud800"), act("FINISH"), "listed \ud800",
                                     "Listed the workspace: caf\udce9.txt \ud800"])
    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    agent = AutoGPT(llm=llm, tools=default_tools(workspace, HashingEmbeddings()), long_term_memory=memory)
    run = agent.execute("list the workspace", observers=[writer])

    assert run.stop_reason is StopReason.FINISHED and "caf\ufffd.txt" in run.steps[0].observation
    assert writer.path is not None
    assert [record["type"] for record in records(writer.path)] == ["start", "step", "step", "end"]
    assert load_transcript(run.run_id, tmp_path).answer == "listed \ufffd"
    assert [item.summary for item in memory.backend.store.entries()] == [  # type: ignore[attr-defined]
        "Listed the workspace: caf\ufffd.txt \ufffd"]


def test_a_run_is_locked_while_it_runs(tmp_path: Path) -> None:
    from autoagent.transcripts.writer import RunInUseError, run_lock

    writer = TranscriptWriter(SETTINGS, directory=tmp_path)
    run = RunResult(task="a long task")
    writer.on_run_start(run, 5)
    held = f"^run {run.run_id} is already running in another autoagent process"
    with pytest.raises(RunInUseError, match=held), run_lock(run.run_id, tmp_path):
        pass
    writer.on_run_end(run)
    with run_lock(run.run_id, tmp_path), pytest.raises(RunInUseError), run_lock(run.run_id, tmp_path):
        pass  # free once the run ended; then a resume holds it in turn


def test_transcripts_and_their_folder_are_private(tmp_path: Path) -> None:
    import stat

    folder = tmp_path / "runs"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # as an older version left it
    older = write_run(folder, sample_steps()[:1], stop=None)
    path = folder / f"{older.run_id}.jsonl"
    os.chmod(path, 0o644)
    umask = os.umask(0o022)  # the usual umask, whatever the test runner's
    try:
        fresh = write_run(folder, sample_steps())
        write_run(folder, sample_steps()[1:2], run_id=older.run_id)  # resumed: appended to the older file
    finally:
        os.umask(umask)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in (f"{fresh.run_id}.jsonl", f"{older.run_id}.jsonl", f"{fresh.run_id}.lock"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
