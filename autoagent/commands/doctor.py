"""`autoagent doctor`: checks settings, model, browser, python sandbox, memory, workspace and user tools; says what
to fix."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

import click

from ..errors import AutoAgentError

if TYPE_CHECKING:
    from ..llm.weights import BundledModel

Status = Literal["ok", "warn", "FAIL"]
SERVER_TIMEOUT_S = 3.0
BROWSER_FIX = "sudo apt-get install chromium chromium-driver"


class Check(NamedTuple):  # not a dataclass: importing dataclasses costs `autoagent --help` 5 ms
    """One finding: what was checked, how it stands, what was seen, and what to do about it."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    def lines(self) -> list[str]:
        """`ok    name: detail`, then `      fix: ...` when there is something to do."""
        return [f"{self.status:<4}  {self.name}: {self.detail}", *([f"      fix: {self.fix}"] if self.fix else [])]


def check_settings_files(directories: list[Path] | None = None) -> list[Check]:
    """Which api_keys.env files exist, the names they set (never the values), and who may read them."""
    from dotenv import dotenv_values

    from ..api_keys import SETTINGS_FILE, is_local_setting, project_settings_file
    from ..paths import autoagent_home

    paths = [directory / SETTINGS_FILE for directory in directories or [Path.cwd(), autoagent_home()]]
    found = [path for path in paths if path.is_file()]
    if not found:
        return [Check("settings", "ok", f"no {SETTINGS_FILE} (optional; looked for {', '.join(map(str, paths))})")]
    checks = []
    for path in found:
        names = ", ".join(name for name, value in dotenv_values(path).items() if value) or "nothing"
        checks.append(Check("settings", "ok", f"{path} sets {names}"))
        ignored = [name for name, value in dotenv_values(path).items() if value and not is_local_setting(name)]
        if ignored and path == project_settings_file():
            checks.append(Check("settings", "warn", f"{path} may set API keys only: {', '.join(ignored)} ignored",
                                f"move them to {autoagent_home() / SETTINGS_FILE}"))
        if os.name == "posix" and path.stat().st_mode & (stat.S_IRGRP | stat.S_IROTH):
            checks.append(Check("settings", "warn", f"{path} is readable by other users", f"chmod 600 {path}"))
    return checks


def check_model(spec: str, base_url: str | None = None, *, timeout: float = SERVER_TIMEOUT_S) -> list[Check]:
    """The selected model: its key and server (openai:<name>), or llama-cpp-python and the weights (local)."""
    from ..llm import ACCEPTED_SPECS

    kind, _, argument = spec.strip().partition(":")
    if kind == "openai":
        return check_openai(argument.strip(), base_url, timeout=timeout)
    if kind == "local":
        if base_url:
            return [Check("model", "FAIL", f"--base-url {base_url} does not apply to {spec}",
                          f"drop --base-url, or use --model openai:<name> --base-url {base_url}")]
        return check_local(argument.strip())
    return [Check("model", "FAIL", f"unknown model spec {spec!r}", f"use {ACCEPTED_SPECS}")]


def check_openai(name: str, base_url: str | None, *, timeout: float = SERVER_TIMEOUT_S) -> list[Check]:
    """The API key (present, never shown) and the server: it answers GET /models, accepts the key, lists `name`."""
    if not name:
        return [Check("model", "FAIL", "the openai spec names no model", "e.g. --model openai:gpt-4o-mini")]
    base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
    key = os.environ.get("OPENAI_API_KEY") or None
    if key is None and base_url is None:
        return [Check("model key", "FAIL", f"openai:{name} needs OPENAI_API_KEY, which is not set",
                      "set OPENAI_API_KEY in ./api_keys.env or the environment, or use --model local")]
    key_check = Check("model key", "ok", "OPENAI_API_KEY is set" if key else
                      "no OPENAI_API_KEY (a server of your own seldom needs one)")
    return [key_check, check_server(base_url or "https://api.openai.com/v1", name, key, timeout=timeout)]


