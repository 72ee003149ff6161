"""The file tools against hard links, links acted on themselves, folders swapped for links mid-call, and
odd files; no error shows the host's path."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import BaseTool

from autoagent.tools import Workspace, file_tools


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    folder.mkdir()
    return folder


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text("top secret")
    return folder


@pytest.fixture
def tools(workspace: Path) -> dict[str, BaseTool]:
    return {made.name: made for made in file_tools(workspace)}


def test_a_hard_link_to_an_outside_file_is_neither_read_nor_written(
    tools: dict[str, BaseTool], workspace: Path, outside: Path
) -> None:
    os.link(outside / "secret.txt", workspace / "linked.txt")
    for name, arguments in [
        ("read_file", {"path": "linked.txt"}),
        ("write_file", {"path": "linked.txt", "content": "pwned"}),
        ("copy_file", {"source": "linked.txt", "destination": "copy.txt"}),
    ]:
        with pytest.raises(ValueError, match=r"'linked\.txt' has other hard links"):
            tools[name].invoke(arguments)
    assert tools["search_files"].invoke({"pattern": "secret"}).startswith("No lines containing")
    assert (outside / "secret.txt").read_text() == "top secret"
    assert not (workspace / "copy.txt").exists()


def test_delete_and_move_act_on_a_symlink_itself(tools: dict[str, BaseTool], workspace: Path) -> None:
    (workspace / "real.txt").write_text("real")
    (workspace / "folder").mkdir()
    (workspace / "alias.txt").symlink_to("real.txt")
    (workspace / "door").symlink_to("folder", target_is_directory=True)
    moved = tools["move_file"].invoke({"source": "alias.txt", "destination": "folder"})
    assert moved == "Moved alias.txt to folder/alias.txt."
    assert (workspace / "folder" / "alias.txt").is_symlink() and (workspace / "real.txt").read_text() == "real"
    assert tools["delete_file"].invoke({"path": "door"}) == "Deleted door."
    assert not (workspace / "door").exists() and (workspace / "folder" / "alias.txt").is_symlink()
    (workspace / "again.txt").symlink_to("real.txt")
    assert tools["delete_file"].invoke({"path": "again.txt"}) == "Deleted again.txt."
    assert (workspace / "real.txt").read_text() == "real" and not (workspace / "again.txt").is_symlink()


def _swap_after_the_checks(monkeypatch: pytest.MonkeyPatch, workspace: Path, outside: Path) -> None:
    """Once every path is checked, just before it is used, `sub` becomes a link to the outside folder (as a
    racing local process could make it)."""
    opened = Workspace.folder

    def swap_then_open(self: Workspace, location: Path, shown: str, *, create: bool = False) -> Any:
        sub = workspace / "sub"
        if sub.is_dir() and not sub.is_symlink():
            shutil.rmtree(sub)
            sub.symlink_to(outside, target_is_directory=True)
        return opened(self, location, shown, create=create)

    monkeypatch.setattr(Workspace, "folder", swap_then_open)


@pytest.mark.parametrize(
    "call",
    [
        lambda tools: tools["read_file"].invoke({"path": "sub/secret.txt"}),
        lambda tools: tools["write_file"].invoke({"path": "sub/secret.txt", "content": "pwned"}),
        lambda tools: tools["write_file"].invoke({"path": "sub/new.txt", "content": "pwned"}),
        lambda tools: tools["copy_file"].invoke({"source": "sub/secret.txt", "destination": "copy.txt"}),
        lambda tools: tools["copy_file"].invoke({"source": "top.txt", "destination": "sub/new.txt"}),
        lambda tools: tools["move_file"].invoke({"source": "sub/secret.txt", "destination": "moved.txt"}),
        lambda tools: tools["move_file"].invoke({"source": "top.txt", "destination": "sub/new.txt"}),
        lambda tools: tools["delete_file"].invoke({"path": "sub/secret.txt"}),
    ],
    ids=["read", "overwrite", "write", "copy-from", "copy-to", "move-from", "move-to", "delete"],
)
def test_a_folder_swapped_for_a_link_after_the_check_is_not_followed(
    tools: dict[str, BaseTool], workspace: Path, outside: Path, monkeypatch: pytest.MonkeyPatch,
    call: Callable[[dict[str, BaseTool]], str],
) -> None:
    (workspace / "sub").mkdir()
    (workspace / "sub" / "secret.txt").write_text("inside decoy")
    (workspace / "top.txt").write_text("top")
    _swap_after_the_checks(monkeypatch, workspace, outside)
    with pytest.raises(ValueError, match="changed while in use"):
        call(tools)
    assert sorted(os.listdir(outside)) == ["secret.txt"] and (outside / "secret.txt").read_text() == "top secret"
    assert not (workspace / "copy.txt").exists() and not (workspace / "moved.txt").exists()


def test_a_named_pipe_is_refused_at_once(tools: dict[str, BaseTool], workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")
    for name, arguments in [
        ("read_file", {"path": "pipe"}),
        ("write_file", {"path": "pipe", "content": "x"}),
        ("copy_file", {"source": "pipe", "destination": "copy.txt"}),
    ]:
        with pytest.raises(ValueError, match="'pipe' is not a regular file") as refused:
            tools[name].invoke(arguments)
        assert str(workspace) not in str(refused.value)


def test_errors_name_workspace_paths_never_host_paths(tools: dict[str, BaseTool], workspace: Path) -> None:
    from autoagent.acting.toolbox import Toolbox
    from autoagent.reply import Action

    toolbox = Toolbox(list(tools.values()))
    long = "a" * 300
    for name, arguments in [
        ("read_file", {"path": long}),
        ("write_file", {"path": f"{long}/b.txt", "content": "x"}),
        ("write_file", {"path": long, "content": "x"}),
        ("list_files", {"path": long}),
        ("delete_file", {"path": long}),
        ("search_files", {"pattern": "x", "path": long}),
        ("copy_file", {"source": long, "destination": "b.txt"}),
        ("move_file", {"source": long, "destination": "b.txt"}),
    ]:
        result = toolbox.run(Action(name=name, args=arguments))
        assert not result.success and "File name too long" in result.content, (name, result.content)
        assert str(workspace.parent) not in result.content, (name, result.content)


@pytest.mark.parametrize("name", ["list_files", "search_files"])
def test_listing_and_search_never_enter_a_folder_swapped_for_a_link(
    tools: dict[str, BaseTool], workspace: Path, outside: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    (workspace / "sub").mkdir()
    (workspace / "sub" / "notes.txt").write_text("secret plans")
    checked = Workspace.contain

    def contain_then_swap(self: Workspace, location: Path, shown: str) -> Path:
        real = checked(self, location, shown)
        if (workspace / "sub").is_dir() and not (workspace / "sub").is_symlink():
            shutil.rmtree(workspace / "sub")
            (workspace / "sub").symlink_to(outside, target_is_directory=True)
        return real

    monkeypatch.setattr(Workspace, "contain", contain_then_swap)
    with pytest.raises(ValueError, match="changed while in use"):
        tools[name].invoke({"path": "sub", "pattern": "secret"} if name == "search_files" else {"path": "sub"})
