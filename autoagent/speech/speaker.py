"""The Speaker: one worker thread that says one line at a time beside the agent's loop, which it never blocks."""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .engines import Engine, SpeechUnavailable, choose_voice, last_line, open_engine

# Programs that play a WAV file and end when killed, tried in order.
PLAYERS = (("paplay",), ("pw-play",), ("aplay", "-q"), ("play", "-q"), ("ffplay", "-nodisp", "-autoexit", "-loglevel",
                                                                       "quiet"))
WAIT_SLICE = 0.1  # wait() waits in slices so a Ctrl-C gets through at once

log = logging.getLogger("autoagent")


def find_player() -> list[str]:
    """The first audio player on PATH, as a command to which the file is added; SpeechUnavailable if none."""
    for command in PLAYERS:
        found = shutil.which(command[0])
        if found is not None:
            return [found, *command[1:]]
    names = ", ".join(command[0] for command in PLAYERS)
    raise SpeechUnavailable(f"no audio player ({names}) to play speech")


class Speaker:
    """Says lines beside the caller. `say` replaces the line waiting (at most one waits) and cuts short the line
    being said; `stop` and `close` silence it at once. With `to_file`, each line is written there as a WAV file
    (the latest line wins) instead of being played."""

    def __init__(self, engine: Engine, *, voice: str | None = None, to_file: Path | str | None = None,
                 player: Sequence[str] | None = None, on_problem: Callable[[str], None] | None = None) -> None:
        self.engine = engine
        self.voice = voice
        self.to_file = Path(to_file) if to_file is not None else None
        self.player = list(player) if player is not None else [] if self.to_file else find_player()
        self.on_problem = on_problem or (lambda message: log.warning(message))
        self._condition = threading.Condition()
        self._pending: str | None = None
        self._speaking = False
        self._closed = False
        self._cut = threading.Event()  # set: the line being said is to end now
        self._process: subprocess.Popen[bytes] | None = None
        self._reported: set[str] = set()
        self._worker = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._worker.start()

    def say(self, text: str) -> None:
        """Say `text` next, in place of any line waiting, cutting short the one being said; returns at once."""
        with self._condition:
            if self._closed or not text.strip():
                return
            self._pending = text
            self._cut_short()
            self._condition.notify_all()

    def stop(self) -> None:
        """Silence: drop the line waiting and cut short the one being said."""
        with self._condition:
            self._pending = None
            self._cut_short()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every line given is said (or `timeout` seconds passed); True when nothing is left."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._condition:
            while self._pending is not None or self._speaking:
                left = WAIT_SLICE if deadline is None else min(WAIT_SLICE, deadline - time.monotonic())
                if left <= 0:
                    return False
                self._condition.wait(left)
        return True

    def close(self) -> None:
        """Silence at once and end the worker."""
        with self._condition:
            self._closed = True
            self._pending = None
            self._cut_short()
            self._condition.notify_all()
        self._worker.join(timeout=5)

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _cut_short(self) -> None:
        """Under the lock: end the line being said, killing its player."""
        self._cut.set()
        if self._process is not None and self._process.poll() is None:
            self._process.kill()

    def _work(self) -> None:
        while True:
            with self._condition:
                while self._pending is None and not self._closed:
                    self._condition.wait()
                if self._closed or self._pending is None:
                    return
                text, self._pending = self._pending, None
                cut = self._cut = threading.Event()
                self._speaking = True
            try:
                self._say_now(text, cut)
            except Exception as err:  # an engine's or a player's failure must end neither the worker nor the run
                self._report(f"speech: {err}")
            finally:
                with self._condition:
                    self._speaking = False
                    self._process = None
                    self._condition.notify_all()

    def _say_now(self, text: str, cut: threading.Event) -> None:
        if self.to_file is not None:
            self.engine.synthesize(text, self.voice, self.to_file)
            return
        with tempfile.TemporaryDirectory(prefix="autoagent-speech-") as folder:
            path = Path(folder) / "line.wav"
            self.engine.synthesize(text, self.voice, path)
            with self._condition:
                if cut.is_set():
                    return
                process = self._process = subprocess.Popen([*self.player, str(path)], stdin=subprocess.DEVNULL,
                                                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, error = process.communicate()
            if process.returncode > 0 and not cut.is_set():  # < 0: killed (cut short, or Ctrl-C's SIGINT)
                self._report(f"speech: {Path(self.player[0]).name} could not play it ({last_line(error)})")

    def _report(self, message: str) -> None:
        """Each problem once per Speaker: a player with no sound device fails on every line alike."""
        if message not in self._reported:
            self._reported.add(message)
            self.on_problem(message)


def open_speaker(lang: str = "en", *, to_file: Path | str | None = None,
                 on_problem: Callable[[str], None] | None = None) -> Speaker:
    """A Speaker on the first engine this machine has, in `lang`'s voice where it has one; SpeechUnavailable,
    saying why, where there is no engine (or, to play, no audio player)."""
    engine = open_engine()
    player = None if to_file is not None else find_player()
    voice = choose_voice(lang, engine.voices())
    speaker = Speaker(engine, voice=voice, to_file=to_file, player=player, on_problem=on_problem)
    if voice is None:
        speaker.on_problem(f"speech: {engine.name} has no {lang} voice; its default voice speaks")
    return speaker