def check_server(base_url: str, name: str, key: str | None, *, timeout: float = SERVER_TIMEOUT_S) -> Check:
    """GET {base_url}/models: reachable, key accepted, and `name` among the models it lists."""
    import requests

    url = f"{base_url.rstrip('/')}/models"
    fix_url = "start the server, or check --base-url / OPENAI_BASE_URL"
    try:
        response = requests.get(url, headers={"Authorization": f"Bearer {key or 'not-needed'}"}, timeout=timeout)
    except requests.RequestException as err:
        reason = type(err).__name__
        return Check("model server", "FAIL", f"cannot reach {url} ({reason})", fix_url)
    if response.status_code in (401, 403):
        return Check("model server", "FAIL", f"{url} refused the key (HTTP {response.status_code})",
                     "check OPENAI_API_KEY")
    if response.status_code != 200:
        return Check("model server", "warn", f"{url} answered HTTP {response.status_code}", fix_url)
    try:
        listed = [str(model["id"]) for model in response.json()["data"]]
    except (ValueError, KeyError, TypeError):
        return Check("model server", "ok", f"{url} answers")
    if name in listed:
        return Check("model server", "ok", f"{url} answers and lists {name}")
    shown = ", ".join(listed[:8]) + (", ..." if len(listed) > 8 else "")
    return Check("model server", "warn", f"{url} does not list {name}", f"check --model; it lists: {shown or 'none'}")


def check_local(path: str = "") -> list[Check]:
    """llama-cpp-python importable, and the GGUF present: a given file, or the bundled weights verified (and for the
    default, whether the other bundled models' weights are there too)."""
    from ..llm import weights
    from ..llm.local import llama_cpp_installed
    from ..paths import models_dir

    checks = [Check("llama-cpp-python", "ok", "installed") if llama_cpp_installed() else
              Check("llama-cpp-python", "FAIL", "not installed; the local model needs it", weights.INSTALL_HINT)]
    bundled = weights.bundled_model(path) if path else None
    if bundled is not None and bundled.name != weights.DEFAULT_MODEL:
        return [*checks, check_bundled_weights(bundled, selected=True)]
    if path and bundled is None:
        gguf = Path(path).expanduser()
        if not gguf.is_file():
            return [*checks, Check("model weights", "FAIL", f"{gguf} does not exist", "check --model local:<path>")]
        with gguf.open("rb") as handle:
            magic = handle.read(4)
        good = magic == b"GGUF"
        return [*checks, Check("model weights", "ok" if good else "FAIL", f"{gguf} {'is' if good else 'is not'} a GGUF "
                               "file", "" if good else "point --model local:<path> at a .gguf model")]
    checks += [check_bundled_weights(model, selected=False) for model in weights.BUNDLED_MODELS.values()
               if model.name != weights.DEFAULT_MODEL]
    if not path:  # which one a bare --model local runs
        runs = weights.default_chat_model()
        checks.append(Check("local model", "ok", f"--model local runs {runs.title} (local:{runs.name}); "
                                                 f"local:{weights.DEFAULT_MODEL} embeds memories"))
    target = models_dir() / weights.WEIGHTS_FILENAME
    if weights.is_verified(target):
        return [*checks, Check("model weights", "ok", f"{target} assembled and sha256-verified")]
    try:
        for package, resource in weights.WEIGHT_PARTS:
            weights.locate_part(package, resource)
    except AutoAgentError as err:
        return [*checks, Check("model weights", "FAIL", str(err), weights.INSTALL_HINT)]
    detail = f"installed; the first run assembles and verifies them into {target}"
    return [*checks, Check("model weights", "ok", detail)]


def check_bundled_weights(model: BundledModel, *, selected: bool) -> Check:
    """A bundled model's weights, never loaded: assembled and verified, installed as parts, or missing (a FAIL only
    when --model selects it)."""
    from ..llm import weights
    from ..paths import models_dir

    name = f"model weights (local:{model.name})"
    target = models_dir() / model.filename
    if weights.is_verified(target, model):
        return Check(name, "ok", f"{target} assembled and sha256-verified")
    try:
        weights.locate_parts(model)
    except AutoAgentError as err:
        if selected:
            return Check(name, "FAIL", str(err), model.install_hint)
        return Check(name, "ok", f"not installed (optional: {model.install_hint})")
    return Check(name, "ok", f"installed; the first run of --model local:{model.name} assembles and verifies them "
                             f"into {target}")


def check_browser(chromium: str | None = None, chromedriver: str | None = None) -> Check:
    """Chromium and chromedriver where the browser tool looks for them (only needed for JavaScript pages)."""
    from ..tools import browser

    paths = [chromium or browser.CHROMIUM, chromedriver or browser.CHROMEDRIVER]
    missing = [path for path in paths if not Path(path).is_file()]
    if not missing:
        return Check("browser", "ok", f"{' and '.join(paths)} found")
    return Check("browser", "warn", f"{' and '.join(missing)} missing: read_webpage cannot render JavaScript pages",
                 BROWSER_FIX)


