"""A scripted stand-in for the chat-model loader, for driving the `autoagent` command in-process."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner, Result

from autoagent.cli import cli

from .scripted import ScriptedChatModel


@dataclass
class FakeBackend:
    """Stands in for `load_chat_model`: every model it makes follows the same script."""

    replies: list[str] = field(default_factory=list)
    models: list[ScriptedChatModel] = field(default_factory=list)
    specs: list[tuple[str | None, str | None]] = field(default_factory=list)

    def load(self, spec: str | None = None, *, base_url: str | None = None, **_: object) -> ScriptedChatModel:
        self.specs.append((spec, base_url))
        self.models.append(ScriptedChatModel(replies=self.replies))
        return self.models[-1]

    @property
    def prompts(self) -> list[str]:
        return self.models[0].prompts


def install_backend(monkeypatch: pytest.MonkeyPatch) -> FakeBackend:
    """A FakeBackend in place of load_chat_model, with long-term memory off; the `backend` fixture."""
    import autoagent.llm

    fake = FakeBackend()
    monkeypatch.setattr(autoagent.llm, "load_chat_model", fake.load)
    monkeypatch.setenv("AUTOAGENT_MEMORY", "false")  # the tests below script no summary; memory has its own
    return fake


def invoke(args: list[str], replies: list[str], backend: FakeBackend, stdin: str | None = None) -> Result:
    backend.replies.extend(replies)
    return CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)
