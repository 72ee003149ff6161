"""`--speak` and the REPL's `/speak`: whether runs are said aloud, and the Speaker that says them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ..events import RunObserver
    from ..speech import Speaker


def _open_speaker(lang: str) -> Speaker:
    from ..speech import open_speaker

    return open_speaker(lang)


class SpeechSwitch:
    """On or off; the Speaker is opened, for the prompts' language, when speech is first turned on. Without an
    engine, turning it on says so in one line on stderr and it stays off: the run goes on silently."""

    def __init__(self, lang: str = "en", on: bool = False,
                 open_speaker: Callable[[str], Speaker] = _open_speaker) -> None:
        self.lang = lang
        self.on = False
        self.speaker: Speaker | None = None
        self._open = open_speaker
        if on:
            self.turn(True)

    def turn(self, on: bool) -> bool:
        """Turn speech on or off (off silences it at once); whether it is on now."""
        from ..speech import SpeechUnavailable

        if on and self.speaker is None:
            try:
                self.speaker = self._open(self.lang)
            except SpeechUnavailable as err:
                click.echo(f"speech: {err}; going on without speech", err=True)
                return self.on
        self.on = on
        if not on and self.speaker is not None:
            self.speaker.stop()
        return self.on

    def silence(self) -> None:
        """Cut short what is being said; speech stays on for the next run."""
        if self.speaker is not None:
            self.speaker.stop()

    def observer(self) -> RunObserver | None:
        """What a run reports to, to be spoken; None while speech is off."""
        if not self.on or self.speaker is None:
            return None
        from ..speech import SpeakAloud

        return SpeakAloud(self.speaker)

    def describe(self) -> str:
        """`on (pyttsx3, voice sit/cmn)` or `off`."""
        if not self.on or self.speaker is None:
            return "off"
        return f"on ({self.speaker.engine.name}, voice {self.speaker.voice or 'default'})"

    def __enter__(self) -> SpeechSwitch:
        return self

    def __exit__(self, *exc: object) -> None:
        """The command ends: the line being said (the answer, usually) is heard out; Ctrl-C cuts it short."""
        if self.speaker is None:
            return
        try:
            if self.on:
                self.speaker.wait()
        except KeyboardInterrupt:
            pass
        finally:
            self.speaker.close()
