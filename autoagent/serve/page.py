"""The web page `autoagent serve` serves at `/`: opened once with the token (`/?token=…`, as Jupyter's), which sets
an HttpOnly, SameSite=Strict session cookie named for this server's port and valid until it stops, then reloaded
without it. Every asset ships in the package (page/): plain HTML, CSS and a few hundred lines of script that drive
the Agent Protocol routes (a step at a time, its events streamed) and the read-only routes below, under the same
access rules as every route.

Routes besides the page: POST /ui/tasks/{id}/stop (the run stops as Ctrl-C stops it, resumable), GET /ui/runs and
/ui/runs/{id} (`autoagent runs`), GET /ui/memory, /ui/memory/search?q= and DELETE /ui/memory/{id}
(`autoagent memory`), and GET /ui/batch: the progress of the batch whose files the server was pointed at
(`autoagent serve --batch-out FILE [--batch-tasks FILE]`)."""

from __future__ import annotations

import asyncio
import html
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.exceptions import HTTPException

from ..errors import ConfigurationError
from . import readers
from .access import query_token

if TYPE_CHECKING:
    from .access import Access
    from .service import TaskService

ASSETS = {"page.js": "text/javascript; charset=utf-8", "page.css": "text/css; charset=utf-8"}
PROTOCOLS = ("json", "tools", "react", "code", "auto")
# What the page may load and where it may connect: this server only.
SECURITY = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                                       "base-uri 'none'; form-action 'self'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


@dataclass(frozen=True)
class BatchFiles:
    """A batch the page follows: its results file, and its tasks file to list the tasks still waiting."""

    results: Path
    tasks: Path | None = None


def asset(name: str) -> str:
    """A file of the page, as the package holds it."""
    return (resources.files("autoagent.serve") / "page" / name).read_text(encoding="utf-8")


def page_html(service: TaskService, batch: BatchFiles | None = None) -> str:
    """The page, with what this server runs filled in."""
    settings = service.settings
    options = "".join(f'<option value="{name}"{" selected" if name == settings.protocol else ""}>{name}</option>'
                      for name in PROTOCOLS)
    approvals = ("actions with side effects run without asking (--yes)" if settings.yes else
                 "actions with side effects wait for your approval")
    return Template(asset("index.html")).substitute(
        name=html.escape(settings.name or "autoagent"), model=html.escape(settings.resolved_model()),
        max_steps=settings.max_steps, approvals=approvals, protocols=options,
        batch_hidden="" if batch is not None else " hidden",
        batch_file=html.escape(str(batch.results)) if batch is not None else "")


def mount_page(app: FastAPI, service: TaskService, access: Access, batch: BatchFiles | None = None) -> None:
    """The page and its routes on `app` (whose middleware holds the access rules)."""

    @app.get("/", include_in_schema=False)
    def page(request: Request) -> Response:
        if query_token(request.url.query) is not None:  # opened with the token: the cookie takes its place
            response: Response = RedirectResponse("/", status_code=303, headers=SECURITY)
            response.set_cookie(access.cookie, access.session, httponly=True, samesite="strict", path="/")
            return response
        return HTMLResponse(page_html(service, batch), headers=SECURITY)

    @app.get("/page/{name}", include_in_schema=False)
    def page_asset(name: str) -> Response:
        if name not in ASSETS:
            raise HTTPException(404, f"the page has no file {name!r}")
        return Response(asset(name), media_type=ASSETS[name], headers=SECURITY)

    @app.post("/ui/tasks/{task_id}/stop", status_code=204, tags=["page"])
    async def stop_task(task_id: str) -> Response:
        """Stop the task's run as Ctrl-C stops it: now between steps, at its next model call within one; its next
        step resumes it."""
        await asyncio.to_thread(service.stop, service.record(task_id).task_id)
        return Response(status_code=204)

    @app.get("/ui/runs", tags=["page"])
    async def list_runs(limit: int = 50) -> dict[str, Any]:
        """The newest runs, as `autoagent runs list` lists them."""
        return await asyncio.to_thread(readers.runs, limit)

    @app.get("/ui/runs/{run_id}", tags=["page"])
    async def show_run(run_id: str) -> dict[str, Any]:
        """One run whole, and the text `autoagent runs show` prints."""
        try:
            return await asyncio.to_thread(readers.run, run_id)
        except ConfigurationError as err:  # no such run, or an ambiguous prefix
            raise HTTPException(404, str(err)) from None

    @app.get("/ui/memory", tags=["page"])
    async def list_memories(limit: int = 50) -> dict[str, Any]:
        """The newest memories, as `autoagent memory list` lists them."""
        return await asyncio.to_thread(readers.memories, limit)

    @app.get("/ui/memory/search", tags=["page"])
    async def search_memories(q: str, k: int = 5) -> dict[str, Any]:
        """The memories a run of `q` would recall, best first."""
        return await asyncio.to_thread(readers.recall, service.settings, q, k)

    @app.delete("/ui/memory/{entry_id}", status_code=204, tags=["page"])
    async def forget_memory(entry_id: str) -> Response:
        """Forget one memory, as `autoagent memory forget` does."""
        if not await asyncio.to_thread(readers.forget, entry_id):
            raise HTTPException(404, f"no memory with id {entry_id!r}")
        return Response(status_code=204)

    @app.get("/ui/batch", tags=["page"])
    async def batch_progress() -> dict[str, Any]:
        """The followed batch's tasks, their states and answers as its results come in."""
        if batch is None:
            raise HTTPException(404, "this server follows no batch (autoagent serve --batch-out FILE)")
        return await asyncio.to_thread(readers.batch, batch.results, batch.tasks)


__all__ = ["BatchFiles", "mount_page", "page_html"]
