"""OpenTelemetry traces of a run, in the GenAI semantic conventions: a span for the run (`invoke_agent NAME`), one
for each step (`step N`), each model call (`chat MODEL`: the model, its token usage and finish reason) and each tool
call (`execute_tool NAME`: its arguments and result, redacted as transcripts are); a sub-agent's run nests under the
tool span of the step that called it. The spans are made from the run's event stream, so tracing costs nothing
where it is off: no observer, no work.

`OtelTracer` uses the tracer provider in force (the application's own, from Python). `autoagent --trace otlp`, or
the standard `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` variables, start one that sends
the spans over OTLP/HTTP: that needs the optional extra `pip install 'autoagent[otel]'` (the SDK and its
exporter)."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError
from .events import RunObserver
from .redact import Redactor
from .run_events import RunEvent

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

RESULT_CHARS = 4000  # of a tool's result kept on its span
ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
NO_SDK = "tracing needs the OpenTelemetry SDK and its OTLP exporter: pip install 'autoagent[otel]'"

Path = tuple[str, ...]  # the agents' path of an event


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


class OtelTracer(RunObserver):
    """Spans from a run's events; hand it to a run as an observer (`AgentOptions(observers=[OtelTracer()])`)."""

    def __init__(self, tracer: Tracer | None = None) -> None:
        from opentelemetry import trace

        from . import __version__

        self.tracer = tracer or trace.get_tracer("autoagent", __version__)
        self.redactor = Redactor.from_environment()
        self.runs: dict[Path, Span] = {}
        self.steps: dict[Path, Span] = {}
        self.tools: dict[Path, Span] = {}

    def on_event(self, event: RunEvent) -> None:
        handle = getattr(self, f"_{event.type}", None)
        if handle is not None:
            handle(event, tuple(event.agents))

    def _start(self, name: str, parent: Span | None, start: float, attributes: dict[str, Any]) -> Span:
        from opentelemetry import trace

        context = trace.set_span_in_context(parent) if parent is not None else None
        return self.tracer.start_span(name, context=context, start_time=_ns(start), attributes=attributes)

    def _parent(self, path: Path) -> Span | None:
        """The span a model or tool call of the run at `path` goes under: its step's, else its run's."""
        return self.steps.get(path) or self.runs.get(path)

    def _run_started(self, event: Any, path: Path) -> None:
        caller = self.tools.get(path[:-1]) if path else None  # a sub-agent's run: under the calling tool's span
        self.runs[path] = self._start(f"invoke_agent {event.agent}", caller, event.time, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": event.agent,
            "gen_ai.conversation.id": event.run_id, "autoagent.task": self.redactor.text(event.task),
            "autoagent.resumed_steps": event.resumed_steps})

    def _model_call_started(self, event: Any, path: Path) -> None:
        self._end(self.steps, path, event.time)  # a step left open (it raised): closed as the next begins
        self.steps[path] = self._start(f"step {event.step}", self.runs.get(path), event.time,
                                       {"autoagent.step": event.step})

    def _model_call_ended(self, event: Any, path: Path) -> None:
        span = self._start(f"chat {event.model}", self._parent(path), event.time - event.seconds, {
            "gen_ai.operation.name": "chat", "gen_ai.request.model": event.model,
            "gen_ai.usage.input_tokens": event.input_tokens, "gen_ai.usage.output_tokens": event.output_tokens,
            "gen_ai.response.finish_reasons": [event.finish_reason] if event.finish_reason else [],
            "autoagent.usage.estimated": event.estimated})
        span.end(end_time=_ns(event.time))

    def _tool_started(self, event: Any, path: Path) -> None:
        arguments = self.redactor.text(json.dumps(event.args, ensure_ascii=False))
        self.tools[path] = self._start(f"execute_tool {event.tool}", self._parent(path), event.time, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": event.tool,
            "gen_ai.tool.call.arguments": arguments})

    def _tool_ended(self, event: Any, path: Path) -> None:
        span = self.tools.pop(path, None)
        if span is None:
            return
        span.set_attribute("gen_ai.tool.call.result", self.redactor.text(event.result[:RESULT_CHARS]))
        if not event.success:
            self._fail(span, "the tool failed or was refused")
        span.end(end_time=_ns(event.time))

    def _step_completed(self, event: Any, path: Path) -> None:
        span = self.steps.pop(path, None)
        if span is None:  # a call its reply made beside an earlier one: no model call of its own
            span = self._start(f"step {event.step}", self.runs.get(path), event.time - event.seconds,
                               {"autoagent.step": event.step})
        span.set_attributes({"autoagent.step.kind": event.kind, "autoagent.step.success": event.success})
        span.end(end_time=_ns(event.time))

    def _run_ended(self, event: Any, path: Path) -> None:
        for spans in (self.tools, self.steps):  # what an error or Ctrl-C left open
            self._end(spans, path, event.time)
        span = self.runs.pop(path, None)
        if span is None:
            return
        span.set_attributes({
            "gen_ai.usage.input_tokens": event.usage.get("input_tokens", 0),
            "gen_ai.usage.output_tokens": event.usage.get("output_tokens", 0),
            "autoagent.stop_reason": event.stop_reason, "autoagent.finished": event.finished,
            "autoagent.steps": event.steps})
        if event.stop_reason == "error":
            self._fail(span, self.redactor.text(event.stop_detail))
        span.end(end_time=_ns(event.time))

    @staticmethod
    def _end(spans: dict[Path, Span], path: Path, at: float) -> None:
        span = spans.pop(path, None)
        if span is not None:
            span.end(end_time=_ns(at))

    @staticmethod
    def _fail(span: Span, description: str) -> None:
        from opentelemetry.trace import Status, StatusCode

        span.set_status(Status(StatusCode.ERROR, description))


def tracing_wanted(choice: str | None) -> bool:
    """Whether the CLI traces: `--trace otlp`, or an OTLP endpoint in the environment (unless `--trace off` or
    `OTEL_SDK_DISABLED=true`)."""
    if choice is not None:
        return choice == "otlp"
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return any(os.environ.get(name) for name in ENDPOINT_VARIABLES)


class OtlpTracing:
    """A tracer provider of our own that sends spans over OTLP/HTTP (the endpoint, headers and timeout of the
    standard `OTEL_EXPORTER_OTLP_*` variables; `service.name` autoagent unless `OTEL_SERVICE_NAME` says), and the
    observer that feeds it; `close()` sends what is left."""

    def __init__(self) -> None:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor
        except ImportError as err:
            raise ConfigurationError(NO_SDK) from err
        from . import __version__

        resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME") or "autoagent",
                                    "service.version": __version__})
        self.provider = TracerProvider(resource=resource)
        self.provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        self.observer = OtelTracer(self.provider.get_tracer("autoagent", __version__))

    def close(self) -> None:
        """Send the spans still held, then stop (the exporter's own timeout bounds the wait)."""
        self.provider.shutdown()
