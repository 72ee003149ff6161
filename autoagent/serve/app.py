"""The Agent Protocol v1 routes (FastAPI): tasks, steps and artifacts under /ap/v1, behind the access rules (host,
origin, token: access.py) and the size limits (limits.py), the docs pages included."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException

from .. import __version__
from ..redact import redacted
from . import artifacts as files
from .a2a import mount_a2a
from .access import Access, AccessGuard, query_token
from .limits import BodyLimit, Limits
from .page import BatchFiles, mount_page
from .schema import (
    Artifact,
    Step,
    StepRequestBody,
    Task,
    TaskArtifactsListResponse,
    TaskListResponse,
    TaskRequestBody,
    TaskStepsListResponse,
    page,
)
from .service import TaskFinished, TaskService, step_with_events
from .sessions import TaskBusy, TooManyLiveTasks
from .store import TaskNotFound

if TYPE_CHECKING:
    from ..settings import Settings

PREFIX = "/ap/v1/agent"
Page = Annotated[int, Query(ge=1)]
PageSize = Annotated[int, Query(ge=1, le=100)]


def create_app(settings: Settings, access: Access, service: TaskService | None = None,
               limits: Limits | None = None, url: str = "http://127.0.0.1:8000", batch: BatchFiles | None = None,
               ) -> FastAPI:
    """The server's application, every path behind `access` (host, origin and token) and `limits`: the Agent
    Protocol, A2A (a2a.py) with `url`, where the server is reached, on its card, and the web page (page.py),
    following `batch` where one is given."""
    limits = limits or Limits()
    service = service or TaskService(settings, limits=limits)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        service.close()  # paused runs end as interrupted; a restarted server continues them

    app = FastAPI(title="autoagent", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="autoagent through the Agent Protocol v1 (https://agentprotocol.ai).")
    app.state.service = service
    if access.origins:  # pages from these origins may call the API, with the token
        app.add_middleware(CORSMiddleware, allow_origins=sorted(access.origins), allow_methods=["*"],
                           allow_headers=["*"])
    app.add_middleware(BodyLimit, limits=limits)
    app.add_middleware(AccessGuard, access=access)  # the outermost: nothing runs for a refused request

    def answer(status: int) -> object:
        return lambda _, err: JSONResponse({"message": str(err)}, status_code=status)

    @app.exception_handler(HTTPException)
    def http_error(_: Request, err: HTTPException) -> JSONResponse:
        return JSONResponse({"message": str(err.detail)}, status_code=err.status_code, headers=err.headers)

    app.add_exception_handler(TaskNotFound, answer(404))  # type: ignore[arg-type]
    app.add_exception_handler(TaskFinished, answer(409))  # type: ignore[arg-type]
    app.add_exception_handler(TaskBusy, answer(409))  # type: ignore[arg-type]
    app.add_exception_handler(TooManyLiveTasks, answer(503))  # type: ignore[arg-type]

    def docs_source(request: Request) -> str:
        """The schema's address for the page: with the one token it was opened with (checked, and quoted: the page
        pastes it into its script), so that the page's own requests carry it."""
        token = query_token(request.url.query)
        return f"/openapi.json?token={quote(token, safe='')}" if token else "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=docs_source(request), title="autoagent: Agent Protocol v1")

    @app.get("/redoc", include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        return get_redoc_html(openapi_url=docs_source(request), title="autoagent: Agent Protocol v1")

    @app.post(f"{PREFIX}/tasks", response_model=Task)
    def create_agent_task(body: TaskRequestBody | None = None) -> Task:
        limits.check_input((body.input if body else None), "task's input")
        try:
            return service.create(body or TaskRequestBody())
        except ValueError as err:
            raise HTTPException(400, str(err)) from None

    @app.get(f"{PREFIX}/tasks", response_model=TaskListResponse)
    def list_agent_tasks(current_page: Page = 1, page_size: PageSize = 10) -> TaskListResponse:
        tasks, pagination = service.tasks(current_page, page_size)
        return TaskListResponse(tasks=tasks, pagination=pagination)

    @app.get(f"{PREFIX}/tasks/{{task_id}}", response_model=Task)
    def get_agent_task(task_id: str) -> Task:
        return service.task(task_id)

    @app.get(f"{PREFIX}/tasks/{{task_id}}/steps", response_model=TaskStepsListResponse)
    def list_agent_task_steps(task_id: str, current_page: Page = 1, page_size: PageSize = 10) -> TaskStepsListResponse:
        steps, pagination = page(service.steps(task_id), current_page, page_size)
        return TaskStepsListResponse(steps=steps, pagination=pagination)

    @app.post(f"{PREFIX}/tasks/{{task_id}}/steps", response_model=Step)
    def execute_agent_task_step(task_id: str, body: StepRequestBody | None = None) -> Step:
        limits.check_input((body.input if body else None), "step's input")
        return service.execute(task_id, body or StepRequestBody())

    @app.post(f"{PREFIX}/tasks/{{task_id}}/steps/stream", response_class=StreamingResponse,
              responses={200: {"content": {"text/event-stream": {}}}})
    async def stream_agent_task_step(task_id: str, body: StepRequestBody | None = None) -> StreamingResponse:
        """Execute the task's next step as POST .../steps does, its run's events streamed as Server-Sent Events as
        they happen (`event: <type>`, `data:` the event's JSON, docs/events.md), then `event: step` with the step;
        `event: error` with a message where the step fails."""
        limits.check_input((body.input if body else None), "step's input")
        if service.record(task_id).state == "finished":
            raise TaskFinished(f"task {task_id} is finished: it has no next step")
        return StreamingResponse(step_events(service, task_id, body or StepRequestBody()),
                                 media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.get(f"{PREFIX}/tasks/{{task_id}}/steps/{{step_id}}", response_model=Step)
    def get_agent_task_step(task_id: str, step_id: str) -> Step:
        return service.step(task_id, step_id)

    @app.get(f"{PREFIX}/tasks/{{task_id}}/artifacts", response_model=TaskArtifactsListResponse)
    def list_agent_task_artifacts(task_id: str, current_page: Page = 1,
                                  page_size: PageSize = 10) -> TaskArtifactsListResponse:
        found, pagination = page(service.task(task_id).artifacts, current_page, page_size)
        return TaskArtifactsListResponse(artifacts=found, pagination=pagination)

    @app.post(f"{PREFIX}/tasks/{{task_id}}/artifacts", response_model=Artifact)
    def upload_agent_task_artifacts(task_id: str, file: Annotated[UploadFile, File()],
                                    relative_path: Annotated[str | None, Form()] = None) -> Artifact:
        workspace = service.workspace(task_id)
        try:  # copied from the spooled upload in pieces, through the file tools' own checks
            relative = files.save_upload(workspace, relative_path, file.filename or "upload", file.file,
                                         limits.artifact_bytes)
        except files.TooLarge as err:
            raise HTTPException(413, str(err)) from None
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        record = service.record(task_id)
        if relative not in record.uploaded:
            record.uploaded.append(relative)
            service.store.save(record)
        return files.artifact(relative, record.uploaded)

    @app.get(f"{PREFIX}/tasks/{{task_id}}/artifacts/{{artifact_id}}")
    def download_agent_task_artifact(task_id: str, artifact_id: str) -> StreamingResponse:
        workspace = service.workspace(task_id)
        relative = files.find(workspace, artifact_id)
        if relative is None:
            raise TaskNotFound(f"task {task_id} has no artifact with id {artifact_id!r}")
        try:
            chunks = files.read_chunks(workspace, relative)
        except ValueError as err:
            raise HTTPException(400, str(err)) from None
        name = relative.rsplit("/", 1)[-1]
        return StreamingResponse(chunks, media_type="application/octet-stream",
                                 headers={"Content-Disposition": files.disposition(name)})

    mount_a2a(app, service, access, limits, url, lambda: toolbox(settings))
    mount_page(app, service, access, batch)
    return app


def toolbox(settings: Settings) -> list[Any]:
    """The tools a task's agent offers (built as a task's agent is; the model is not called)."""
    from ..settings import build_agent

    agent = build_agent(settings)
    return list(agent.toolbox.tools.values())


async def step_events(service: TaskService, task_id: str, body: StepRequestBody) -> AsyncIterator[str]:
    """The SSE stream of one step: the run's events while it works (redacted), then the step, or an error."""
    try:
        async for heard in step_with_events(service, task_id, body):
            if isinstance(heard, Step):
                yield sse("step", json.loads(heard.model_dump_json()))
            else:
                yield sse(heard.type, redacted(heard.model_dump(mode="json")))
    except Exception as err:  # the stream has begun: the client reads the error as an event
        yield sse("error", {"message": str(err)})


def sse(kind: str, data: Any) -> str:
    """One Server-Sent Event."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
