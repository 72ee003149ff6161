"""`autoagent doctor`: checks settings, model, browser, python sandbox, memory, workspace and user tools; says what
to fix."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import click

from ..errors import AutoAgentError
from .findings import Finding
from .model_checks import SERVER_TIMEOUT_S, check_model

BROWSER_FIX = "sudo apt-get install chromium chromium-driver"


def check_settings_files(directories: list[Path] | None = None) -> list[Finding]:
    """Which api_keys.env files exist, the names they set (never the values), and who may read them."""
    from dotenv import dotenv_values

    from ..api_keys import SETTINGS_FILE, is_local_setting, project_settings_file
    from ..paths import autoagent_home

    paths = [directory / SETTINGS_FILE for directory in directories or [Path.cwd(), autoagent_home()]]
    found = [path for path in paths if path.is_file()]
    if not found:
        return [Finding("settings", "ok", f"no {SETTINGS_FILE} (optional; looked for {', '.join(map(str, paths))})")]
    checks = []
    for path in found:
        try:
            values = dotenv_values(path)
        except (OSError, UnicodeDecodeError) as err:
            checks.append(Finding("settings", "FAIL", f"{path} cannot be read ({err}): no command runs until it can",
                                  f"make it readable UTF-8, or move it away: {path}"))
            continue
        names = ", ".join(name for name, value in values.items() if value) or "nothing"
        checks.append(Finding("settings", "ok", f"{path} sets {names}"))
        ignored = [name for name, value in values.items() if value and not is_local_setting(name)]
        if ignored and path == project_settings_file():
            checks.append(Finding("settings", "warn", f"{path} may set API keys only: {', '.join(ignored)} ignored",
                                  f"move them to {autoagent_home() / SETTINGS_FILE}"))
        if os.name == "posix" and path.stat().st_mode & (stat.S_IRGRP | stat.S_IROTH):
            checks.append(Finding("settings", "warn", f"{path} is readable by other users", f"chmod 600 {path}"))
    return checks


def check_browser(chromium: str | None = None, chromedriver: str | None = None) -> Finding:
    """Chromium and chromedriver where the browser tool looks for them (only needed for JavaScript pages)."""
    from ..tools import browser

    paths = [chromium or browser.CHROMIUM, chromedriver or browser.CHROMEDRIVER]
    missing = [path for path in paths if not Path(path).is_file()]
    if not missing:
        return Finding("browser", "ok", f"{' and '.join(paths)} found")
    return Finding("browser", "warn", f"{' and '.join(missing)} missing: read_webpage cannot render JavaScript pages",
                   BROWSER_FIX)


def check_python_sandbox(sandbox: str = "bwrap") -> Finding:
    """Which sandbox the python tool (--allow-python) runs code in, and whether bubblewrap can start one here."""
    from ..tools.sandbox import INSTALL_HINT, bwrap_path, bwrap_problem

    if sandbox == "none":
        return Finding("python sandbox", "warn", "none: --allow-python runs code unsandboxed, as you",
                       "drop --python-sandbox none (AUTOAGENT_PYTHON_SANDBOX) to run it under bubblewrap")
    problem = bwrap_problem()
    if problem is not None:
        return Finding("python sandbox", "warn", f"{problem}: no python tool (--protocol auto picks json)",
                       INSTALL_HINT if bwrap_path() is None else "allow unprivileged user namespaces, or use "
                       "--python-sandbox none to run code unsandboxed")
    return Finding("python sandbox", "ok", f"bubblewrap ({bwrap_path()}): python runs code sandboxed (--protocol auto "
                   "picks code for the local model)")


def check_memory(spec: str, directory: Path | None = None) -> Finding:
    """The long-term memory store: opens, loads its vectors, and holds the selected model's embeddings."""
    from ..llm.embeddings import embedding_model_id
    from ..memory.errors import MemoryStoreCorruptError
    from ..memory.store import MemoryStore, default_memory_dir

    directory = directory or default_memory_dir()
    try:
        wanted: str | None = embedding_model_id(spec)
    except AutoAgentError:  # a bad spec, which the model check reports
        wanted = None
    if not directory.exists():
        return Finding("memory", "ok", f"empty; {directory} is created by the first run")
    store = MemoryStore(directory, lock_timeout=SERVER_TIMEOUT_S)
    try:
        count, record = store.count(), store.embedding_record()
        if record is not None:  # loads the vector files, so damage shows now rather than mid-run
            store.search([1.0] + [0.0] * (record[1] - 1), 1, record[0])
    except MemoryStoreCorruptError as err:
        return Finding("memory", "FAIL", str(err), "nothing more to do, or run with --no-memory")
    except AutoAgentError as err:
        return Finding("memory", "FAIL", str(err), f"close other autoagent runs, check {directory}, or use --no-memory")
    finally:
        store.close()
    held = f"{count} memor{'y' if count == 1 else 'ies'}"
    if record is not None and count and wanted is not None and record[0] != wanted:
        return Finding("memory", "FAIL", f"{held} in {directory} embedded with {record[0]}, but {spec} embeds with "
                       f"{wanted}", f"autoagent memory reembed --model {spec}, or use --no-memory")
    return Finding("memory", "ok", f"{directory} holds {held} ({record[0] if record else wanted})")


