"""The Agent Protocol v1 schema (https://agentprotocol.ai), as its OpenAPI file and the `agent-protocol` and
`agent-protocol-client` packages define it.

Written here rather than imported: `agent-protocol` 1.0.2 (the newest) pins pydantic<2, fastapi<0.101 and pytest<8,
and its models are pydantic v1 classes, which cannot live beside this project's pydantic v2 and FastAPI. The field
names, types and required fields follow its `models.py`; `additional_input` and `additional_output` are free objects,
as the client package types them.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, Field, field_validator

from ..json_input import check_depth


class Artifact(BaseModel):
    """A file in the task's workspace."""

    artifact_id: str = Field(..., description="ID of the artifact.")
    agent_created: bool = Field(..., description="Whether the artifact has been created by the agent.")
    file_name: str = Field(..., description="Filename of the artifact.")
    relative_path: str | None = Field(None, description="Relative path of the artifact in the agent's workspace.")


class Pagination(BaseModel):
    """Where a page of a list stands."""

    total_items: int = Field(..., description="Total number of items.")
    total_pages: int = Field(..., description="Total number of pages.")
    current_page: int = Field(..., description="Current_page page number.")
    page_size: int = Field(..., description="Number of items per page.")


class TaskRequestBody(BaseModel):
    """What creates a task."""

    input: str | None = Field(None, description="Input prompt for the task.")
    additional_input: dict[str, Any] | None = None

    @field_validator("additional_input")
    @classmethod
    def _not_too_deep(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        check_depth(value)  # deeper, it could be neither stored nor sent back
        return value


class Task(TaskRequestBody):
    """A task and the files it has in its workspace."""

    task_id: str = Field(..., description="The ID of the task.")
    artifacts: list[Artifact] = Field(default_factory=list, description="A list of artifacts that the task has "
                                      "produced.")


class StepRequestBody(BaseModel):
    """What asks for the next step: `input` answers an approval question (y, n, or feedback)."""

    input: str | None = Field(None, description="Input prompt for the step.")
    additional_input: dict[str, Any] | None = None

    @field_validator("additional_input")
    @classmethod
    def _not_too_deep(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        check_depth(value)
        return value


class Status(str, Enum):
    """A step's status."""

    created = "created"
    running = "running"  # here: the step waits for the user's approval, which the next step's input gives
    completed = "completed"


class Step(StepRequestBody):
    """One step of a task."""

    task_id: str = Field(..., description="The ID of the task this step belongs to.")
    step_id: str = Field(..., description="The ID of the task step.")
    name: str | None = Field(None, description="The name of the task step.")
    status: Status = Field(..., description="The status of the task step.")
    output: str | None = Field(None, description="Output of the task step.")
    additional_output: dict[str, Any] | None = None
    artifacts: list[Artifact] = Field(default_factory=list, description="A list of artifacts that the step has "
                                      "produced.")
    is_last: bool = Field(False, description="Whether this is the last step in the task.")


class TaskListResponse(BaseModel):
    """A page of tasks."""

    tasks: list[Task]
    pagination: Pagination


class TaskStepsListResponse(BaseModel):
    """A page of a task's steps."""

    steps: list[Step]
    pagination: Pagination


class TaskArtifactsListResponse(BaseModel):
    """A page of a task's artifacts."""

    artifacts: list[Artifact]
    pagination: Pagination


class NotFoundResponse(BaseModel):
    """The body of a 404 (and of the other errors)."""

    message: str = Field(..., description="Message stating the entity was not found")


def page(items: list[Any], current_page: int, page_size: int) -> tuple[list[Any], Pagination]:
    """One page of `items` and its pagination (pages count from 1)."""
    total_pages = max(1, -(-len(items) // page_size))
    start = (current_page - 1) * page_size
    return items[start:start + page_size], Pagination(total_items=len(items), total_pages=total_pages,
                                                      current_page=current_page, page_size=page_size)
