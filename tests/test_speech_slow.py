"""Speak mode with the real engine: pyttsx3 over espeak-ng (and the espeak-ng program) writing an English and a
Chinese line to WAV files, measured with sox: long enough, and not silent."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autoagent.speech import EspeakCommand, Pyttsx3Engine, Speaker, choose_voice, open_speaker

from .cli_backend import FakeBackend, invoke
from .scripted import act

pytestmark = pytest.mark.slow

LINES = {"en": "The weather in Paris is sunny today.", "zh": "巴黎今天天气晴朗，气温二十度。"}
MIN_SECONDS = 1.0  # each line takes about two seconds to say
MIN_RMS = 0.02  # silence measures 0.000000; espeak-ng's speech about 0.09


@functools.cache
def _missing() -> str | None:
    for program in ("espeak-ng", "sox"):
        if shutil.which(program) is None:
            return f"no {program} program (`apt-get install espeak-ng sox`; .ci/run installs them)"
    try:
        Pyttsx3Engine()
    except (ImportError, OSError, RuntimeError) as err:
        return f"pyttsx3 over espeak-ng cannot start ({err}): pip install 'autoagent[speech]'"
    return None


@pytest.fixture(autouse=True)
def real_engine() -> None:
    """Skips where this machine has no engine (here, not at collection: the fast suite starts no engine)."""
    missing = _missing()
    if missing is not None:
        pytest.skip(missing)


def measure(path: Path) -> tuple[float, float]:
    """The WAV file's length in seconds and RMS amplitude (0 to 1), as `sox FILE -n stat` reports them."""
    stat = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True).stderr
    seconds = re.search(r"Length \(seconds\):\s+([\d.]+)", stat)
    rms = re.search(r"RMS\s+amplitude:\s+([\d.]+)", stat)
    assert seconds and rms, stat
    print(f"[measure] {path.name}: {float(seconds[1]):.2f} s, RMS {float(rms[1]):.3f}")
    return float(seconds[1]), float(rms[1])


def say_to_file(speaker: Speaker, text: str) -> Path:
    with speaker:
        speaker.say(text)
        assert speaker.wait(30)
    assert speaker.to_file is not None
    return speaker.to_file


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pyttsx3_says_a_line_in_the_prompts_language(lang: str, tmp_path: Path) -> None:
    speaker = open_speaker(lang, to_file=tmp_path / f"{lang}.wav")
    assert speaker.engine.name == "pyttsx3" and speaker.voice == {"en": "gmw/en-us", "zh": "sit/cmn"}[lang]
    seconds, rms = measure(say_to_file(speaker, LINES[lang]))
    assert seconds > MIN_SECONDS and rms > MIN_RMS


def test_the_chinese_line_is_said_in_mandarin_not_spelled_in_english(tmp_path: Path) -> None:
    mandarin, _ = measure(say_to_file(open_speaker("zh", to_file=tmp_path / "cmn.wav"), LINES["zh"]))
    english = Speaker(Pyttsx3Engine(), voice="gmw/en-us", to_file=tmp_path / "spelled.wav")
    spelled, _ = measure(say_to_file(english, LINES["zh"]))  # the English voice names each character's script
    assert mandarin < 0.8 * spelled


def test_a_long_line_is_written_whole(tmp_path: Path) -> None:
    # pyttsx3 2.99's loop returns before espeak-ng has finished such a line: the Speaker waits for its end.
    seconds, rms = measure(say_to_file(open_speaker("en", to_file=tmp_path / "long.wav"), "one two three " * 30))
    assert seconds > 15 and rms > MIN_RMS  # about 18 s


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_espeak_ng_program_says_the_same_lines(lang: str, tmp_path: Path) -> None:
    engine = EspeakCommand()
    voice = choose_voice(lang, engine.voices())
    assert voice in ("gmw/en-US", "gmw/en-us", "sit/cmn")
    seconds, rms = measure(say_to_file(Speaker(engine, voice=voice, to_file=tmp_path / f"{lang}.wav"), LINES[lang]))
    assert seconds > MIN_SECONDS and rms > MIN_RMS


def test_speak_on_the_command_line_plays_real_speech(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    import autoagent.speech.speaker

    heard = tmp_path / "heard"
    heard.mkdir()
    copy = ("import shutil, sys, pathlib; heard = pathlib.Path(sys.argv[1]); "
            "shutil.copy(sys.argv[2], heard / f'{len(list(heard.iterdir()))}.wav')")  # a player that keeps each line
    monkeypatch.setattr(autoagent.speech.speaker, "find_player", lambda: [sys.executable, "-c", copy, str(heard)])
    result = invoke(["--speak", "--lang", "zh", "--quiet", "巴黎天气怎么样"], [act("FINISH"), LINES["zh"]], backend)
    assert result.exit_code == 0 and result.stdout == f"{LINES['zh']}\n", result.output
    (answer,) = sorted(heard.iterdir())  # the command ended once the answer was heard out
    seconds, rms = measure(answer)
    assert seconds > MIN_SECONDS and rms > MIN_RMS



def test_pyttsx3_leaves_stdout_and_the_root_logger_alone(tmp_path: Path) -> None:
    # In a process of its own: pytest's handlers on the root logger would hide one pyttsx3 added.
    script = ("import logging, sys; from autoagent.speech import open_speaker\n"
              "with open_speaker('zh', to_file=sys.argv[1]) as speaker:\n"
              "    speaker.say('巴黎今天天气晴朗。'); speaker.wait()\n"
              "logging.getLogger('autoagent').warning('once')\n"
              "print(len(logging.getLogger().handlers))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "quiet.wav")], capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stdout == "0\n"  # no "Audio saved to ..." among the answers, no handler that doubles warnings
    assert done.stderr == "once\n"