def check_workspace(path: Path) -> Finding:
    """The workspace directory exists and is writable, or its nearest existing parent allows creating it."""
    path = Path(path).expanduser().absolute()
    if path.exists() and not path.is_dir():
        return Finding("workspace", "FAIL", f"{path} is not a directory", "choose another --workspace")
    if path.is_dir():
        try:
            import tempfile

            with tempfile.TemporaryFile(dir=path):
                pass
        except OSError as err:
            return Finding("workspace", "FAIL", f"{path} is not writable ({err.strerror})", f"chmod u+w {path}")
        return Finding("workspace", "ok", f"{path} is writable")
    parent = next(ancestor for ancestor in path.parents if ancestor.exists())
    if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
        return Finding("workspace", "ok", f"{path} does not exist yet; it is created on first use")
    return Finding("workspace", "FAIL", f"{path} cannot be created: {parent} is not writable",
                   "choose another --workspace")


def check_user_tools(modules: list[Path], mcp_config: Path | None = None) -> list[Finding]:
    """Entry-point plugins, --tools-module files and --mcp servers load, and how many tools each gives."""
    from ..acting.plugins import entry_point_tools, load_tools_module

    checks = []
    for name, load in [("plugins", entry_point_tools), *((f"tools module {path}", lambda p=path: load_tools_module(p))
                                                          for path in modules)]:
        try:
            tools = load()
        except AutoAgentError as err:
            checks.append(Finding(name, "FAIL", str(err), "fix or remove it"))
            continue
        if tools or name != "plugins":
            checks.append(Finding(name, "ok", ", ".join(tool.name for tool in tools)))
    if mcp_config is not None:
        from ..acting.mcp import close_mcp_servers, load_mcp_tools

        try:
            names = ", ".join(tool.name for tool in load_mcp_tools(mcp_config))
            checks.append(Finding("mcp", "ok", names or "no tools"))
        except AutoAgentError as err:
            checks.append(Finding("mcp", "FAIL", str(err), f"fix {mcp_config}"))
        finally:
            close_mcp_servers()
    return checks


@click.command("doctor", context_settings={"show_default": True})
@click.option("-m", "--model", envvar="AUTOAGENT_MODEL", show_envvar=True,
              help="The model spec to check.  [default: as for `autoagent run`]")
@click.option("--base-url", envvar=["AUTOAGENT_BASE_URL", "OPENAI_BASE_URL"], show_envvar=True,
              help="Base URL of an OpenAI-compatible server to check.")
@click.option("--workspace", type=click.Path(path_type=Path), default=Path("workspace"), envvar="AUTOAGENT_WORKSPACE",
              show_envvar=True, help="The workspace directory to check.")
@click.option("--memory/--no-memory", "use_memory", default=True, envvar="AUTOAGENT_MEMORY", show_envvar=True,
              help="Check the long-term memory store.")
@click.option("--python-sandbox", type=click.Choice(["bwrap", "none"]), default="bwrap",
              envvar="AUTOAGENT_PYTHON_SANDBOX", show_envvar=True, help="The python tool's sandbox to check.")
@click.option("--tools-module", "tools_modules", multiple=True, type=click.Path(path_type=Path),
              help="A Python file of tools to check (repeatable).")
@click.option("--mcp", "mcp_config", type=click.Path(path_type=Path), help="An mcpServers JSON file whose servers "
              "to start and list.")
@click.pass_context
def doctor(ctx: click.Context, model: str | None, base_url: str | None, workspace: Path, use_memory: bool,
           python_sandbox: str, tools_modules: tuple[Path, ...], mcp_config: Path | None) -> None:
    """Check the setup and say what to fix.

    Checks the settings files, the model (key and server, or local weights), the browser, the python tool's
    sandbox, the long-term memory, the workspace and any user tools. Exits with 1 when a check FAILs; warnings
    do not fail.
    """
    from ..llm import default_model_spec

    spec = model or default_model_spec()
    from_environment = ctx.get_parameter_source("base_url") is click.core.ParameterSource.ENVIRONMENT
    if from_environment and not spec.startswith("openai:"):
        base_url = None  # as `autoagent run`: OPENAI_BASE_URL only concerns OpenAI-compatible models
    click.echo(f"Checking autoagent with --model {spec}{f' --base-url {base_url}' if base_url else ''}")
    checks = [*check_settings_files(), *check_model(spec, base_url), check_browser(),
              check_python_sandbox(python_sandbox)]
    checks.append(check_memory(spec) if use_memory else Finding("memory", "ok", "off (--no-memory)"))
    checks += [check_workspace(workspace), *check_user_tools(list(tools_modules), mcp_config)]
    for check in checks:
        for line in check.lines():
            click.echo(line)
    failed = sum(check.status == "FAIL" for check in checks)
    warned = sum(check.status == "warn" for check in checks)
    if failed:
        click.echo(f"{failed} problem{'s' if failed > 1 else ''} to fix, {warned} warning{'s' * (warned != 1)}.")
        ctx.exit(1)
    click.echo(f"Ready to run ({warned} warning{'s' * (warned != 1)}).")
