"""A2A v1.0 on `autoagent serve`, built on the official a2a-sdk: the agent card at /.well-known/agent-card.json and
JSON-RPC at /a2a (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask), behind the server's access
rules like every other route.

An A2A task is a task of the server's (its own workspace and transcript; the Agent Protocol lists it too) whose
steps run one after another to the run's end, each completed step a WORKING status update. An action that needs
approval makes the task INPUT_REQUIRED with the question; the next message on the task is the answer (y, y -N, a, n
or feedback, as a step's input). At the end the answer is an artifact whose metadata carries the run's status:
`finished` is COMPLETED, `unverified` COMPLETED with `unsure: true`, any other stop FAILED with why (the answer
still given, unsure); the files the run left in the workspace are artifacts too. CancelTask stops the run as Ctrl-C
does (at its next model call; the transcript is kept)."""

from __future__ import annotations

import asyncio
import mimetypes
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from a2a.helpers import new_data_part, new_raw_part, new_task, new_text_message, new_text_part, new_url_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import add_a2a_routes_to_fastapi, create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    Role,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    TaskState,
)
from a2a.utils.errors import InvalidParamsError

from .. import __version__
from ..redact import redacted
from . import artifacts as files
from .mcp import progress_message
from .schema import Status, Step, StepRequestBody, TaskRequestBody
from .service import TaskService, step_with_events

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .access import Access
    from .limits import Limits

RPC_PATH = "/a2a"
INLINE_BYTES = 1 << 20  # a workspace file up to this size comes inline in its artifact; a larger one as its URL
DESCRIPTION = ("An autonomous agent (autoagent): give it a whole task; it works in steps with its tools (files in its "
               "workspace, a calculator, the date, the web) and answers, or says it is unsure.")


TASK_SKILL = AgentSkill(id="task", name="Run a task", tags=["task"], examples=["What is 6 * 7?"],
                        description="A whole task in a text message; the agent works in steps with the tools listed "
                                    "as its other skills, asks before a side effect (INPUT_REQUIRED) and answers.")


class ServerExecutor(AgentExecutor):
    """Runs an A2A task as a task of the server's `service`, step after step, to its end or its next question."""

    def __init__(self, service: TaskService, limits: Limits, url: str) -> None:
        self.service, self.limits, self.url = service, limits, url
        self.tasks: dict[str, str] = {}  # the server's task id of each A2A task

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None  # the SDK gives both
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        text = context.get_user_input().strip()
        try:
            self.limits.check_input(text, "message's text")
        except Exception as err:  # the size rule of every input the server takes
            raise InvalidParamsError(message=str(getattr(err, "detail", err))) from None
        task_id = self.tasks.get(context.task_id)
        if task_id is None:  # a new task: the message is its text
            if not text:
                raise InvalidParamsError(message="a task needs a text part: the task")
            task_id = self.tasks[context.task_id] = (await asyncio.to_thread(
                self.service.create, TaskRequestBody(input=text))).task_id
            history = [context.message] if context.message is not None else []
            await event_queue.enqueue_event(new_task(context.task_id, context.context_id,
                                                     TaskState.TASK_STATE_SUBMITTED, history=history))
            answer = None
        else:  # the message answers the run's question
            answer = text
        await updater.start_work()
        while True:
            step = await self._step(updater, task_id, answer)
            answer = None
            if step.status is Status.running:  # an approval question: the next message answers it
                await updater.requires_input(self._message(updater, step.output or ""))
                return
            if step.is_last:
                await self._end(updater, task_id, step)
                return

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None
        task_id = self.tasks.get(context.task_id)
        if task_id is not None:
            await asyncio.to_thread(self.service.stop, task_id)
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()

    async def _step(self, updater: TaskUpdater, task_id: str, answer: str | None) -> Step:
        """One step of the server's task; each step the run completes meanwhile is a WORKING update, in order."""
        async for heard in step_with_events(self.service, task_id, StepRequestBody(input=answer)):
            if isinstance(heard, Step):
                return heard
            if heard.type == "step_completed" and not heard.agents:
                message = self._message(updater, progress_message(heard),
                                        new_data_part(redacted(heard.model_dump(mode="json"))))
                await updater.start_work(message)
        raise AssertionError("a step ends with the step")

    async def _end(self, updater: TaskUpdater, task_id: str, step: Step) -> None:
        """The answer and the workspace's files as artifacts, then the terminal state the run's end maps to."""
        extra = step.additional_output or {}
        run = extra.get("run")
        if run is None:  # the run could not start (no model, bad settings)
            await updater.failed(self._message(updater, step.output or "the run failed"))
            return
        status = "finished" if run["finished"] else ("unverified" if run["stop_reason"] == "unverified" else
                                                     "stopped")
        metadata = {"status": status, "unsure": status != "finished", "stop_reason": run["stop_reason"],
                    "run_id": run["run_id"], "task_id": task_id}
        parts = [new_text_part(run["answer"])]
        if "output" in run:  # a typed answer's value
            parts.append(new_data_part(run["output"]))
        await updater.add_artifact(parts, name="answer", metadata=metadata)
        for artifact in await asyncio.to_thread(self._files, task_id):
            await updater.add_artifact(**artifact)
        if run["stop_reason"] == "interrupted":
            await updater.cancel(self._message(updater, step.output or "stopped"))
        elif status == "stopped":
            await updater.failed(self._message(updater, step.output or "stopped"))
        else:
            await updater.complete()

    def _files(self, task_id: str) -> list[dict[str, Any]]:
        """The task's workspace files as artifacts: inline up to INLINE_BYTES, else the Agent Protocol's download."""
        workspace = self.service.workspace(task_id)
        made = []
        for artifact in self.service.task(task_id).artifacts:
            relative = f"{artifact.relative_path or ''}{artifact.file_name}"
            media = mimetypes.guess_type(artifact.file_name)[0] or "application/octet-stream"
            path = workspace / relative
            if path.stat().st_size <= INLINE_BYTES:
                data = b"".join(files.read_chunks(workspace, relative))
                part = new_raw_part(data, media_type=media, filename=artifact.file_name)
            else:
                part = new_url_part(f"{self.url}/ap/v1/agent/tasks/{task_id}/artifacts/{artifact.artifact_id}",
                                    media_type=media, filename=artifact.file_name)
            made.append({"parts": [part], "name": relative, "metadata": {"relative_path": relative}})
        return made

    @staticmethod
    def _message(updater: TaskUpdater, text: str, *more: Any) -> Any:
        message = new_text_message(redacted(text), context_id=updater.context_id, task_id=updater.task_id,
                                   role=Role.ROLE_AGENT)
        message.parts.extend(more)
        return message


