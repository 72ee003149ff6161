"""What kind of model an agent runs on, worked out once when the agent is built and read everywhere else: the
embedded one, a small one, one served nearby, one that can be asked to sample."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel

SMALL_BILLIONS = 1.5  # the largest model measured to need small-model help (the bundled 1.5B), in billions
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[bB](?![A-Za-z0-9])")  # "1.5b" in "qwen2.5-coder:1.5b"


@dataclass(frozen=True)
class ModelProfile:
    """The facts about a model that shape how an agent uses it."""

    embedded: bool = False  # the bundled llama.cpp model, in this process
    small: bool = False  # as small as the models measured to need help: the embedded one, or a name giving <= 1.5B
    nearby: bool = False  # served on this machine or a private network, where small models run (or embedded)
    can_sample: bool = False  # it declares a temperature: a reply can be drawn anew

    @classmethod
    def of(cls, llm: BaseChatModel, spec: str = "", base_url: str | None = None) -> ModelProfile:
        """The profile of `llm`; `spec` and `base_url` are how it was asked for (`--model`, `--base-url`), where
        known: a spec says whether a model is served nearby before anything is called."""
        from .local import ChatLocalLlama
        from .remote import is_nearby_server
        from .reply_caps import declares

        embedded = isinstance(llm, ChatLocalLlama)
        if spec:
            served = base_url or os.environ.get("OPENAI_BASE_URL")
            nearby = spec.startswith("local") or (spec.startswith("openai:") and is_nearby_server(served))
        else:
            nearby = embedded or is_nearby_server(getattr(llm, "openai_api_base", None))
        return cls(embedded=embedded, small=embedded or small_by_name(llm), nearby=nearby,
                   can_sample=declares(llm, "temperature"))


def small_by_name(llm: BaseChatModel) -> bool:
    """Whether the model's name gives its size in parameters, at most SMALL_BILLIONS ("phi-1.5b", "qwen2.5:0.5b";
    not "mixtral-8x7b", nor a name with no size)."""
    name = str(getattr(llm, "model_name", None) or getattr(llm, "model", None) or "")
    sizes = [float(size) for size in _SIZE.findall(name)]
    return bool(sizes) and max(sizes) <= SMALL_BILLIONS


def model_name(llm: BaseChatModel) -> str:
    """The model's name as it reports it, for prices and memories."""
    return str(getattr(llm, "model_name", None) or getattr(llm, "model", None) or type(llm).__name__)
