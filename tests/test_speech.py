"""Speak mode offline: the Speaker's one-line queue, cut short by the next line and by stop/close, with a fake
engine and a fake player; the voice for each language; the observer's lines; --speak and /speak end to end."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from autoagent.commands.speaking import SpeechSwitch
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.speech import (
    SpeakAloud,
    Speaker,
    SpeechUnavailable,
    Voice,
    choose_voice,
    open_engine,
    speakable,
    spoken_line,
)
from autoagent.steps import RunResult, Step, StepKind, StopReason

from .cli_backend import FakeBackend, invoke
from .scripted import act

# A player that logs "<pid> <text>" and then plays for 30 s when the line says "long", at once otherwise.
PLAYER = """\
import os, sys, time
text = open(sys.argv[2], encoding="utf-8").read()
with open(sys.argv[1], "a", encoding="utf-8") as log:
    log.write(f"{os.getpid()} {text}\\n")
time.sleep(30 if "long" in text else 0)
"""


class FakeEngine:
    """Writes the line's text as the 'speech'; `gate` (when given) holds each line until it is set."""

    name = "fake"

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.lines: list[str] = []

    def voices(self) -> list[Voice]:
        return [Voice("gmw/en-us", "en-us"), Voice("sit/cmn", "cmn")]

    def synthesize(self, text: str, voice: str | None, path: Path) -> None:
        self.lines.append(text)
        if self.gate is not None:
            assert self.gate.wait(10)
        path.write_text(text, encoding="utf-8")


class RecordingSpeaker:
    """Stands in for a Speaker: records what it was told."""

    def __init__(self, lang: str = "en") -> None:
        self.engine, self.voice = FakeEngine(), f"voice-{lang}"
        self.said: list[str] = []
        self.stops = 0
        self.closed = False

    def say(self, text: str) -> None:
        self.said.append(text)

    def stop(self) -> None:
        self.stops += 1

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def player(tmp_path: Path) -> tuple[list[str], Path]:
    """The fake player's command and its log."""
    script, log = tmp_path / "player.py", tmp_path / "played.log"
    script.write_text(PLAYER, encoding="utf-8")
    return [sys.executable, str(script), str(log)], log


def played(log: Path) -> list[tuple[int, str]]:
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return [(int(pid), text) for pid, text in (line.split(" ", 1) for line in lines)]


