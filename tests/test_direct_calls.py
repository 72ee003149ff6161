"""Model and tool calls that nothing listens to go straight to the model's and the tool's own code, with the same
messages and results as through `invoke`; whatever listens (callbacks given to the run, the model or a tool, a
tracing hook) still hears every call."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from langchain_core.caches import InMemoryCache
from langchain_core.callbacks import BaseCallbackHandler, CallbackManagerForLLMRun, Callbacks
from langchain_core.callbacks.manager import CallbackManagerForToolRun
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.chat_models import generate_from_stream
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.tools import BaseTool, ToolException, tool
from langchain_core.tracers.context import collect_runs

from autoagent import AutoGPT
from autoagent.direct import direct_call, direct_run
from autoagent.listeners import Unheard, unheard_if_silent
from autoagent.llm.call import invoke_model
from autoagent.steps import RunResult, Usage

from .scripted import ScriptedChatModel, act
from .test_agent import multiply


@tool
def complain(text: str) -> str:
    """Fails with a message of its own."""
    raise ToolException(f"no: {text}")


complain.handle_tool_error = True  # LangChain turns the ToolException into the observation


@tool
def listens(text: str, callbacks: Callbacks = None) -> str:
    """Says whether LangChain passed it callbacks."""
    return f"{text}: {'callbacks' if callbacks is not None else 'none'}"


class Shout(BaseTool):
    """A tool of its own class whose `_run` takes the run manager."""

    name: str = "shout"
    description: str = "Shouts the text."

    def _run(self, text: str, run_manager: CallbackManagerForToolRun | None = None) -> str:
        return text.upper() + ("!" if run_manager is not None else "?")


class Recorder(BaseCallbackHandler):
    """Counts the model and tool calls it hears."""

    def __init__(self) -> None:
        self.models: list[UUID] = []
        self.tools: list[str] = []

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.models.append(run_id)

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        self.tools.append(serialized["name"])


SCRIPT = [act("multiply", a=6, b=7), act("shout", text="hi"), act("listens", text="x"), act("complain", text="y"),
          act("FINISH"), "The product is 42."]
TOOLS = [multiply, Shout(), listens, complain]


def run(**kwargs: Any) -> tuple[RunResult, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(SCRIPT))
    agent = AutoGPT(llm, TOOLS)
    return agent.execute("What is 6 times 7?", **kwargs), llm


def seen(result: RunResult, llm: ScriptedChatModel) -> tuple[Any, ...]:
    """What a run did and sent, ids and timings aside."""
    steps = [(step.kind, step.reply, step.observation, step.success, step.input_tokens) for step in result.steps]
    sent = [[(message.type, message.text) for message in messages] for messages in llm.calls]
    return steps, sent, llm.stops, result.answer, result.stop_reason, result.usage


def test_a_run_nothing_hears_calls_directly_and_does_what_a_heard_run_does(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder()
    heard = run(callbacks=[recorder])
    assert len(recorder.models) == len(heard[1].calls) == 6 and recorder.tools == ["multiply", "shout", "listens",
                                                                                   "complain"]

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("invoke was called where nothing listens")

    with monkeypatch.context() as patched:  # only what must go through invoke still may
        patched.setattr(BaseChatModel, "invoke", refused)
        real_invoke = BaseTool.invoke
        patched.setattr(BaseTool, "invoke", lambda self, *a, **k: real_invoke(self, *a, **k) if self.name in (
            "listens", "complain") else refused())
        silent = run()
    assert seen(*silent) == seen(*heard)
    observations = [step.observation for step in silent[0].steps]
    assert observations[:4] == ["42", "HI!", "x: callbacks", "no: y"]


def test_a_tracing_hook_still_sees_every_model_and_tool_call() -> None:
    # collect_runs is a configure hook, as LangSmith's tracing_v2_enabled is (that one would reach the network)
    with collect_runs() as collector:
        result, llm = run()
    kinds = [traced.run_type for traced in collector.traced_runs]
    assert kinds.count("llm") == len(llm.calls) == 6 and kinds.count("tool") == 4
    assert result.answer == "The product is 42."


def test_given_callbacks_or_debug_output_make_a_run_heard() -> None:
    from langchain_core.globals import set_debug

    assert isinstance(unheard_if_silent(None), Unheard)
    assert unheard_if_silent([Recorder()]) is not None and not isinstance(unheard_if_silent([Recorder()]), Unheard)
    set_debug(True)
    try:
        assert not isinstance(unheard_if_silent(None), Unheard)
    finally:
        set_debug(False)


def test_callbacks_of_the_model_or_of_a_tool_are_heard() -> None:
    on_model, on_tool = Recorder(), Recorder()
    llm = ScriptedChatModel(replies=list(SCRIPT), callbacks=[on_model])
    shout = Shout(callbacks=[on_tool])
    AutoGPT(llm, [multiply, shout, listens, complain]).execute("What is 6 times 7?")
    assert len(on_model.models) == 6 and on_tool.tools == ["shout"]
    silent = Unheard(handlers=[])
    assert direct_call(llm, [HumanMessage("hi")], silent, list) is None
    assert direct_run(shout, silent) is None and direct_run(Shout(), silent) is not None


class Repeating(BaseChatModel):
    """Streams "0" until stopped, counting what it sent."""

    sent: int = 0

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        for _ in range(5000):
            self.sent += 1
            chunk = ChatGenerationChunk(message=AIMessageChunk(content="0"))
            if run_manager is not None:
                run_manager.on_llm_new_token("0", chunk=chunk)
            yield chunk

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        return generate_from_stream(self._stream(messages, stop, run_manager, **kwargs))

    @property
    def _llm_type(self) -> str:
        return "repeating"


def test_a_direct_call_still_stops_a_runaway_reply() -> None:
    model, silent = Repeating(), Unheard(handlers=[])
    assert direct_call(model, [HumanMessage("hi")], silent, list) is not None
    reply = invoke_model(model, [HumanMessage("hi")], Usage(), silent)
    assert reply.response_metadata["finish_reason"] == "runaway" and model.sent < 500


def test_a_direct_call_takes_what_the_bindings_add() -> None:
    llm = ScriptedChatModel(replies=["a", "b"])
    for callbacks in (None, Unheard(handlers=[])):
        invoke_model(llm.bind(stop=["\nObservation:"]), [HumanMessage("hi")], Usage(), callbacks)
    assert llm.stops == [["\nObservation:"], ["\nObservation:"]]
    assert direct_call(llm.with_config(tags=["mine"]), [HumanMessage("hi")], Unheard(handlers=[]), list) is None


class Informed(ScriptedChatModel):
    """Replies with generation info and an llm_output, as a provider's model does."""

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        result = super()._generate(messages, stop, run_manager, **kwargs)
        result.generations[0].generation_info = {"finish_reason": "stop", "lc_gateway_metadata": {"x": 1}}
        result.llm_output = {"model_name": "informed", "finish_reason": "overridden"}
        return result


