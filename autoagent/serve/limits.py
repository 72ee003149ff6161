"""What one request may carry and how much the server holds at once: a request body's size (an upload's is the
artifact limit), a task's or step's input, and the runs kept live in memory. Past a size limit the answer is 413."""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException

from .access import ASGIApp, Receive, Scope, Send, refuse

MIB = 1024 * 1024
_UPLOAD = re.compile(r"/ap/v1/agent/tasks/[^/]+/artifacts/?$")
_MULTIPART_SLACK = 64 * 1024  # a multipart body's boundaries and fields around the file


@dataclass(frozen=True)
class Limits:
    """The server's limits (the CLI's --max-upload-mb and --max-live-tasks set two of them)."""

    body_bytes: int = 1 * MIB  # a JSON request
    input_chars: int = 100_000  # a task's text or a step's input
    artifact_bytes: int = 100 * MIB  # one uploaded file
    live_tasks: int = 8  # runs held in memory; an idle one is closed past this, and resumed from its transcript

    def body_limit(self, method: str, path: str) -> int:
        """The most bytes this request's body may have."""
        if method == "POST" and _UPLOAD.search(path):
            return self.artifact_bytes + _MULTIPART_SLACK
        return self.body_bytes

    def too_large(self, method: str, path: str) -> str:
        """The 413 message for a body over this request's limit."""
        if method == "POST" and _UPLOAD.search(path):
            return (f"the upload is over this server's limit of {self.artifact_bytes:,} bytes a file "
                    f"({self.artifact_bytes / MIB:.1f} MiB; autoagent serve --max-upload-mb)")
        return (f"the request body is over this server's limit of {self.body_bytes:,} bytes "
                f"({self.body_bytes / MIB:.1f} MiB)")

    def check_input(self, text: str | None, what: str) -> None:
        """413 for an input longer than the limit."""
        if text is not None and len(text) > self.input_chars:
            raise HTTPException(413, f"the {what} has {len(text):,} characters; this server takes at most "
                                     f"{self.input_chars:,}")


class BodyLimit:
    """ASGI middleware: a body whose Content-Length or streamed bytes pass the limit is refused with 413 (the bytes
    past it are never read)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.body_limit(scope["method"], scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await refuse(send, 413, self.limits.too_large(scope["method"], scope["path"]))
            return
        seen = 0

        async def counted() -> MutableMapping[str, Any]:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b"") or b"")
            if seen > limit:
                raise HTTPException(413, self.limits.too_large(scope["method"], scope["path"]))
            return message

        await self.app(scope, counted, send)