def agent_card(name: str, url: str, skills: list[AgentSkill], token: bool) -> AgentCard:
    """The card: the JSON-RPC interface, streaming, the toolbox as skills and the bearer token's scheme."""
    card = AgentCard(name=name, description=DESCRIPTION, version=__version__,
                     supported_interfaces=[AgentInterface(url=f"{url}{RPC_PATH}", protocol_binding="JSONRPC",
                                                          protocol_version="1.0")],
                     capabilities=AgentCapabilities(streaming=True, push_notifications=False),
                     default_input_modes=["text/plain"], default_output_modes=["text/plain", "application/json"],
                     skills=skills)
    if token:
        card.security_schemes["bearer"].CopyFrom(SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(
            scheme="bearer", description="The server's token (autoagent serve --help)")))
        card.security_requirements.append(SecurityRequirement(schemes={"bearer": StringList()}))
    return card


def toolbox_skills(tools: Callable[[], list[Any]]) -> list[AgentSkill]:
    """A skill for each tool the agent offers."""
    return [AgentSkill(id=tool.name, name=tool.name, description=(tool.description or tool.name).strip(),
                       tags=["tool"]) for tool in tools()]


def mount_a2a(app: FastAPI, service: TaskService, access: Access, limits: Limits, url: str,
              tools: Callable[[], list[Any]]) -> None:
    """The card and the JSON-RPC route on `app` (whose middleware holds the access rules)."""
    name = service.settings.name or "autoagent"
    skills: list[AgentSkill] = []

    async def with_skills(card: AgentCard) -> AgentCard:  # the toolbox is built once, on the first card asked for
        if not skills:
            skills.extend(await asyncio.to_thread(toolbox_skills, tools))
        full = AgentCard()
        full.CopyFrom(card)
        full.skills.extend(skills)
        return full

    card = agent_card(name, url, [TASK_SKILL], access.token is not None)
    handler = DefaultRequestHandler(agent_executor=ServerExecutor(service, limits, url), task_store=InMemoryTaskStore(),
                                    agent_card=card)
    add_a2a_routes_to_fastapi(app, agent_card_routes=create_agent_card_routes(card, card_modifier=with_skills),
                              jsonrpc_routes=create_jsonrpc_routes(handler, RPC_PATH))


__all__ = ["RPC_PATH", "ServerExecutor", "agent_card", "mount_a2a"]
