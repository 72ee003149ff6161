"""`autoagent doctor`'s checks of the model: the key and server of an OpenAI-compatible one, or llama-cpp-python and
the weights of the embedded one."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AutoAgentError
from .findings import Finding

if TYPE_CHECKING:
    from ..llm.weights import BundledModel

SERVER_TIMEOUT_S = 3.0


def check_model(spec: str, base_url: str | None = None, *, timeout: float = SERVER_TIMEOUT_S) -> list[Finding]:
    """The selected model: its key and server (openai:<name>), or llama-cpp-python and the weights (local)."""
    from ..llm import ACCEPTED_SPECS

    kind, _, argument = spec.strip().partition(":")
    if kind == "openai":
        return check_openai(argument.strip(), base_url, timeout=timeout)
    if kind == "local":
        if base_url:
            return [Finding("model", "FAIL", f"--base-url {base_url} does not apply to {spec}",
                            f"drop --base-url, or use --model openai:<name> --base-url {base_url}")]
        return check_local(argument.strip())
    return [Finding("model", "FAIL", f"unknown model spec {spec!r}", f"use {ACCEPTED_SPECS}")]


def check_openai(name: str, base_url: str | None, *, timeout: float = SERVER_TIMEOUT_S) -> list[Finding]:
    """The API key (present, never shown) and the server: it answers GET /models, accepts the key, lists `name`."""
    if not name:
        return [Finding("model", "FAIL", "the openai spec names no model", "e.g. --model openai:gpt-4o-mini")]
    base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
    key = os.environ.get("OPENAI_API_KEY") or None
    if key is None and base_url is None:
        return [Finding("model key", "FAIL", f"openai:{name} needs OPENAI_API_KEY, which is not set",
                        "set OPENAI_API_KEY in ./api_keys.env or the environment, or use --model local")]
    key_check = Finding("model key", "ok", "OPENAI_API_KEY is set" if key else
                        "no OPENAI_API_KEY (a server of your own seldom needs one)")
    return [key_check, check_server(base_url or "https://api.openai.com/v1", name, key, timeout=timeout)]


def check_server(base_url: str, name: str, key: str | None, *, timeout: float = SERVER_TIMEOUT_S) -> Finding:
    """GET {base_url}/models: reachable, key accepted, and `name` among the models it lists."""
    import requests

    url = f"{base_url.rstrip('/')}/models"
    fix_url = "start the server, or check --base-url / OPENAI_BASE_URL"
    try:
        response = requests.get(url, headers={"Authorization": f"Bearer {key or 'not-needed'}"}, timeout=timeout)
    except requests.RequestException as err:
        reason = type(err).__name__
        return Finding("model server", "FAIL", f"cannot reach {url} ({reason})", fix_url)
    if response.status_code in (401, 403):
        return Finding("model server", "FAIL", f"{url} refused the key (HTTP {response.status_code})",
                       "check OPENAI_API_KEY")
    if response.status_code != 200:
        return Finding("model server", "warn", f"{url} answered HTTP {response.status_code}", fix_url)
    try:
        listed = [str(model["id"]) for model in response.json()["data"]]
    except (ValueError, KeyError, TypeError):
        return Finding("model server", "ok", f"{url} answers")
    if name in listed:
        return Finding("model server", "ok", f"{url} answers and lists {name}")
    shown = ", ".join(listed[:8]) + (", ..." if len(listed) > 8 else "")
    return Finding("model server", "warn", f"{url} does not list {name}", f"check --model; it lists: {shown or 'none'}")


def check_local(path: str = "") -> list[Finding]:
    """llama-cpp-python importable, and the GGUF present: a given file, or the bundled weights verified (and for the
    default, whether the other bundled models' weights are there too)."""
    from ..llm import weights
    from ..llm.local import llama_cpp_installed
    from ..paths import models_dir

    checks = [Finding("llama-cpp-python", "ok", "installed") if llama_cpp_installed() else
              Finding("llama-cpp-python", "FAIL", "not installed; the local model needs it", weights.INSTALL_HINT)]
    bundled = weights.bundled_model(path) if path else None
    if bundled is not None and bundled.name != weights.DEFAULT_MODEL:
        return [*checks, check_bundled_weights(bundled, selected=True)]
    if path and bundled is None:
        gguf = Path(path).expanduser()
        if not gguf.is_file():
            return [*checks, Finding("model weights", "FAIL", f"{gguf} does not exist", "check --model local:<path>")]
        with gguf.open("rb") as handle:
            magic = handle.read(4)
        good = magic == b"GGUF"
        said = f"{gguf} {'is' if good else 'is not'} a GGUF file"
        return [*checks, Finding("model weights", "ok" if good else "FAIL", said,
                                 "" if good else "point --model local:<path> at a .gguf model")]
    checks += [check_bundled_weights(model, selected=False) for model in weights.BUNDLED_MODELS.values()
               if model.name != weights.DEFAULT_MODEL]
    if not path:  # which one a bare --model local runs
        runs = weights.default_chat_model()
        checks.append(Finding("local model", "ok", f"--model local runs {runs.title} (local:{runs.name}); "
                                                 f"local:{weights.DEFAULT_MODEL} embeds memories"))
    target = models_dir() / weights.WEIGHTS_FILENAME
    if weights.is_verified(target):
        return [*checks, Finding("model weights", "ok", f"{target} assembled and sha256-verified")]
    try:
        for package, resource in weights.WEIGHT_PARTS:
            weights.locate_part(package, resource)
    except AutoAgentError as err:
        return [*checks, Finding("model weights", "FAIL", str(err), weights.INSTALL_HINT)]
    detail = f"installed; the first run assembles and verifies them into {target}"
    return [*checks, Finding("model weights", "ok", detail)]


def check_bundled_weights(model: BundledModel, *, selected: bool) -> Finding:
    """A bundled model's weights, never loaded: assembled and verified, installed as parts, or missing (a FAIL only
    when --model selects it)."""
    from ..llm import weights
    from ..paths import models_dir

    name = f"model weights (local:{model.name})"
    target = models_dir() / model.filename
    if weights.is_verified(target, model):
        return Finding(name, "ok", f"{target} assembled and sha256-verified")
    try:
        weights.locate_parts(model)
    except AutoAgentError as err:
        if selected:
            return Finding(name, "FAIL", str(err), model.install_hint)
        return Finding(name, "ok", f"not installed (optional: {model.install_hint})")
    return Finding(name, "ok", f"installed; the first run of --model local:{model.name} assembles and verifies them "
                             f"into {target}")