def test_a_direct_reply_carries_the_same_metadata_and_the_cache_still_answers() -> None:
    llm = Informed(replies=["a", "a"])
    replies = [invoke_model(llm, [HumanMessage("hi")], Usage(), heard) for heard in (None, Unheard(handlers=[]))]
    assert replies[0].response_metadata == replies[1].response_metadata == {
        "model_name": "informed", "finish_reason": "stop"}
    assert all(reply.id and reply.id.startswith("lc_run-") and reply.id.endswith("-0") for reply in replies)
    assert replies[0].usage_metadata == replies[1].usage_metadata and replies[0].text == replies[1].text
    cached = ScriptedChatModel(replies=["only once"], cache=InMemoryCache())
    for _ in range(2):  # the second answer comes from the cache: the script has one reply
        assert invoke_model(cached, [HumanMessage("hi")], Usage(), Unheard(handlers=[])).text == "only once"


def test_the_installed_langchain_core_has_every_private_part_the_fast_path_calls() -> None:
    from importlib.metadata import version

    from autoagent.direct import missing_private

    missing = missing_private()
    assert not missing, (
        f"langchain-core {version('langchain-core')} lacks {', '.join(missing)}, which autoagent/direct.py calls: "
        "mend the fast path there, or pin langchain-core below this release in pyproject.toml")


def test_a_private_part_langchain_core_lacks_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent import direct

    monkeypatch.setattr(direct, "PRIVATE", (*direct.PRIVATE, ("langchain_core.tools", "BaseTool", "_gone")))
    assert direct.missing_private() == ["langchain_core.tools.BaseTool._gone"]


def test_without_the_private_parts_every_call_goes_through_invoke_and_the_run_is_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent import direct

    fast = seen(*run())
    monkeypatch.setattr(direct, "AVAILABLE", False)
    assert direct_call(ScriptedChatModel(replies=[]), [HumanMessage("hi")], Unheard(handlers=[]), list) is None
    assert direct_run(multiply, Unheard(handlers=[])) is None
    assert seen(*run()) == fast
