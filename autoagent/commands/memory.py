"""`autoagent memory`: list, search, show, forget, clear and re-embed the long-term memory."""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import AutoAgentError
from ..text import escape_controls, shorten
from .from_repl import run_group_from_line

if TYPE_CHECKING:
    from ..memory.entries import MemoryEntry
    from ..memory.store import MemoryStore

TASK_CHARS = 70
_F = TypeVar("_F", bound=Callable[..., Any])


def _store() -> MemoryStore:
    """The user's store; imported here so `autoagent --help` does not pay for numpy and faiss."""
    from ..memory.store import MemoryStore

    return MemoryStore()


@contextlib.contextmanager
def _reported() -> Iterator[None]:
    """Our errors (damaged store, wrong embedding model, no key) as one line and exit code 1."""
    try:
        yield
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err


def _embedding_options(command: _F) -> _F:
    """--model and --base-url, as for `autoagent run`: they choose the embedding model."""
    command = click.option("--base-url", envvar=["AUTOAGENT_BASE_URL", "OPENAI_BASE_URL"], show_envvar=True,
                           help="Base URL of an OpenAI-compatible server, for openai:<name> models.")(command)
    return click.option("-m", "--model", envvar="AUTOAGENT_MODEL", show_envvar=True,
                        help="Model spec whose embeddings to use: openai:<name> (OpenAI embeddings, "
                             "$AUTOAGENT_EMBEDDING_MODEL or text-embedding-3-small) or local[:path].")(command)


def _spec_and_url(model: str | None, base_url: str | None) -> tuple[str, str | None]:
    """The model spec (the default one when unset) and the base URL that applies to it."""
    from ..llm import default_model_spec

    spec = model or default_model_spec()
    return spec, base_url if spec.startswith("openai:") else None


def format_memories(entries: Sequence[MemoryEntry], total: int | None = None) -> str:
    """A table of entries (id, time, outcome, task), newest first; what `list` and the REPL's /memory print."""
    if not entries:
        return "No memories yet."
    width = max(len(entry.id) for entry in entries)
    lines = [f"{'ID':>{width}}  {'WHEN (UTC)':16}  {'OUTCOME':13}  TASK"]
    for entry in entries:
        task = shorten(" ".join(entry.task.split()), TASK_CHARS)  # one line
        lines.append(f"{entry.id:>{width}}  {_when(entry):16}  {entry.outcome:13}  {task}")
    if total is not None and total > len(entries):
        lines.append(f"({len(entries)} of {total} shown)")
    return "\n".join(lines)


def format_memory(entry: MemoryEntry) -> str:
    """One entry in full: its metadata, then the summary."""
    rows = [("ID", entry.id), ("Task", entry.task), ("Outcome", entry.outcome), ("When", entry.created),
            ("Model", entry.model), ("Run", entry.run_id),
            *((key.capitalize(), str(value)) for key, value in entry.extra.items())]
    lines = [f"{name + ':':9} {value}" for name, value in rows]
    lines.append("Summary:")
    lines.extend(textwrap.wrap(entry.summary, width=100, initial_indent="  ", subsequent_indent="  "))
    return "\n".join(lines)


@click.group("memory", context_settings={"help_option_names": ["-h", "--help"]})
def memory() -> None:
    """Inspect the long-term memory: summaries of past runs, kept in $AUTOAGENT_HOME/memory."""


@memory.command("list")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=50, show_default=True,
              help="Show at most this many memories, newest first.")
def list_memories(limit: int) -> None:
    """List remembered runs, newest first."""
    with _reported():
        store = _store()
        click.echo(escape_controls(format_memories(store.entries(limit), total=store.count())))


