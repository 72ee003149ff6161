"""OpenTelemetry traces of a run, sent by the official OTLP/HTTP exporter to a receiver on 127.0.0.1: the run, its
steps, model calls and tool calls as spans in the GenAI conventions, a sub-agent's run under the calling tool, the
token counts of the run; on from the CLI with --trace otlp or an OTLP endpoint in the environment."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.tracing import OtelTracer

from .cli_backend import FakeBackend, invoke
from .otlp_receiver import otlp_receiver
from .scripted import act
from .test_events import team

pytestmark = pytest.mark.timeout(60)
SOLVED = [act("calculator", expression="6*7"), act("FINISH"), "42"]


def test_a_run_is_one_trace_of_steps_model_calls_and_tool_calls_with_the_sub_agent_nested() -> None:
    with otlp_receiver() as receiver:
        provider = TracerProvider()
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{receiver.url}/v1/traces")))
        run = team("y", "n").execute("What is 17 * 23?", observers=[OtelTracer(provider.get_tracer("test"))])
        provider.shutdown()  # sends what the batch holds

    [root] = [span for span in receiver.spans if not span.parent_id]
    assert root.name == "invoke_agent router" and len({span.trace_id for span in receiver.spans}) == 1
    assert root.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert root.attributes["gen_ai.conversation.id"] == run.run_id
    assert root.attributes["autoagent.stop_reason"] == "finished" and root.attributes["autoagent.steps"] == 5
    steps = receiver.children(root)
    assert [span.name for span in steps] == ["step 1", "step 2", "step 3", "step 4", "step 5"]
    first, _, third, fourth, fifth = (receiver.children(step) for step in steps)
    assert [span.name for span in first] == ["chat ScriptedChatModel", "execute_tool calculator"]
    assert first[1].error and "division by zero" in first[1].attributes["gen_ai.tool.call.result"]
    assert first[1].attributes["gen_ai.tool.call.arguments"] == '{"expression": "1 / 0"}'
    assert fourth[1].name == "execute_tool record" and fourth[1].error  # refused
    assert [span.name for span in fifth] == ["chat ScriptedChatModel"] * 2  # the finish, and its answer

    call = third[1]
    assert call.name == "execute_tool math" and not call.error
    [sub_run] = receiver.children(call)
    assert sub_run.name == "invoke_agent math" and sub_run.attributes["gen_ai.agent.name"] == "math"
    assert [span.name for span in receiver.children(sub_run)] == ["step 1", "step 2"]

    chats = receiver.named("chat ")
    assert len(chats) == run.usage.calls
    assert sum(span.attributes["gen_ai.usage.input_tokens"] for span in chats) == run.usage.input_tokens
    assert sum(span.attributes["gen_ai.usage.output_tokens"] for span in chats) == run.usage.output_tokens
    assert all(span.attributes["gen_ai.request.model"] == "ScriptedChatModel" for span in chats)
    assert root.attributes["gen_ai.usage.input_tokens"] == run.usage.input_tokens
    for span in receiver.spans:  # every span inside its parent's time
        parent = next((other for other in receiver.spans if other.span_id == span.parent_id), None)
        assert parent is None or parent.start <= span.start <= span.end <= parent.end, span.name


def test_the_cli_traces_where_an_otlp_endpoint_is_set_and_not_with_trace_off(
        backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    with otlp_receiver() as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
        assert invoke(["--quiet", "6*7?"], SOLVED, backend).exit_code == 0
        assert {span.name for span in receiver.spans} >= {"invoke_agent AutoAgent", "step 1", "step 2",
                                                          "execute_tool calculator"}
        assert {span.service for span in receiver.spans} == {"autoagent"}
        receiver.spans.clear()
        assert invoke(["--quiet", "--trace", "off", "6*7?"], SOLVED, backend).exit_code == 0
        monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT")
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", f"{receiver.url}/v1/traces")
        monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
        assert invoke(["--quiet", "6*7?"], SOLVED, backend).exit_code == 0
    assert receiver.spans == []


def test_trace_otlp_without_the_sdk_says_how_to_install_it(backend: FakeBackend,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)  # as if the extra were not installed
    result = CliRunner().invoke(cli, ["--trace", "otlp", "hi"])
    assert result.exit_code == exit_codes.ERROR and "pip install 'autoagent[otel]'" in result.stderr
    assert backend.models == []
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    warned = invoke(["--quiet", "6*7?"], SOLVED, backend)
    assert warned.exit_code == 0 and "no traces are sent" in warned.stderr and warned.stdout == "42\n"
