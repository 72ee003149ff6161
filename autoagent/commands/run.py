"""`autoagent [run]`: one task from the arguments, or an interactive REPL without them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import __version__
from .. import exit_codes as codes
from ..errors import AutoAgentError

if TYPE_CHECKING:
    from ..agent import AutoGPT
    from ..plan import PlanAndExecute

    Agent = AutoGPT | PlanAndExecute

EPILOG = f"""\b
Exit codes: {codes.OK} the task finished; {codes.ERROR} a configuration or model error;
{codes.USAGE} bad usage; {codes.NOT_FINISHED} the run stopped before finishing (step limit,
loop, unparseable replies); {codes.INTERRUPTED} interrupted with Ctrl-C.
Settings also load from ./api_keys.env and $AUTOAGENT_HOME/api_keys.env.
"""


class TaskCommand(click.Command):
    """The default command; its help also lists the group's other commands."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The epilog, then the sibling commands (`autoagent memory`, ...) with their short help."""
        super().format_epilog(ctx, formatter)
        group = ctx.parent.command if ctx.parent else None
        if isinstance(group, click.Group):
            rows = [(name, command.get_short_help_str()) for name, command in group.commands.items()
                    if command is not self]
            if rows:
                with formatter.section("Other commands"):
                    formatter.write_dl(rows)


@click.command("run", cls=TaskCommand, epilog=EPILOG, context_settings={"show_default": True})
@click.argument("task", nargs=-1)
@click.option("-m", "--model", envvar="AUTOAGENT_MODEL", show_envvar=True,
              help="openai:<name>, local, or local:/path/to/model.gguf. "
                   "[default: openai:gpt-4o-mini when OPENAI_API_KEY is set, else local]")
@click.option("--base-url", envvar=["AUTOAGENT_BASE_URL", "OPENAI_BASE_URL"], show_envvar=True,
              help="Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp server).")
@click.option("--max-steps", type=click.IntRange(min=1), default=10, envvar="AUTOAGENT_MAX_STEPS",
              show_envvar=True, help="Most thought/action steps a run may take.")
@click.option("--memory-window", type=click.IntRange(min=1), default=5, envvar="AUTOAGENT_MEMORY_WINDOW",
              show_envvar=True, help="How many recent steps the prompt shows the model.")
@click.option("--workspace", type=click.Path(file_okay=False, path_type=Path), default=Path("workspace"),
              envvar="AUTOAGENT_WORKSPACE", show_envvar=True,
              help="Directory the file tools are confined to (created when needed).")
@click.option("--prompts-dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              envvar="AUTOAGENT_PROMPTS_DIR", show_envvar=True,
              help="Directory of .templ files overriding any of the packaged prompts.")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", envvar="AUTOAGENT_LANG",
              show_envvar=True, help="Language of the packaged prompts.")
@click.option("--name", default="AutoAgent", envvar="AUTOAGENT_NAME", show_envvar=True,
              help="The agent's name in its prompt.")
@click.option("--role", default=None, envvar="AUTOAGENT_ROLE", show_envvar=True,
              help="The agent's role in its prompt.  [default: an assistant that completes the user's task "
                   "with tools.]")
@click.option("--protocol", type=click.Choice(["json", "tools", "react"]), default="json",
              envvar="AUTOAGENT_PROTOCOL", show_envvar=True,
              help="How the model picks tools: json (AutoGPT's Thought/Action JSON), tools (the model's native "
                   "function calling; finishes with final_answer), react (Thought / Action / Action Input text).")
@click.option("--mode", type=click.Choice(["loop", "plan"]), default="loop", envvar="AUTOAGENT_MODE",
              show_envvar=True,
              help="loop: think, act and observe each step; plan: plan the whole tool chain first, show it, then "
                   "run it, each tool's output becoming the next tool's input.")
