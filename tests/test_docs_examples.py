"""The documentation stays true: every Python and shell example of README.md and docs/ runs against a scripted
model (tests/docs_model.py), the README stays a front page, and the CLI reference lists every flag `--help` shows."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from autoagent.cli import cli

from .docs_blocks import ROOT, RUN, SHOWN, Block, all_blocks, blocks, doc_files
from .docs_model import RESULT, docs_server
from .fake_openai import FakeOpenAI

MOST_NOT_RUN = 10  # blocks the tests cannot run (an install, a build, a server of someone else's): keep them few
BLOCK_SECONDS = 120


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with docs_server() as running:
        yield running


@pytest.fixture
def example_env(server: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """What an example sees: a fresh home and folder, the scripted server as OpenAI, this checkout's autoagent."""
    home = tmp_path / "home"
    home.mkdir()
    values = {"HOME": str(home), "AUTOAGENT_HOME": str(home / ".autoagent"), "OPENAI_API_KEY": "sk-docs-example",
              "OPENAI_BASE_URL": server.base_url, "NO_COLOR": "1", "PORT": str(free_port())}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # a page's file blocks import as modules (`from my_tools import ...`)
    _models_through(server, monkeypatch)
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def free_port() -> int:
    """A port nothing listens on now, for an example's server (docs/serve.md reads $PORT)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _models_through(server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every model a Python example loads (`local` too) is the scripted server, and so are its embeddings."""
    import autoagent.llm
    from autoagent.memory.long_term import LongTermMemory

    load, open_memory = autoagent.llm.load_chat_model, LongTermMemory.open.__func__  # type: ignore[attr-defined]

    def scripted_model(spec: str | None = None, **_: Any) -> Any:
        return load("openai:gpt-4o-mini", base_url=server.base_url)

    def scripted_memory(cls: type[LongTermMemory], spec: str | None = None, **kwargs: Any) -> LongTermMemory:
        return open_memory(cls, "openai:gpt-4o-mini", **{**kwargs, "base_url": server.base_url})

    monkeypatch.setattr(autoagent.llm, "load_chat_model", scripted_model)
    monkeypatch.setattr(LongTermMemory, "open", classmethod(scripted_memory))


def run_block(block: Block, namespace: dict[str, Any], env: dict[str, str], folder: Path) -> None:
    """Write the block's file when it is one, then run it: Python in the page's namespace, shell in bash."""
    if block.file_name:
        (folder / block.file_name).write_text(block.code, encoding="utf-8")
    if RUN[block.lang] == "python":
        module = Path(block.file_name).stem if block.file_name else "__main__"  # a file's `if __name__` stays shut
        code = compile(block.code, block.where, "exec")
        exec(code, {**namespace, "__name__": module} if block.file_name else namespace)
        return
    process = subprocess.Popen(["bash", "-euo", "pipefail", "-c", block.code], cwd=folder, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=BLOCK_SECONDS)
    finally:
        with contextlib.suppress(ProcessLookupError):  # what the example left running (a server in the background)
            os.killpg(process.pid, signal.SIGKILL)
    print(f"--- {block.where}\n{output}")  # pytest shows it when the page fails
    assert process.returncode == 0, f"{block.where} exited {process.returncode}:\n{block.code}\n--- output:\n{output}"


def page_params(slow: bool) -> list[Any]:
    """One test per documentation file that has runnable blocks (of that speed)."""
    return [pytest.param(path, id=str(path.relative_to(ROOT))) for path in doc_files()
            if any(block.runs and block.slow == slow for block in blocks(path))]


def run_page(path: Path, env: dict[str, str], *, slow: bool) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for block in blocks(path):
        if block.runs and block.slow == slow:
            run_block(block, namespace, env, Path.cwd())
        elif block.file_name and not block.not_run:  # a file the examples read (tasks.jsonl, servers.json)
            (Path.cwd() / block.file_name).write_text(block.code, encoding="utf-8")