@memory.command("search")
@click.argument("query", nargs=-1, required=True)
@click.option("-k", type=click.IntRange(min=1), default=5, show_default=True, help="How many memories to show.")
@click.option("--all", "show_all", is_flag=True, help="Also show memories below the recall threshold.")
@_embedding_options
def search(query: tuple[str, ...], k: int, show_all: bool, model: str | None, base_url: str | None) -> None:
    """Show the memories nearest to QUERY (its words joined, as for a task), with scores.

    These are what a run on QUERY would recall; --all also shows the ones below the recall threshold.
    """
    from ..memory.long_term import LongTermMemory

    text = " ".join(query)
    with _reported():
        spec, url = _spec_and_url(model, base_url)
        long_term = LongTermMemory.open(spec, base_url=url, k=k)
        hits = [(doc, score) for doc, score in long_term.backend.search(text, k)
                if show_all or score >= long_term.min_score]
    hits.sort(key=lambda hit: str(hit[0].metadata.get("created", "")), reverse=True)
    hits.sort(key=lambda hit: -round(hit[1], 6))  # best first; among equal scores, the newest first
    if not hits:
        click.echo("No memories yet." if show_all else
                   f"No memory reaches the recall threshold {long_term.min_score:.2f} (--all shows the nearest).")
    for document, score in hits:
        mark = "" if score >= long_term.min_score else "  (below the recall threshold)"
        shown = f"{score:.3f}  #{document.metadata.get('id', '?')}  {document.metadata.get('task', '')}{mark}"
        click.echo(escape_controls(shown))
        click.echo(escape_controls(textwrap.indent(textwrap.fill(document.page_content, width=100), "       ")))


@memory.command("show")
@click.argument("entry_id", metavar="ID")
def show(entry_id: str) -> None:
    """Show one memory in full."""
    with _reported():
        entry = _store().get(entry_id)
    if entry is None:
        raise click.ClickException(f"no memory with id {entry_id!r} (see `autoagent memory list`)")
    click.echo(escape_controls(format_memory(entry)))


@memory.command("forget")
@click.argument("entry_id", metavar="ID")
def forget(entry_id: str) -> None:
    """Delete one memory."""
    with _reported():
        removed = _store().forget(entry_id)
    if not removed:
        raise click.ClickException(f"no memory with id {entry_id!r} (see `autoagent memory list`)")
    click.echo(f"Forgot memory {entry_id}.")


@memory.command("clear")
@click.option("-y", "--yes", is_flag=True, help="Do not ask for confirmation.")
def clear(yes: bool) -> None:
    """Delete every memory (asks first unless --yes)."""
    with _reported():
        store = _store()
        count = store.count()
        if count == 0:
            click.echo("No memories to clear.")
            return
        if not yes:
            click.confirm(f"Delete all {count} memories in {store.directory}?", abort=True)
        click.echo(f"Deleted {store.clear()} memories.")


@memory.command("reembed")
@_embedding_options
def reembed(model: str | None, base_url: str | None) -> None:
    """Re-embed every memory with another model.

    Run it after changing --model or AUTOAGENT_EMBEDDING_MODEL: the store refuses vectors from an
    embedding model other than the one that filled it.
    """
    from ..llm.embeddings import embedding_model_id, load_embeddings

    def progress(done: int, total: int) -> None:
        click.echo(f"re-embedded {done}/{total}", err=True)

    with _reported():
        spec, url = _spec_and_url(model, base_url)
        embeddings = load_embeddings(spec, base_url=url)
        count = _store().reembed(embeddings.embed_documents, embedding_model_id(spec), progress=progress)
    click.echo(f"Re-embedded {count} memories with {embedding_model_id(spec)}.")


def run_memory_command(line: str, model: str | None = None, base_url: str | None = None) -> None:
    """Run `memory` sub-commands from a REPL line such as `search usd to eur` (empty: `list`); `model` and
    `base_url` are the session's, for the commands that embed text."""
    run_group_from_line(memory, line, "/memory", {"model": model or "", "base_url": base_url or ""})


def _when(entry: MemoryEntry) -> str:
    """The entry's time as `YYYY-MM-DD HH:MM`."""
    return entry.created.replace("T", " ")[:16]
