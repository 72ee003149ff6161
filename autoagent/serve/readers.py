"""What the servers show of past runs and of the long-term memory, read as `autoagent runs` and `autoagent memory`
read them, redacted: the MCP server's read-only tools and the web page's panels both come from here."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..redact import redacted

if TYPE_CHECKING:
    from ..settings import Settings


def runs(limit: int = 20) -> dict[str, Any]:
    """The newest runs: id, when, task, status and steps."""
    from ..transcripts.reader import list_transcripts

    return redacted({"runs": [{"run_id": run.run_id, "started": run.started, "task": run.task, "status": run.status,
                               "steps": run.steps} for run in list_transcripts(None, limit)]})


def run(run_id: str, with_text: bool = True) -> dict[str, Any]:
    """One run whole from its transcript (any unique prefix of an id): task, status, every step, the answer, and
    (`with_text`) the text `autoagent runs show` prints."""
    from ..commands.runs import format_run
    from ..run_json import step_to_json
    from ..transcripts.reader import load_transcript

    transcript = load_transcript(run_id)
    return redacted({"run_id": transcript.run_id, "task": transcript.task, "status": transcript.status,
                     "started": transcript.started, "answer": transcript.answer,
                     "steps": [step_to_json(step) for step in transcript.steps],
                     **({"text": format_run(transcript)} if with_text else {})})


def recall(settings: Settings, query: str, k: int = 5) -> dict[str, Any]:
    """The memories nearest to `query` that a run of it would recall, best first, with their scores."""
    if not settings.use_memory:
        return {"memories": [], "note": "long-term memory is off for this server (--no-memory)"}
    from ..memory.long_term import LongTermMemory

    memory = LongTermMemory.open(settings.resolved_model(), base_url=settings.base_url, k=k)
    hits = sorted(memory.backend.search(query, k), key=lambda hit: -hit[1])
    return redacted({"memories": [{"id": document.metadata.get("id"), "task": document.metadata.get("task", ""),
                                   "score": round(score, 3), "text": document.page_content}
                                  for document, score in hits if score >= memory.min_score]})


def memories(limit: int = 50) -> dict[str, Any]:
    """The newest memories, as `autoagent memory list` lists them, and how many there are."""
    from ..memory.store import MemoryStore

    store = MemoryStore()
    return redacted({"memories": [asdict(entry) for entry in store.entries(limit)], "total": store.count()})


def forget(entry_id: str) -> bool:
    """Delete one memory (False: there is none with this id)."""
    from ..memory.store import MemoryStore

    return MemoryStore().forget(entry_id)


def batch(results_file: Path, tasks_file: Path | None = None) -> dict[str, Any]:
    """A batch's progress from its files: each task of the tasks file (where given) with its result once one is
    written (its latest line), how many are done, and whether a batch is writing the results now."""
    from ..batch.results import read_results, result_done, results_held
    from ..batch.tasks import read_tasks

    latest = {record["id"]: record for record in read_results(results_file)}
    listed = [(task.id, task.task) for task in read_tasks(tasks_file)] if tasks_file is not None else []
    known = {task_id for task_id, _ in listed}
    listed += [(task_id, str(record.get("task", ""))) for task_id, record in latest.items() if task_id not in known]
    tasks = []
    for task_id, text in listed:
        record = latest.get(task_id)
        state = "waiting" if record is None else ("finished" if record.get("finished") else
                                                  str(record.get("stop_reason", "stopped")))
        tasks.append({"id": task_id, "task": text, "state": state,
                      "answer": (record or {}).get("answer", ""), "done": record is not None and result_done(record)})
    return redacted({"tasks": tasks, "done": sum(task["done"] for task in tasks), "total": len(tasks),
                     "running": results_held(results_file), "results": str(results_file)})
