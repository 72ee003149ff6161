"""The Agent Protocol v1 routes (FastAPI): tasks, steps and artifacts under /ap/v1, behind a bearer token when the
server has one."""

from __future__ import annotations

import contextlib
import hmac
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, FastAPI, File, Form, HTTPException, Query, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse

from .. import __version__
from . import artifacts as files
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
from .service import TaskFinished, TaskService
from .store import TaskNotFound

if TYPE_CHECKING:
    from ..settings import Settings

PREFIX = "/ap/v1/agent"
Page = Annotated[int, Query(ge=1)]
PageSize = Annotated[int, Query(ge=1, le=100)]


def create_app(settings: Settings, token: str | None = None, service: TaskService | None = None) -> FastAPI:
    """The server's application; every route needs `Authorization: Bearer <token>` when `token` is set."""
    service = service or TaskService(settings)

    def authorized(request: Request) -> None:
        if token is None:
            return
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), token.encode()):
            raise HTTPException(401, "a bearer token is required: Authorization: Bearer <token>",
                                headers={"WWW-Authenticate": "Bearer"})

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        service.close()  # paused runs end as interrupted; a restarted server continues them

    app = FastAPI(title="autoagent", version=__version__, dependencies=[Depends(authorized)], lifespan=lifespan,
                  description="autoagent through the Agent Protocol v1 (https://agentprotocol.ai).")
    app.state.service = service

    @app.exception_handler(HTTPException)
    def http_error(_: Request, err: HTTPException) -> JSONResponse:
        return JSONResponse({"message": str(err.detail)}, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(TaskNotFound)
    def not_found(_: Request, err: TaskNotFound) -> JSONResponse:
        return JSONResponse({"message": str(err)}, status_code=404)

    @app.exception_handler(TaskFinished)
    def finished(_: Request, err: TaskFinished) -> JSONResponse:
        return JSONResponse({"message": str(err)}, status_code=409)

    @app.post(f"{PREFIX}/tasks", response_model=Task)
    def create_agent_task(body: TaskRequestBody | None = None) -> Task:
        try:
            return service.create(body or TaskRequestBody())
        except ValueError as err:
            raise HTTPException(400, str(err)) from None

    @app.get(f"{PREFIX}/tasks", response_model=TaskListResponse)
    def list_agent_tasks(current_page: Page = 1, page_size: PageSize = 10) -> TaskListResponse:
        tasks, pagination = page(service.tasks(), current_page, page_size)
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
        return service.execute(task_id, body or StepRequestBody())

    @app.get(f"{PREFIX}/tasks/{{task_id}}/steps/{{step_id}}", response_model=Step)
    def get_agent_task_step(task_id: str, step_id: str) -> Step:
        return service.step(task_id, step_id)

    @app.get(f"{PREFIX}/tasks/{{task_id}}/artifacts", response_model=TaskArtifactsListResponse)
    def list_agent_task_artifacts(task_id: str, current_page: Page = 1,
                                  page_size: PageSize = 10) -> TaskArtifactsListResponse:
        found, pagination = page(service.task(task_id).artifacts, current_page, page_size)
        return TaskArtifactsListResponse(artifacts=found, pagination=pagination)

    @app.post(f"{PREFIX}/tasks/{{task_id}}/artifacts", response_model=Artifact)
    async def upload_agent_task_artifacts(task_id: str, file: Annotated[UploadFile, File()],
                                          relative_path: Annotated[str | None, Form()] = None) -> Artifact:
        service.record(task_id)
        try:
            target, relative = files.upload_path(service.workspace(task_id), relative_path,
                                                 file.filename or "upload")
        except files.BadArtifactPath as err:
            raise HTTPException(400, str(err)) from None
        target.write_bytes(await file.read())
        record = service.record(task_id)
        if relative not in record.uploaded:
            record.uploaded.append(relative)
            service.store.save(record)
        return files.artifact(relative, record.uploaded)

    @app.get(f"{PREFIX}/tasks/{{task_id}}/artifacts/{{artifact_id}}")
    def download_agent_task_artifact(task_id: str, artifact_id: str) -> FileResponse:
        path = files.find(service.workspace(task_id), artifact_id)
        if path is None:
            raise TaskNotFound(f"task {task_id} has no artifact with id {artifact_id!r}")
        return FileResponse(path, media_type="application/octet-stream", filename=path.name)

    return app
