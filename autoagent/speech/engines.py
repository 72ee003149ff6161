"""Offline speech engines that write a line as a WAV file: pyttsx3 over the espeak-ng library, else the espeak-ng
program; and the choice of a voice for the prompts' language."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from ..errors import AutoAgentError

INSTALL_HINT = "apt-get install espeak-ng; pip install 'autoagent[speech]'"
# The voices tried for each prompt language, best first, by espeak-ng's language codes.
LANGUAGE_VOICES = {"en": ("en-us", "en-gb", "en"), "zh": ("cmn", "zh", "yue")}
SYNTH_SECONDS = 20.0  # espeak-ng writes a long line in well under a second; past this it is stuck


class SpeechUnavailable(AutoAgentError):
    """No speech engine (or no audio player) on this machine."""


class SpeechFailed(AutoAgentError):
    """An engine or a player failed on one line."""


class Voice(NamedTuple):
    """A voice an engine has: its id (what the engine is given) and its language code."""

    id: str
    language: str


class Engine(Protocol):
    """Writes a line of speech as a WAV file."""

    name: str

    def voices(self) -> list[Voice]:
        """The voices it has."""
        ...

    def synthesize(self, text: str, voice: str | None, path: Path) -> None:
        """Write `text` said by `voice` (None: the engine's default) to the WAV file `path`."""
        ...


_ESPEAK_LOCK = threading.Lock()  # the espeak-ng library is one per process: one line at a time, whoever asks


class Pyttsx3Engine:
    """pyttsx3's espeak driver, writing with save_to_file (its own playback, aplay run to the end, is not used:
    a line must be cut short)."""

    name = "pyttsx3"

    def __init__(self) -> None:
        import pyttsx3
        import pyttsx3.drivers.espeak as driver  # RuntimeError (or OSError) where libespeak-ng is missing

        driver.print = _ignore  # pyttsx3 2.99 prints "Audio saved to ..." on stdout, which holds the answer
        # ... and logs with logging.debug(), which gives the root logger a handler: each warning printed twice
        driver.logging = logging.getLogger("pyttsx3")
        self._engine = pyttsx3.init("espeak")

    def voices(self) -> list[Voice]:
        with _ESPEAK_LOCK:
            found = self._engine.getProperty("voices")
        return [Voice(str(voice.id), str((voice.languages or [""])[0])) for voice in found]

    def synthesize(self, text: str, voice: str | None, path: Path) -> None:
        done = threading.Event()
        with _ESPEAK_LOCK:
            token = self._engine.connect("finished-utterance", lambda **_: done.set())
            try:
                if voice:
                    self._engine.setProperty("voice", voice)
                self._engine.save_to_file(text, str(path))
                self._engine.runAndWait()
                # pyttsx3 2.99's loop returns before espeak-ng's own thread has written a line of more than a
                # second or so; the driver's finished-utterance comes once the file is whole.
                if not done.wait(SYNTH_SECONDS):
                    raise SpeechFailed(f"pyttsx3 wrote no speech in {SYNTH_SECONDS:.0f} s")
            finally:
                self._engine.disconnect(token)


class EspeakCommand:
    """The espeak-ng program, one process a line: the engine where pyttsx3 cannot be loaded."""

    name = "espeak-ng"

    def __init__(self, program: str | None = None) -> None:
        found = program or shutil.which("espeak-ng") or shutil.which("espeak")
        if found is None:
            raise SpeechUnavailable("no espeak-ng program")
        self.program = found

    def voices(self) -> list[Voice]:
        listing = subprocess.run([self.program, "--voices"], capture_output=True, text=True, timeout=SYNTH_SECONDS)
        rows = [line.split() for line in listing.stdout.splitlines()[1:]]
        return [Voice(row[4], row[1]) for row in rows if len(row) >= 5]

    def synthesize(self, text: str, voice: str | None, path: Path) -> None:
        command = [self.program, *(["-v", voice] if voice else []), "-w", str(path), "--stdin"]
        done = subprocess.run(command, input=text.encode(), capture_output=True, timeout=SYNTH_SECONDS)
        if done.returncode != 0:
            raise SpeechFailed(f"espeak-ng failed: {last_line(done.stderr)}")


def open_engine() -> Engine:
    """pyttsx3 over espeak-ng; the espeak-ng program where pyttsx3 cannot load; else SpeechUnavailable, saying why."""
    try:
        return Pyttsx3Engine()
    except ImportError:
        problem = "pyttsx3 is not installed"
    except (OSError, RuntimeError) as err:  # pyttsx3 found no libespeak-ng, or it would not start
        problem = f"pyttsx3 cannot start ({err})"
    try:
        return EspeakCommand()
    except SpeechUnavailable as err:
        raise SpeechUnavailable(f"no speech engine: {problem}, and there is {err} (install: {INSTALL_HINT})") from None


def choose_voice(lang: str, voices: Sequence[Voice]) -> str | None:
    """The id of the voice for `lang` (en, zh, or an espeak-ng language code); None when there is none."""
    usable = [voice for voice in voices if not voice.id.startswith("mb/")]  # mbrola voices need mbrola's own data
    wanted = LANGUAGE_VOICES.get(lang, (lang,))
    for code in wanted:
        for voice in usable:
            if voice.language.lower() == code:
                return voice.id
    for code in wanted:  # a regional voice (en-gb-scotland) rather than none
        for voice in usable:
            if voice.language.lower().startswith(f"{code}-"):
                return voice.id
    return None


def last_line(output: bytes | str) -> str:
    """The last non-empty line of a program's output (its error, usually)."""
    text = output.decode(errors="replace") if isinstance(output, bytes) else output
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def _ignore(*args: object, **kwargs: object) -> None:
    """Stands in for print in pyttsx3's espeak driver."""