@click.option("--thoughts", type=click.Choice(["auto", "full", "compact"]), default="auto",
              envvar="AUTOAGENT_THOUGHTS", show_envvar=True,
              help="Thought shape asked of the model: full (text, reasoning, plan, criticism, speak) or compact "
                   "(one sentence); auto is compact for the local model, full otherwise.")
@click.option("--memory/--no-memory", "use_memory", default=True, envvar="AUTOAGENT_MEMORY", show_envvar=True,
              help="Recall summaries of similar past runs, and remember this one ($AUTOAGENT_HOME/memory).")
@click.option("--verbose/--quiet", default=True, envvar="AUTOAGENT_VERBOSE", show_envvar=True,
              help="Show each step (thought, action, observation) on stderr.")
@click.version_option(__version__, "--version", prog_name="autoagent")
@click.pass_context
def run(ctx: click.Context, task: tuple[str, ...], **options: Any) -> None:
    """Run TASK with an autonomous agent and print its answer; with no TASK, start a REPL.

    The answer goes to stdout and the step trace to stderr, so
    `autoagent "task" > answer.txt` keeps just the answer.
    """
    verbose = bool(options["verbose"])
    from_environment = ctx.get_parameter_source("base_url") is click.core.ParameterSource.ENVIRONMENT
    try:
        agent = build_agent(options, base_url_from_environment=from_environment)
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        ctx.exit(codes.INTERRUPTED)
    if not task:
        from ..repl import run_repl

        run_repl(agent, verbose=verbose)
        return
    ctx.exit(run_once(agent, " ".join(task), verbose=verbose))


def build_agent(options: dict[str, Any], base_url_from_environment: bool = False) -> Agent:
    """The agent the options describe: model, built-in tools, prompts and limits."""
    from ..agent import DEFAULT_ROLE, AutoGPT
    from ..llm import default_model_spec, load_chat_model
    from ..llm.embeddings import load_embeddings
    from ..plan import PlanAndExecute
    from ..tools import default_tools

    spec = options["model"] or default_model_spec()
    base_url = options["base_url"]
    if base_url_from_environment and not spec.startswith("openai:"):
        base_url = None  # OPENAI_BASE_URL in the environment only concerns OpenAI-compatible models
    llm = load_chat_model(spec, base_url=base_url)
    common = {
        "llm": llm,
        "tools": default_tools(Path(str(options["workspace"])), load_embeddings(spec, base_url=base_url)),
        "prompts_path": options["prompts_dir"],
        "agent_name": options["name"],
        "agent_role": options["role"] or DEFAULT_ROLE,
        "max_thought_steps": options["max_steps"],
        "lang": options["lang"],
    }
    if options["mode"] == "plan":
        return PlanAndExecute(**common)
    thoughts = options["thoughts"]
    memory = None
    if options["use_memory"]:
        from ..memory.long_term import LongTermMemory
        from ..prompts import PromptTemplateBuilder

        prompts = PromptTemplateBuilder(options["prompts_dir"], options["lang"])
        memory = LongTermMemory.open(spec, base_url=base_url, prompts=prompts)
    return AutoGPT(
        **common,
        long_term_memory=memory,
        memory_window=options["memory_window"],
        compact_thoughts=thoughts == "compact" or (thoughts == "auto" and spec.startswith("local")),
        protocol=options["protocol"],
    )


def run_once(agent: Agent, task: str, verbose: bool) -> int:
    """Run one task: the answer to stdout, the reason to stderr when it did not finish; the exit code."""
    try:
        result = agent.execute(task, verbose=verbose)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: the run was stopped", err=True)
        return codes.INTERRUPTED
    except AutoAgentError as err:
        click.echo(f"Error: {err}", err=True)
        return codes.ERROR
    if result.answer:
        click.echo(result.answer)
    if not result.finished:
        click.echo(f"stopped: {result.describe_stop()}", err=True)
        return codes.NOT_FINISHED
    return codes.OK