@pytest.mark.parametrize("path", page_params(slow=False))
def test_the_examples_of_a_page_run_in_order(path: Path, example_env: dict[str, str]) -> None:
    run_page(path, example_env, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", page_params(slow=True))
def test_the_slow_examples_of_a_page_run(path: Path, example_env: dict[str, str]) -> None:
    run_page(path, example_env, slow=True)


def test_every_block_says_what_it_is_and_few_are_not_run() -> None:
    every = all_blocks()
    unknown = [f"{block.where} ```{block.lang}" for block in every if block.lang not in RUN and block.lang not in SHOWN]
    assert not unknown, f"fences need a language that runs ({sorted(RUN)}) or is shown only ({sorted(SHOWN)})"
    for block in every:  # a block run by another test names a test file that reads its page
        if block.run_by:
            assert block.path.name in (ROOT / block.run_by).read_text(encoding="utf-8"), block.where
    not_run = [f"{block.where}: {block.not_run}" for block in every if block.not_run]
    print("\nnot run:\n  " + "\n  ".join(not_run))
    assert len(not_run) <= MOST_NOT_RUN, not_run
    assert sum(block.runs for block in every) >= 30


def test_the_scripted_run_the_examples_see_is_the_quick_start(example_env: dict[str, str]) -> None:
    done = subprocess.run(["autoagent", "What is 1234 * 5678 + 17?"], env=example_env, capture_output=True,
                          text=True, timeout=BLOCK_SECONDS)
    assert (done.returncode, RESULT in done.stdout) == (0, True), done.stderr
    assert "finished · 2 steps" in done.stderr


def test_a_failing_example_fails_its_page(example_env: dict[str, str], tmp_path: Path) -> None:
    page = tmp_path / "broken.md"
    page.write_text("```bash\nautoagent --max-steps 0 'x'\n```\n\n```python\nassert 1 == 2\n```\n")
    shell, python = blocks(page)
    with pytest.raises(AssertionError, match="exited 2"):
        run_block(shell, {}, example_env, tmp_path)
    with pytest.raises(AssertionError):
        run_block(python, {}, example_env, tmp_path)


def test_the_readme_is_a_front_page_that_links_into_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert len(links) >= 10
    assert [link for link in links if not (ROOT / link).is_file()] == []
    assert "docs/assets/run.svg" in readme
    assert "make docs" in readme and "make docs-serve" in readme


def test_the_readme_test_command_is_what_ci_runs_last() -> None:
    ci = [line for line in (ROOT / ".ci/run").read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert ci[-1] == "make test"
    assert "make test" in (ROOT / "README.md").read_text() and "make docs" in ci


def shown_flags(help_text: str) -> set[str]:
    """The flags in the first column of a `--help` text's Options section."""
    options = help_text.split("Options:", 1)[1].split("Commands:", 1)[0]
    columns = [line.split("  ")[1] for line in options.splitlines()
               if line.startswith("  ") and len(line.split("  ")) > 1]  # a continuation line's [1] is ''
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", "\n".join(columns)))


def help_flags() -> dict[str, set[str]]:
    """Every flag each command's `--help` shows, by command path (`autoagent memory list`); `autoagent` itself
    shows the default command's."""
    found: dict[str, set[str]] = {}

    def visit(command: click.Command, path: list[str]) -> None:
        result = CliRunner().invoke(cli, [*path, "--help"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        found[" ".join(["autoagent", *path])] = shown_flags(result.output)
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                visit(sub, [*path, name])

    visit(cli, [])
    return found


def reference_sections(html: str) -> dict[str, str]:
    """The CLI reference's HTML cut at its command headings, by command path (h2 `autoagent`, h3 its commands,
    h4 theirs)."""
    sections: dict[str, str] = {}
    path: list[str] = []
    parts = re.split(r"<h([234])>([^<]*)</h[234]>", html)
    for level, name, body in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        path = [*path[:int(level) - 2], name]
        sections[" ".join(["autoagent", *path[1:]])] = body
    return sections


def test_the_cli_reference_lists_every_flag_help_shows() -> None:
    import markdown

    page = (ROOT / "docs/reference/cli.md").read_text(encoding="utf-8")
    sections = reference_sections(markdown.Markdown(extensions=["mkdocs-click", "attr_list"]).convert(page))
    flags = help_flags()
    top = flags.pop("autoagent")  # `autoagent --help` shows run's options: the reference has them under run
    assert {"--model", "--max-steps", "--resume", "--no-memory", "--continuous"} <= top
    assert sorted(top - flags["autoagent run"]) == []
    assert {"--max-steps", "--json", "--no-memory", "-y", "--allow-python"} <= flags["autoagent run"]
    assert "--workers" in flags["autoagent batch"] and "--limit" in flags["autoagent runs list"]
    assert sorted(flags) == sorted(path for path in sections if path != "autoagent")  # a section per command
    missing = {path: sorted(flag for flag in wanted
                            if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", sections[path]))
               for path, wanted in flags.items()}
    assert {path: gone for path, gone in missing.items() if gone} == {}


def test_the_configuration_page_names_every_flag_of_run() -> None:
    page = (ROOT / "docs/configuration.md").read_text(encoding="utf-8")
    listed = page.split("## Flags", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", listed))
    assert sorted(help_flags()["autoagent run"] - named) == []