def wait_for(condition: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def is_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_say_returns_at_once_and_a_new_line_replaces_the_one_waiting(player: tuple[list[str], Path]) -> None:
    gate = threading.Event()
    engine = FakeEngine(gate)
    with Speaker(engine, player=player[0]) as speaker:
        speaker.say("one")
        wait_for(lambda: engine.lines == ["one"])
        started = time.monotonic()
        speaker.say("two")
        speaker.say("three")
        assert time.monotonic() - started < 0.5  # the engine is still held: say never waits for it
        gate.set()
        assert speaker.wait(10)
    assert engine.lines == ["one", "three"]  # "two" was replaced while it waited
    assert [text for _, text in played(player[1])] == ["three"]  # "one" was cut short before it was played


def test_the_next_line_cuts_the_one_being_said_short(player: tuple[list[str], Path]) -> None:
    with Speaker(FakeEngine(), player=player[0]) as speaker:
        speaker.say("a long line")
        wait_for(lambda: played(player[1]))
        started = time.monotonic()
        speaker.say("short")
        assert speaker.wait(10)
        assert time.monotonic() - started < 5  # not the 30 s the long line plays for
    (first, _), (_, second) = played(player[1])
    assert second == "short" and is_gone(first)


@pytest.mark.parametrize("silence", ["stop", "close"])
def test_stop_and_close_silence_at_once(player: tuple[list[str], Path], silence: str) -> None:
    speaker = Speaker(FakeEngine(), player=player[0])
    speaker.say("a long line")
    wait_for(lambda: played(player[1]))
    started = time.monotonic()
    getattr(speaker, silence)()
    assert speaker.wait(5) and time.monotonic() - started < 5
    wait_for(lambda: is_gone(played(player[1])[0][0]))
    speaker.say("after")  # after stop it speaks again; after close it never does
    speaker.wait(5)
    assert len(played(player[1])) == (2 if silence == "stop" else 1)
    speaker.close()


def test_to_file_writes_the_line_instead_of_playing_it(tmp_path: Path) -> None:
    with Speaker(FakeEngine(), to_file=tmp_path / "out.wav") as speaker:
        assert speaker.player == []
        speaker.say("hello")
        assert speaker.wait(5)
    assert (tmp_path / "out.wav").read_text() == "hello"


def test_a_failing_engine_or_player_is_one_line_and_the_speaker_goes_on(player: tuple[list[str], Path]) -> None:
    class Broken(FakeEngine):
        def synthesize(self, text: str, voice: str | None, path: Path) -> None:
            raise OSError("no voice data")

    problems: list[str] = []
    with Speaker(Broken(), player=player[0], on_problem=problems.append) as speaker:
        for text in ("one", "two"):
            speaker.say(text)
            assert speaker.wait(5)
    assert problems == ["speech: no voice data"]  # each problem once
    with Speaker(FakeEngine(), player=[sys.executable, "-c", "import sys; sys.exit('no sound device')"],
                 on_problem=problems.append) as speaker:
        speaker.say("one")
        assert speaker.wait(10)
    assert problems[1] == f"speech: {Path(sys.executable).name} could not play it (no sound device)"


@pytest.mark.parametrize(("lang", "voices", "chosen"), [
    ("en", [Voice("gmw/en", "en-gb"), Voice("gmw/en-us", "en-us")], "gmw/en-us"),
    ("en", [Voice("gmw/en", "en-gb")], "gmw/en"),
    ("zh", [Voice("mb/mb-cn1", "zh"), Voice("sit/yue", "yue"), Voice("sit/cmn", "cmn")], "sit/cmn"),
    ("zh", [Voice("mb/mb-cn1", "zh"), Voice("gmw/en", "en-gb")], None),  # mbrola's voices need mbrola
    ("en", [Voice("gmw/en-gb-scotland", "en-gb-scotland")], "gmw/en-gb-scotland"),
    ("fr", [Voice("roa/fr", "fr-fr")], "roa/fr"),
    ("zh", [], None),
])
def test_the_voice_follows_the_prompts_language(lang: str, voices: list[Voice], chosen: str | None) -> None:
    assert choose_voice(lang, voices) == chosen


def step(kind: StepKind = StepKind.ACTION, text: str = "look it up", speak: str = "") -> Step:
    decision = ThoughtAndAction(thought=Thought(text=text, speak=speak), action=Action(name="search"))
    return Step(number=1, kind=kind, reply="", decision=decision, observation="")


def test_a_step_says_its_speak_line_else_its_thought() -> None:
    assert spoken_line(step(speak="I will search the web.")) == "I will search the web."
    assert spoken_line(step()) == "look it up"
    assert spoken_line(step(StepKind.FINISH)) == ""  # the answer follows at once
    assert spoken_line(Step(number=1, kind=StepKind.PARSE_ERROR, reply="?", decision=None, observation="")) == ""


def test_speakable_reads_no_markup_or_code() -> None:
    assert speakable("**Paris** is `sunny`:\n```python\nprint(1)\n```\nsee [the map](http://x)") == \
        "Paris is sunny: see the map"
    assert speakable("# Result\n> quoted\n| a | b |\nx > 5 in C#") == "Result quoted a b x > 5 in C#"
    assert len(speakable("word " * 500)) == 600 and speakable("word " * 500).endswith("…")


def test_the_observer_says_steps_and_the_answer_and_an_interrupt_silences_it() -> None:
    speaker = RecordingSpeaker()
    observer = SpeakAloud(speaker)  # type: ignore[arg-type]
    observer.on_step(step(speak="checking"))
    observer.on_step(step(StepKind.FINISH))
    observer.on_answer(RunResult(task="t", answer="It is **42**.", stop_reason=StopReason.FINISHED))
    observer.on_run_end(RunResult(task="t", answer="It is **42**.", stop_reason=StopReason.FINISHED))
    assert speaker.said == ["checking", "It is 42."] and speaker.stops == 0
    planned = SpeakAloud(speaker)  # type: ignore[arg-type]
    planned.on_run_end(RunResult(task="t", answer="done", stop_reason=StopReason.FINISHED))  # plan mode: no event
    assert speaker.said[-1] == "done"
    SpeakAloud(speaker).on_run_end(RunResult(task="t", stop_reason=StopReason.INTERRUPTED))  # type: ignore[arg-type]
    assert speaker.stops == 1


@pytest.fixture
def speakers(monkeypatch: pytest.MonkeyPatch) -> list[RecordingSpeaker]:
    """Every Speaker the CLI opens, recording."""
    import autoagent.speech

    made: list[RecordingSpeaker] = []

    def open_speaker(lang: str = "en", **_: Any) -> RecordingSpeaker:
        made.append(RecordingSpeaker(lang))
        return made[-1]

    monkeypatch.setattr(autoagent.speech, "open_speaker", open_speaker)
    return made


def reply(tool: str, text: str, speak: str = "", **args: Any) -> str:
    thought = {"text": text, "reasoning": "", "plan": [], "criticism": "", "speak": speak}
    return json.dumps({"thought": thought, "action": {"name": tool, "args": args}})


def test_speak_says_each_step_and_the_answer(backend: FakeBackend, speakers: list[RecordingSpeaker],
                                             tmp_path: Path) -> None:
    replies = [reply("calculator", "compute it", "Let me work that out.", expression="6 * 7"),
               reply("calculator", "check it", expression="42 / 6"), act("FINISH"), "**42**"]
    result = invoke(["--speak", "--thoughts", "full", "--workspace", str(tmp_path), "What is 6*7?"], replies, backend)
    assert result.exit_code == 0, result.output
    assert result.stdout == "**42**\n"
    (speaker,) = speakers
    assert speaker.voice == "voice-en"
    assert speaker.said == ["Let me work that out.", "check it", "42"] and speaker.closed


def test_speak_uses_the_prompts_language(backend: FakeBackend, speakers: list[RecordingSpeaker]) -> None:
    result = invoke(["--speak", "--lang", "zh", "--quiet", "中国的首都是哪里"], [act("FINISH"), "北京。"], backend)
    assert result.exit_code == 0, result.output
    assert speakers[0].voice == "voice-zh" and speakers[0].said == ["北京。"]


def test_without_speak_nothing_is_opened(backend: FakeBackend, speakers: list[RecordingSpeaker]) -> None:
    assert invoke(["--quiet", "hi"], [act("FINISH"), "hello"], backend).exit_code == 0
    assert speakers == []


def test_no_engine_is_one_line_and_the_run_goes_on(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyttsx3", None)  # pip's pyttsx3 missing: import fails
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng program either
    with pytest.raises(SpeechUnavailable, match="pyttsx3 is not installed, and there is no espeak-ng program"):
        open_engine()
    result = invoke(["--speak", "--quiet", "hi"], [act("FINISH"), "hello"], backend)
    assert result.exit_code == 0 and result.stdout == "hello\n"
    speech_lines = [line for line in result.stderr.splitlines() if line.startswith("speech:")]
    assert speech_lines == ["speech: no speech engine: pyttsx3 is not installed, and there is no espeak-ng program "
                            "(install: apt-get install espeak-ng; pip install 'autoagent[speech]'); going on "
                            "without speech"]


def test_no_audio_player_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    import autoagent.speech.speaker

    monkeypatch.setattr(autoagent.speech.speaker, "open_engine", FakeEngine)
    monkeypatch.setenv("PATH", str(tmp_path))
    switch = SpeechSwitch("en", on=True)
    assert not switch.on and switch.observer() is None
    assert capsys.readouterr().err == ("speech: no audio player (paplay, pw-play, aplay, play, ffplay) to play "
                                       "speech; going on without speech\n")


def test_pyttsx3_without_its_library_falls_back_to_the_espeak_ng_program(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyttsx3", None)
    program = tmp_path / "espeak-ng"
    program.write_text("#!/bin/sh\necho 'Pty Language Age/Gender VoiceName File Other'\n"
                       "echo ' 5  cmn --/M Chinese_(Mandarin) sit/cmn (zh 5)'\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    engine = open_engine()
    assert engine.name == "espeak-ng" and engine.voices() == [Voice("sit/cmn", "cmn")]


def test_ctrl_c_while_the_answer_is_said_cuts_it_and_ends_the_command() -> None:
    class Interrupted(RecordingSpeaker):
        def wait(self, timeout: float | None = None) -> bool:
            raise KeyboardInterrupt

    speaker = Interrupted()
    with SpeechSwitch("en", on=True, open_speaker=lambda lang: speaker):  # type: ignore[arg-type,return-value]
        pass
    assert speaker.closed


def test_slash_speak_toggles_in_the_repl(backend: FakeBackend, speakers: list[RecordingSpeaker]) -> None:
    backend.replies.extend([act("FINISH"), "first", act("FINISH"), "second"])
    from click.testing import CliRunner

    from autoagent.cli import cli

    stdin = "/speak\none\n/speak\ntwo\n/speak on\n/speak loudly\n/speak off\n"
    result = CliRunner().invoke(cli, ["--quiet"], input=stdin, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["Speech: on (fake, voice voice-en).", "first", "Speech: off.", "second",
                                          "Speech: on (fake, voice voice-en).", "Speech: off."]
    assert "Error: /speak takes on or off, not 'loudly'." in result.stderr
    (speaker,) = speakers  # opened once, when first turned on
    assert speaker.said == ["first"] and speaker.closed
    assert speaker.stops == 3  # the two /speak that turned it off, and leaving the REPL


def test_help_explains_the_flag(backend: FakeBackend) -> None:
    result = invoke(["--help"], [], backend)
    assert "--speak" in result.stdout and "AUTOAGENT_SPEAK" in result.stdout
    assert "Ctrl-C cuts it short" in " ".join(result.stdout.split())


def test_ctrl_c_at_the_repl_prompt_cuts_the_answer_short(capsys: pytest.CaptureFixture[str]) -> None:
    from autoagent import AutoGPT
    from autoagent.commands.repl import run_repl

    from .scripted import ScriptedChatModel
    from .test_repl import entries

    speaker = RecordingSpeaker()
    speech = SpeechSwitch("en", on=True, open_speaker=lambda lang: speaker)  # type: ignore[arg-type,return-value]
    agent = AutoGPT(llm=ScriptedChatModel(replies=[]), tools=[])
    run_repl(agent, run_task=lambda task: 0, read_entry=entries(KeyboardInterrupt, "/speak"), speech=speech)
    assert speaker.stops == 2 and not speech.on  # Ctrl-C silenced it, still on; /speak turned it off
    assert capsys.readouterr().out == "Speech: off.\n"
