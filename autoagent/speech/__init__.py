"""Speak mode: a run's `speak` lines and its answer said aloud by an offline engine, beside the loop."""

from .engines import (
    EspeakCommand,
    Pyttsx3Engine,
    SpeechFailed,
    SpeechUnavailable,
    Voice,
    choose_voice,
    open_engine,
)
from .observer import SpeakAloud, speakable, spoken_line
from .speaker import Speaker, find_player, open_speaker

__all__ = [
    "EspeakCommand",
    "Pyttsx3Engine",
    "SpeakAloud",
    "Speaker",
    "SpeechFailed",
    "SpeechUnavailable",
    "Voice",
    "choose_voice",
    "find_player",
    "open_engine",
    "open_speaker",
    "speakable",
    "spoken_line",
]