def check_python_sandbox(sandbox: str = "bwrap") -> Check:
    """Which sandbox the python tool (--allow-python) runs code in, and whether bubblewrap can start one here."""
    from ..tools.sandbox import INSTALL_HINT, bwrap_path, bwrap_problem

    if sandbox == "none":
        return Check("python sandbox", "warn", "none: --allow-python runs code unsandboxed, as you",
                     "drop --python-sandbox none (AUTOAGENT_PYTHON_SANDBOX) to run it under bubblewrap")
    problem = bwrap_problem()
    if problem is not None:
        return Check("python sandbox", "warn", f"{problem}: no python tool (--protocol auto picks json)",
                     INSTALL_HINT if bwrap_path() is None else "allow unprivileged user namespaces, or use "
                     "--python-sandbox none to run code unsandboxed")
    return Check("python sandbox", "ok", f"bubblewrap ({bwrap_path()}): python runs code sandboxed (--protocol auto "
                 "picks code for the local model)")


def check_memory(spec: str, directory: Path | None = None) -> Check:
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
        return Check("memory", "ok", f"empty; {directory} is created by the first run")
    store = MemoryStore(directory, lock_timeout=SERVER_TIMEOUT_S)
    try:
        count, record = store.count(), store.embedding_record()
        if record is not None:  # loads the vector files, so damage shows now rather than mid-run
            store.search([1.0] + [0.0] * (record[1] - 1), 1, record[0])
    except MemoryStoreCorruptError as err:
        return Check("memory", "FAIL", str(err), "nothing more to do, or run with --no-memory")
    except AutoAgentError as err:
        return Check("memory", "FAIL", str(err), f"close other autoagent runs, check {directory}, or use --no-memory")
    finally:
        store.close()
    held = f"{count} memor{'y' if count == 1 else 'ies'}"
    if record is not None and count and wanted is not None and record[0] != wanted:
        return Check("memory", "FAIL", f"{held} in {directory} embedded with {record[0]}, but {spec} embeds with "
                     f"{wanted}", f"autoagent memory reembed --model {spec}, or use --no-memory")
    return Check("memory", "ok", f"{directory} holds {held} ({record[0] if record else wanted})")


def check_workspace(path: Path) -> Check:
    """The workspace directory exists and is writable, or its nearest existing parent allows creating it."""
    path = Path(path).expanduser().absolute()
    if path.exists() and not path.is_dir():
        return Check("workspace", "FAIL", f"{path} is not a directory", "choose another --workspace")
    if path.is_dir():
        try:
            import tempfile

            with tempfile.TemporaryFile(dir=path):
                pass
        except OSError as err:
            return Check("workspace", "FAIL", f"{path} is not writable ({err.strerror})", f"chmod u+w {path}")
        return Check("workspace", "ok", f"{path} is writable")
    parent = next(ancestor for ancestor in path.parents if ancestor.exists())
    if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
        return Check("workspace", "ok", f"{path} does not exist yet; it is created on first use")
    return Check("workspace", "FAIL", f"{path} cannot be created: {parent} is not writable",
                 "choose another --workspace")


def check_user_tools(modules: list[Path], mcp_config: Path | None = None) -> list[Check]:
    """Entry-point plugins, --tools-module files and --mcp servers load, and how many tools each gives."""
    from ..tool_use.plugins import entry_point_tools, load_tools_module

    checks = []
    for name, load in [("plugins", entry_point_tools), *((f"tools module {path}", lambda p=path: load_tools_module(p))
                                                          for path in modules)]:
        try:
            tools = load()
        except AutoAgentError as err:
            checks.append(Check(name, "FAIL", str(err), "fix or remove it"))
            continue
        if tools or name != "plugins":
            checks.append(Check(name, "ok", ", ".join(tool.name for tool in tools)))
    if mcp_config is not None:
        from ..tool_use.mcp import close_mcp_servers, load_mcp_tools

        try:
            checks.append(Check("mcp", "ok", ", ".join(tool.name for tool in load_mcp_tools(mcp_config)) or "no tools"))
        except AutoAgentError as err:
            checks.append(Check("mcp", "FAIL", str(err), f"fix {mcp_config}"))
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
    checks.append(check_memory(spec) if use_memory else Check("memory", "ok", "off (--no-memory)"))
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
