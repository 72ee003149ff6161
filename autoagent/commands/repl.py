"""The interactive loop: each entry is a task that sees the conversation so far; slash commands act on the session."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from ..errors import AutoAgentError
from ..paths import autoagent_home, private_file
from . import exit_codes as codes
from .slash_commands import Next, ReplSession, describe_model, is_command, run_command

if TYPE_CHECKING:
    from ..settings import Agent
    from .speaking import SpeechSwitch

PROMPT = "autoagent> "
CONTINUATION = "... "
HISTORY_FILE = "repl_history"
EXIT_HINT = "(press Ctrl-C again or Ctrl-D to exit)"
KEY_HINT = "Enter runs it; Esc-Enter or a trailing \\ starts a new line; /help lists commands; Ctrl-D leaves"


def run_repl(
    agent: Agent,
    *,
    run_task: Callable[[str], int],
    model_spec: str = "",
    base_url: str | None = None,
    read_entry: Callable[[], str] | None = None,
    speech: SpeechSwitch | None = None,
) -> None:
    """Read entries until /quit or EOF; a failed or interrupted run returns to the prompt.

    `run_task` runs one task and returns its exit code (the caller passes `run_once`); `read_entry` returns the next
    entry, raising EOFError or KeyboardInterrupt (by default prompt_toolkit on a terminal, else stdin lines);
    `speech` is what /speak turns on and off (`run_task` speaks through it).
    """
    session = ReplSession(agent, model_spec, base_url, speech=speech)
    if read_entry is None:
        read_entry = read_terminal_entry(describe_model(session)) if _on_a_terminal() else read_piped_entry
    click.echo(f"autoagent with {describe_model(session)}: type a task. {KEY_HINT}.", err=True)
    armed = False  # a Ctrl-C was just pressed (or stopped a run): one more on an empty line leaves
    while True:
        try:
            entry = read_entry().strip()
        except EOFError:
            click.echo("", err=True)
            return
        except KeyboardInterrupt:
            if session.speech is not None:
                session.speech.silence()  # Ctrl-C at the prompt also cuts short the answer being said
            if armed:
                click.echo("", err=True)
                return
            armed = True
            click.echo(EXIT_HINT, err=True)
            continue
        if not entry:
            continue
        armed = False
        if is_command(entry):
            if _command(entry, session) is Next.QUIT:
                return
            continue
        if _run(entry, session, run_task) == codes.INTERRUPTED:
            armed = True
            click.echo(EXIT_HINT, err=True)


def _command(entry: str, session: ReplSession) -> Next:
    """Run a slash command; Ctrl-C stops it and the prompt comes back."""
    try:
        return run_command(entry, session)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        return Next.PROMPT


def _run(request: str, session: ReplSession, run_task: Callable[[str], int]) -> int:
    """Run `request` in the conversation's context; remember the exchange when it got an answer."""
    agent = session.agent
    try:
        task = session.conversation.task_for(request, agent.prompts)
        code = run_task(task)
    except KeyboardInterrupt:  # run_once reports it; this covers a run_task that does not
        click.echo("\ninterrupted: the run was stopped", err=True)
        return codes.INTERRUPTED
    except AutoAgentError as err:
        click.echo(f"Error: {err}", err=True)
        return codes.ERROR
    result = agent.last_run
    if code != codes.INTERRUPTED and result is not None and result.task == task and result.answer:
        session.conversation.add(request, result.answer)
    return code


def _on_a_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def read_piped_entry() -> str:
    """The next entry from stdin; a line ending in a backslash continues on the next. The prompts go to stderr,
    so stdout holds only the answers."""
    lines = [_read_line(PROMPT)]
    while lines[-1].endswith("\\"):
        lines[-1] = lines[-1][:-1]
        try:
            lines.append(_read_line(CONTINUATION))
        except EOFError:
            break
    return "\n".join(lines)


def _read_line(prompt: str) -> str:
    """One line of stdin without its newline, after `prompt` on stderr; EOFError at the end."""
    click.echo(prompt, nl=False, err=True)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.removesuffix("\n")


def read_terminal_entry(model: str) -> Callable[[], str]:
    """A prompt_toolkit reader: line editing, history in $AUTOAGENT_HOME/repl_history, multi-line entries."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    history = private_file(autoagent_home() / HISTORY_FILE)  # it holds every task typed
    bindings = KeyBindings()

    @bindings.add("enter")
    def _submit(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.document.is_cursor_at_the_end and buffer.text.endswith("\\"):
            buffer.delete_before_cursor()
            buffer.insert_text("\n")
        else:
            buffer.validate_and_handle()

    @bindings.add("escape", "enter")
    def _new_line(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    @bindings.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        if event.current_buffer.text:  # typed text: Ctrl-C only clears the line
            event.current_buffer.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    session: PromptSession[str] = PromptSession(
        history=FileHistory(str(history)), key_bindings=bindings, multiline=True,
        prompt_continuation=CONTINUATION, bottom_toolbar=f" {model} | {KEY_HINT}",
    )
    return lambda: session.prompt(PROMPT)
