"""The file tools: every operation works inside the workspace and nothing ever escapes it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from langchain_core.tools import BaseTool

from autoagent.acting.fence import fenced_body
from autoagent.tools import default_tools, file_access, file_tools
from autoagent.tools import files as files_module

NAMES = ["read_file", "write_file", "list_files", "copy_file", "move_file", "delete_file", "search_files"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return tmp_path / "workspace"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A sibling of the workspace holding a secret; tests check it stays untouched."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text("top secret")
    return folder


@pytest.fixture
def tools(workspace: Path) -> dict[str, BaseTool]:
    return {made.name: made for made in file_tools(workspace)}


def test_tools_are_named_and_marked(tools: dict[str, BaseTool], workspace: Path) -> None:
    assert list(tools) == NAMES
    changing = {name for name, made in tools.items() if (made.metadata or {}).get("side_effects") is True}
    assert changing == {"write_file", "copy_file", "move_file", "delete_file"}
    assert all(made.metadata is not None and "side_effects" in made.metadata for made in tools.values())
    assert {(made.metadata or {}).get("workspace") for made in tools.values()} == {str(workspace)}


def test_default_tools_bundle_everything(workspace: Path) -> None:
    names = [made.name for made in default_tools(workspace)]
    assert names == ["calculator", "calendar", "current_datetime", *NAMES]
    from langchain_core.embeddings import DeterministicFakeEmbedding

    with_web = [made.name for made in default_tools(workspace, DeterministicFakeEmbedding(size=8))]
    assert with_web[: len(names)] == names and with_web[len(names):] == ["web_search", "read_webpage"]


def test_workspace_is_created_on_first_use(tools: dict[str, BaseTool], workspace: Path) -> None:
    assert not workspace.exists()
    assert tools["list_files"].invoke({}) == "'.' is empty."
    assert workspace.is_dir()


def test_write_then_read(tools: dict[str, BaseTool], workspace: Path) -> None:
    result = tools["write_file"].invoke({"path": "notes/today.txt", "content": "héllo\nworld\n"})
    assert result == "Wrote 12 characters to notes/today.txt."
    assert (workspace / "notes" / "today.txt").read_text(encoding="utf-8") == "héllo\nworld\n"
    assert fenced_body(tools["read_file"].invoke({"path": "notes/today.txt"})) == "héllo\nworld\n"
    tools["write_file"].invoke({"path": "notes/today.txt", "content": "replaced"})
    assert fenced_body(tools["read_file"].invoke({"path": "./notes/../notes/today.txt"})) == "replaced"


def test_a_quote_is_never_written_back_with_its_markers(tools: dict[str, BaseTool], workspace: Path) -> None:
    """A small model appending to a file it read copies the whole observation, fence and all (measured with
    smolagents on the bundled model: todo.txt came to hold '<<<FILE CONTENT …'): the write is refused, the file
    kept, and the text alone is written."""
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "todo.txt").write_text("rent\nparcel\n", encoding="utf-8")
    shown = tools["read_file"].invoke({"path": "todo.txt"})
    found = tools["search_files"].invoke({"pattern": "parcel"})
    for copied in (shown.partition("\n")[2] + "\nmilk\n", "milk\n" + found):
        with pytest.raises(ValueError, match=r"holds the markers a file was quoted in.*write only the file's text"):
            tools["write_file"].invoke({"path": "todo.txt", "content": copied})
        assert (workspace / "todo.txt").read_text(encoding="utf-8") == "rent\nparcel\n"
    tools["write_file"].invoke({"path": "todo.txt", "content": fenced_body(shown) + "milk\n"})
    assert (workspace / "todo.txt").read_text(encoding="utf-8") == "rent\nparcel\nmilk\n"


def test_a_file_that_was_there_is_replaced_only_once_read(tools: dict[str, BaseTool], workspace: Path) -> None:
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "draft.txt").write_text("my draft\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"'draft.txt' already exists and this run has not read it.*move_file"):
        tools["write_file"].invoke({"path": "draft.txt", "content": "final.txt"})  # a small model's "rename"
    assert (workspace / "draft.txt").read_text(encoding="utf-8") == "my draft\n"
    tools["read_file"].invoke({"path": "./draft.txt"})
    tools["write_file"].invoke({"path": "draft.txt", "content": "v2"})
    assert (workspace / "draft.txt").read_text(encoding="utf-8") == "v2"
    tools["write_file"].invoke({"path": "new.txt", "content": "1"})
    tools["write_file"].invoke({"path": "new.txt", "content": "2"})  # the run's own file
    assert (workspace / "new.txt").read_text(encoding="utf-8") == "2"


def test_read_reports_missing_empty_and_directories(tools: dict[str, BaseTool], workspace: Path) -> None:
    with pytest.raises(ValueError, match=re.escape("'nope.txt' does not exist")):
        tools["read_file"].invoke({"path": "nope.txt"})
    (workspace / "folder").mkdir(parents=True)
    (workspace / "empty.txt").write_text("")
    with pytest.raises(ValueError, match="is a directory"):
        tools["read_file"].invoke({"path": "folder"})
    assert tools["read_file"].invoke({"path": "empty.txt"}) == "'empty.txt' is empty."


def test_read_cuts_huge_files_with_a_note(workspace: Path) -> None:
    read_file = file_tools(workspace, max_read_chars=100)[0]
    workspace.mkdir()
    (workspace / "big.txt").write_text("é" * 5000, encoding="utf-8")
    shown = read_file.invoke({"path": "big.txt"})
    assert shown.startswith("The content of 'big.txt' (truncated: the first 100 characters of 10,000 bytes):")
    assert fenced_body(shown) == "é" * 100


def test_read_does_not_dump_binary_files(tools: dict[str, BaseTool], workspace: Path) -> None:
    workspace.mkdir()
    (workspace / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (workspace / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    assert tools["read_file"].invoke({"path": "image.png"}) == (
        "'image.png' is a binary file (16 bytes); its content is not shown."
    )
    assert "binary file" in tools["read_file"].invoke({"path": "latin1.txt"})


def test_list_files_recursively(tools: dict[str, BaseTool], workspace: Path) -> None:
    (workspace / "src" / "pkg").mkdir(parents=True)
    (workspace / "src" / "pkg" / "a.py").write_text("x = 1\n")
    (workspace / "readme.md").write_text("hi")
    assert tools["list_files"].invoke({}) == ("readme.md (2 bytes)\nsrc/\nsrc/pkg/\nsrc/pkg/a.py (6 bytes)\n"
                                              "In all: 2 files (1 .md, 1 .py) and 2 folders.")
    assert tools["list_files"].invoke({"path": "src/pkg"}) == "src/pkg/a.py (6 bytes)\nIn all: 1 file (1 .py)."
    with pytest.raises(ValueError, match="is a file, not a folder"):
        tools["list_files"].invoke({"path": "readme.md"})


def test_list_files_is_capped(tools: dict[str, BaseTool], workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_module, "MAX_LISTED", 3)
    workspace.mkdir()
    for number in range(5):
        (workspace / f"f{number}.txt").write_text("")
    lines = tools["list_files"].invoke({}).splitlines()
    assert lines[:3] == ["f0.txt (0 bytes)", "f1.txt (0 bytes)", "f2.txt (0 bytes)"]
    assert lines[3].startswith("[stopped after 3 entries")


def test_copy_file(tools: dict[str, BaseTool], workspace: Path) -> None:
    tools["write_file"].invoke({"path": "a.txt", "content": "A"})
    assert tools["copy_file"].invoke({"source": "a.txt", "destination": "backup/b.txt"}) == (
        "Copied a.txt to backup/b.txt."
    )
    assert tools["copy_file"].invoke({"source": "a.txt", "destination": "backup"}) == ("Copied a.txt to backup/a.txt.")
    assert (workspace / "backup" / "b.txt").read_text() == "A"
    assert (workspace / "a.txt").read_text() == "A"
    with pytest.raises(ValueError, match=re.escape("'backup/b.txt' already exists")):
        tools["copy_file"].invoke({"source": "a.txt", "destination": "backup/b.txt"})
    with pytest.raises(ValueError, match="is a directory"):
        tools["copy_file"].invoke({"source": "backup", "destination": "elsewhere"})


def test_move_file_and_folder(tools: dict[str, BaseTool], workspace: Path) -> None:
    tools["write_file"].invoke({"path": "draft.txt", "content": "D"})
    assert tools["move_file"].invoke({"source": "draft.txt", "destination": "final.txt"}) == (
        "Moved draft.txt to final.txt."
    )
    assert not (workspace / "draft.txt").exists()
    tools["write_file"].invoke({"path": "docs/x.txt", "content": "X"})
    tools["move_file"].invoke({"source": "final.txt", "destination": "docs"})
    assert (workspace / "docs" / "final.txt").read_text() == "D"
    tools["move_file"].invoke({"source": "docs", "destination": "archive/docs"})
    assert (workspace / "archive" / "docs" / "x.txt").read_text() == "X"
    with pytest.raises(ValueError, match="into itself"):
        tools["move_file"].invoke({"source": "archive", "destination": "archive/docs/inner"})
    with pytest.raises(ValueError, match="already exists"):
        tools["move_file"].invoke({"source": "archive/docs/x.txt", "destination": "archive/docs/final.txt"})
    with pytest.raises(ValueError, match="workspace itself"):
        tools["move_file"].invoke({"source": ".", "destination": "sub"})


def test_a_move_onto_an_identical_copy_removes_only_the_source_and_one_onto_other_bytes_is_refused(
        tools: dict[str, BaseTool], workspace: Path) -> None:
    tools["write_file"].invoke({"path": "draft.txt", "content": "D" * 70_000})  # longer than one compared chunk
    tools["copy_file"].invoke({"source": "draft.txt", "destination": "done/draft.txt"})
    assert tools["move_file"].invoke({"source": "draft.txt", "destination": "done"}) == (
        "Moved draft.txt to done/draft.txt (it already held the same content; draft.txt is removed).")
    assert not (workspace / "draft.txt").exists() and (workspace / "done" / "draft.txt").read_text() == "D" * 70_000
    (workspace / "a.txt").write_text("D" * 69_999 + "E")  # same size, other bytes
    with pytest.raises(ValueError, match="already exists"):
        tools["move_file"].invoke({"source": "a.txt", "destination": "done/draft.txt"})
    assert (workspace / "a.txt").exists() and (workspace / "done" / "draft.txt").read_text() == "D" * 70_000


def test_delete_file_and_only_empty_folders(tools: dict[str, BaseTool], workspace: Path) -> None:
    tools["write_file"].invoke({"path": "box/item.txt", "content": "I"})
    with pytest.raises(ValueError, match="not empty"):
        tools["delete_file"].invoke({"path": "box"})
    assert tools["delete_file"].invoke({"path": "box/item.txt"}) == "Deleted box/item.txt."
    assert tools["delete_file"].invoke({"path": "box"}) == "Deleted the empty folder box."
    assert list(workspace.iterdir()) == []
    with pytest.raises(ValueError, match="workspace itself"):
        tools["delete_file"].invoke({"path": "."})
    with pytest.raises(ValueError, match="does not exist"):
        tools["delete_file"].invoke({"path": "box"})


def test_delete_file_takes_a_pattern_of_names_and_deletes_only_files(tools: dict[str, BaseTool],
                                                                      workspace: Path) -> None:
    for name in ("x.tmp", "y.tmp", "keep.txt", "sub/z.tmp", "dir.tmp/inner.txt"):
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text("1")
    with pytest.raises(ValueError, match=r"every file ending in \.tmp, give the pattern '\*\.tmp'"):
        tools["delete_file"].invoke({"path": ".tmp"})
    assert tools["delete_file"].invoke({"path": "*.tmp"}) == "Deleted 2 files: x.tmp, y.tmp."
    assert tools["delete_file"].invoke({"path": "**/*.tmp"}) == "Deleted 1 file: sub/z.tmp."
    assert sorted(str(path.relative_to(workspace)) for path in workspace.rglob("*") if path.is_file()) == [
        "dir.tmp/inner.txt", "keep.txt"]  # a folder a pattern matches stays
    with pytest.raises(ValueError, match="does not exist"):
        tools["delete_file"].invoke({"path": "*.tmp"})
    with pytest.raises(ValueError, match=r"outside the workspace|leaves the workspace"):
        tools["delete_file"].invoke({"path": "sub/../../*"})


def test_copy_and_move_take_a_pattern_of_names_into_a_folder(tools: dict[str, BaseTool], workspace: Path) -> None:
    for name in ("a.txt", "b.txt", "c.md"):
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(name)
    assert tools["copy_file"].invoke({"source": "*.txt", "destination": "backup"}) == \
        "Copied 2 files into backup: a.txt, b.txt."
    assert tools["move_file"].invoke({"source": "*.txt", "destination": "old/"}) == \
        "Moved 2 files into old: a.txt, b.txt."
    assert sorted(str(path.relative_to(workspace)) for path in workspace.rglob("*") if path.is_file()) == [
        "backup/a.txt", "backup/b.txt", "c.md", "old/a.txt", "old/b.txt"]
    with pytest.raises(ValueError, match=r"'c\.md' is a file; to copy several files, give a folder"):
        tools["copy_file"].invoke({"source": "old/*.txt", "destination": "c.md"})
    with pytest.raises(ValueError, match="already exists"):  # never over an existing file
        tools["copy_file"].invoke({"source": "old/*.txt", "destination": "backup"})
    tools["write_file"].invoke({"path": "archive", "content": ""})  # a small model's way to make a folder
    with pytest.raises(ValueError, match=r"'archive' is an empty file, not a folder: delete it with delete_file, "
                                         r"then move into 'archive' again, which makes the folder"):
        tools["move_file"].invoke({"source": "old/*.txt", "destination": "archive"})
    tools["delete_file"].invoke({"path": "archive"})
    assert tools["move_file"].invoke({"source": "old/*.txt", "destination": "archive"}).startswith("Moved 2 files")


def test_a_pattern_of_names_is_never_made_a_file_name(tools: dict[str, BaseTool], workspace: Path) -> None:
    for name in ("pics/a.jpeg", "pics/b.jpeg"):
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(name)
    with pytest.raises(ValueError, match=r"'pics/\*\.jpg' is a pattern of names, not a name: copy each file under"):
        tools["copy_file"].invoke({"source": "pics/*.jpeg", "destination": "pics/*.jpg"})
    with pytest.raises(ValueError, match=r"is a pattern of names, not a name: move each file .* folder to move into"):
        tools["move_file"].invoke({"source": "pics/a.jpeg", "destination": "pics/?.jpg"})
    with pytest.raises(ValueError, match=r"'pics/\*\.jpeg' is a pattern of names, not a name: write each file"):
        tools["write_file"].invoke({"path": "pics/*.jpeg", "content": "pics/*.jpg"})
    assert sorted(str(path.relative_to(workspace)) for path in workspace.rglob("*")) == [
        "pics", "pics/a.jpeg", "pics/b.jpeg"]  # nothing made, nothing moved
    assert tools["move_file"].invoke({"source": "pics/a.jpeg", "destination": "pics/a.jpg"}) == \
        "Moved pics/a.jpeg to pics/a.jpg."  # a real name still works


def test_a_write_that_leaves_a_file_as_it_was_says_so(tools: dict[str, BaseTool], workspace: Path) -> None:
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "sizes.txt").write_text("250\n18\n7\n", encoding="utf-8")
    tools["read_file"].invoke({"path": "sizes.txt"})
    assert tools["write_file"].invoke({"path": "sizes.txt", "content": "250\n18\n7"}) == \
        "Wrote 8 characters to sizes.txt; it already held exactly this text, so nothing in it changed."
    assert tools["write_file"].invoke({"path": "sizes.txt", "content": "7\n18\n250"}) == \
        "Wrote 8 characters to sizes.txt."
    assert (workspace / "sizes.txt").read_text(encoding="utf-8") == "7\n18\n250"


def test_search_files(tools: dict[str, BaseTool], workspace: Path) -> None:
    tools["write_file"].invoke({"path": "a.txt", "content": "alpha\nTODO: fix\nomega\n"})
    tools["write_file"].invoke({"path": "src/b.py", "content": "# todo later\nx = 1\n"})
    (workspace / "blob.bin").write_bytes(b"TODO\x00\x01")
    found = tools["search_files"].invoke({"pattern": "todo"})
    assert found.startswith("2 lines containing 'todo' under '.':\n")
    assert fenced_body(found) == "a.txt:2: TODO: fix\nsrc/b.py:1: # todo later"
    assert fenced_body(tools["search_files"].invoke({"pattern": "todo", "path": "src"})) == "src/b.py:1: # todo later"
    assert fenced_body(tools["search_files"].invoke({"pattern": "x =", "path": "src/b.py"})) == "src/b.py:2: x = 1"
    assert tools["search_files"].invoke({"pattern": "x =", "path": "src"}).startswith("1 line containing 'x =' under")
    assert tools["search_files"].invoke({"pattern": "missing"}) == "No lines containing 'missing' under '.'."
    with pytest.raises(ValueError, match="empty"):
        tools["search_files"].invoke({"pattern": " "})


def test_search_files_is_capped(tools: dict[str, BaseTool], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_access, "MAX_MATCHES", 2)
    tools["write_file"].invoke({"path": "many.txt", "content": "hit\n" * 10})
    found = tools["search_files"].invoke({"pattern": "hit"})
    assert found.startswith("Lines containing 'hit' under '.' (stopped after 2; search a narrower path):\n")
    assert fenced_body(found) == "many.txt:1: hit\nmany.txt:2: hit"


# --- escapes: every way out is refused and nothing outside the workspace changes ---

ESCAPES = ["../outside/secret.txt", "../escaped.txt", "a/../../escaped.txt"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def _attempt_everything(tools: dict[str, BaseTool], path: str) -> None:
    """Every tool, aimed at path; each one must refuse."""
    calls = [
        ("read_file", {"path": path}),
        ("write_file", {"path": path, "content": "pwned"}),
        ("list_files", {"path": path}),
        ("delete_file", {"path": path}),
        ("search_files", {"pattern": "secret", "path": path}),
        ("copy_file", {"source": path, "destination": "copied.txt"}),
        ("move_file", {"source": path, "destination": "moved.txt"}),
        ("copy_file", {"source": "inside.txt", "destination": path}),
        ("move_file", {"source": "inside.txt", "destination": path}),
    ]
    for name, arguments in calls:
        with pytest.raises(ValueError, match="outside the workspace"):
            tools[name].invoke(arguments)


@pytest.mark.parametrize("path", ESCAPES)
def test_dot_dot_cannot_escape(tools: dict[str, BaseTool], workspace: Path, outside: Path, path: str) -> None:
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    before = _snapshot(workspace.parent)
    _attempt_everything(tools, path)
    assert _snapshot(workspace.parent) == before
    with pytest.raises(ValueError, match=r"path '\.\./escaped\.txt' is outside the workspace"):
        tools["write_file"].invoke({"path": "../escaped.txt", "content": "x"})


def test_absolute_paths_are_refused(tools: dict[str, BaseTool], workspace: Path, outside: Path) -> None:
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    before = _snapshot(workspace.parent)
    _attempt_everything(tools, str(outside / "secret.txt"))
    # even an absolute path that points inside the workspace: paths are always relative
    _attempt_everything(tools, str(workspace / "inside.txt"))
    assert _snapshot(workspace.parent) == before


def test_home_paths_are_refused(tools: dict[str, BaseTool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    _attempt_everything(tools, "~/secret.txt")
    _attempt_everything(tools, "~")
    assert list(home.iterdir()) == []


def test_symlink_to_an_outside_file_is_refused(tools: dict[str, BaseTool], workspace: Path, outside: Path) -> None:
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    (workspace / "dangling.txt").symlink_to(outside / "not-yet.txt")
    before = _snapshot(outside)
    _attempt_everything(tools, "link.txt")
    _attempt_everything(tools, "dangling.txt")
    assert _snapshot(outside) == before
    assert not (outside / "not-yet.txt").exists()
    assert (workspace / "link.txt").is_symlink()


def test_symlinked_directory_is_refused(tools: dict[str, BaseTool], workspace: Path, outside: Path) -> None:
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    (workspace / "door").symlink_to(outside, target_is_directory=True)
    (workspace / "deep").mkdir()
    (workspace / "deep" / "up").symlink_to(workspace.parent, target_is_directory=True)
    before = _snapshot(outside)
    for path in ["door", "door/secret.txt", "door/new.txt", "door/sub/new.txt", "deep/up/outside/secret.txt"]:
        _attempt_everything(tools, path)
    assert _snapshot(outside) == before
    assert sorted(os.listdir(outside)) == ["secret.txt"]


def test_listing_and_search_do_not_follow_symlinks_out(
    tools: dict[str, BaseTool], workspace: Path, outside: Path
) -> None:
    tools["write_file"].invoke({"path": "notes.txt", "content": "no secrets here"})
    (workspace / "door").symlink_to(outside, target_is_directory=True)
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    assert tools["list_files"].invoke({}) == ("door (symlink)\nlink.txt (symlink)\nnotes.txt (15 bytes)\n"
                                              "In all: 1 file (1 .txt).")  # links are not counted
    assert fenced_body(tools["search_files"].invoke({"pattern": "secret"})) == "notes.txt:1: no secrets here"


def test_symlinks_inside_the_workspace_still_work(tools: dict[str, BaseTool], workspace: Path) -> None:
    tools["write_file"].invoke({"path": "real/data.txt", "content": "data"})
    (workspace / "alias").symlink_to(workspace / "real", target_is_directory=True)
    assert fenced_body(tools["read_file"].invoke({"path": "alias/data.txt"})) == "data"


def test_symlink_loops_are_reported(tools: dict[str, BaseTool], workspace: Path) -> None:
    workspace.mkdir()
    (workspace / "loop").symlink_to(workspace / "loop")
    with pytest.raises(ValueError, match="path 'loop' cannot be resolved: it is a symlink loop"):
        tools["read_file"].invoke({"path": "loop"})


def test_a_file_in_the_way_of_new_folders_is_named(tools: dict[str, BaseTool]) -> None:
    tools["write_file"].invoke({"path": "a.txt", "content": "A"})
    with pytest.raises(ValueError, match=re.escape("cannot create 'a.txt/b.txt': 'a.txt' is a file, not a folder")):
        tools["write_file"].invoke({"path": "a.txt/b.txt", "content": "B"})
    with pytest.raises(ValueError, match=re.escape("'a.txt' is a file, not a folder")):
        tools["copy_file"].invoke({"source": "a.txt", "destination": "a.txt/c/d.txt"})


@pytest.mark.parametrize("path", [" ../outside/secret.txt", "a/./../../outside/secret.txt", "..", "~root/.bashrc"])
def test_disguised_escapes_are_refused(tools: dict[str, BaseTool], workspace: Path, outside: Path, path: str) -> None:
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    before = _snapshot(workspace.parent)
    _attempt_everything(tools, path)
    assert _snapshot(workspace.parent) == before


def test_relative_and_chained_symlinks_out_are_refused(
    tools: dict[str, BaseTool], workspace: Path, outside: Path
) -> None:
    tools["write_file"].invoke({"path": "inside.txt", "content": "in"})
    (workspace / "up").symlink_to("../outside", target_is_directory=True)
    (workspace / "chain").symlink_to("up", target_is_directory=True)
    (workspace / "relative.txt").symlink_to("../outside/secret.txt")
    before = _snapshot(outside)
    for path in ["up", "chain/secret.txt", "chain/new.txt", "relative.txt"]:
        _attempt_everything(tools, path)
    assert _snapshot(outside) == before
    assert sorted(os.listdir(outside)) == ["secret.txt"]


def test_escapes_through_the_toolbox_are_observations(workspace: Path, outside: Path) -> None:
    from autoagent.acting.approval import Approver
    from autoagent.acting.toolbox import Toolbox
    from autoagent.reply import Action

    toolbox = Toolbox(file_tools(workspace), approver=Approver(auto_approve=True))
    written = toolbox.run(Action(name="write_file", args={"path": "../outside/secret.txt", "content": "pwned"}))
    assert not written.success
    refusal = "OutsideWorkspaceError: path '../outside/secret.txt' is outside the workspace"
    assert written.content == f"write_file failed: {refusal}"
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    read = toolbox.run(Action(name="read_file", args={"path": "link.txt"}))
    refusal = "OutsideWorkspaceError: path 'link.txt' is outside the workspace"
    assert (read.success, read.content) == (False, f"read_file failed: {refusal}")
    assert (outside / "secret.txt").read_text() == "top secret"


def test_a_read_file_says_how_many_lines_and_words_it_has(tmp_path: Path) -> None:
    (tmp_path / "todo.txt").write_text("a\nb\n\nc\n")
    (tmp_path / "one.txt").write_text("only")
    read = {tool.name: tool for tool in file_tools(tmp_path)}["read_file"]
    assert read.invoke({"path": "todo.txt"}).startswith("The content of 'todo.txt' (4 lines, 3 words):")
    assert read.invoke({"path": "one.txt"}).startswith("The content of 'one.txt' (1 line, 1 word):")


def test_a_missing_file_error_shows_what_its_folder_holds(tmp_path: Path) -> None:
    (tmp_path / "bills.txt").write_text("invoice 7")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("a")
    read = {tool.name: tool for tool in file_tools(tmp_path)}["read_file"]
    with pytest.raises(ValueError, match=r"'invoice.txt' does not exist in the workspace; the workspace has: "
                                         r"bills.txt, docs/ \(search_files"):
        read.invoke({"path": "invoice.txt"})
    with pytest.raises(ValueError, match=r"'docs' has: a.md \("):
        read.invoke({"path": "docs/b.md"})
    with pytest.raises(ValueError, match=r"'nowhere/b.md' does not exist in the workspace; the workspace has: "
                                         r"bills.txt, docs/ \(search_files"):  # the nearest folder that exists
        read.invoke({"path": "nowhere/b.md"})
    with pytest.raises(ValueError, match=r"use list_files"):
        {tool.name: tool for tool in file_tools(tmp_path / "empty")}["read_file"].invoke({"path": "a/b.md"})


def test_list_files_counts_what_it_lists_by_kind(tools: dict[str, BaseTool], workspace: Path) -> None:
    workspace.mkdir()
    for name in ("a.md", "b.MD", "c.txt", "Makefile"):
        (workspace / name).write_text("x")
    assert tools["list_files"].invoke({}).splitlines()[-1] == "In all: 4 files (2 .md, 1 without an extension, 1 .txt)."
