"""`autoagent memory` list / search / show / forget / clear / reembed, and the REPL's /memory helper."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner, Result

from autoagent.commands.memory import format_memories, memory, run_memory_command
from autoagent.llm import embeddings as embeddings_module
from autoagent.memory.store import MemoryStore, default_memory_dir

from .test_memory_support import HASH_MODEL, HashingEmbeddings, entry, hash_vector

TASKS = ["Convert 100 USD to EUR with rate 0.92 and save it to rates.txt", "What day of the week is Christmas 2025?"]


@pytest.fixture
def store() -> MemoryStore:
    store = MemoryStore()
    for task in TASKS:
        store.add(entry(task, f"Summary of: {task} " + "and more words " * 12), hash_vector(task), HASH_MODEL)
    return store


@pytest.fixture
def hash_embeddings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str | None, str | None]]:
    """Every spec embeds with the hashing embeddings; `hash:other` with a 64-d variant."""
    calls: list[tuple[str | None, str | None]] = []

    def load(spec: str | None = None, *, base_url: str | None = None) -> HashingEmbeddings:
        calls.append((spec, base_url))
        return HashingEmbeddings(64 if spec == "hash:other" else 256)

    monkeypatch.setattr(embeddings_module, "load_embeddings", load)
    monkeypatch.setattr(embeddings_module, "embedding_model_id",
                        lambda spec=None: "hash:other-64" if spec == "hash:other" else HASH_MODEL)
    return calls


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(memory, list(args), input=input)


def test_list_shows_newest_first_with_the_store_empty_or_not(store: MemoryStore) -> None:
    store.clear()
    assert invoke("list").output == "No memories yet.\n"
    for task in TASKS:
        store.add(entry(task), hash_vector(task), HASH_MODEL)
    result = invoke("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["ID", "WHEN", "(UTC)", "OUTCOME", "TASK"]
    assert lines[1].split()[0] == "4" and lines[1].endswith(TASKS[1]) and lines[2].endswith(TASKS[0])
    assert invoke("list", "--limit", "1").output.splitlines()[-1] == "(1 of 2 shown)"


def test_show_prints_the_whole_entry(store: MemoryStore) -> None:
    result = invoke("show", "1")
    assert result.exit_code == 0
    assert f"Task:     {TASKS[0]}" in result.output and "Outcome:  finished" in result.output
    assert "Summary:\n  Summary of: Convert 100 USD" in result.output
    missing = invoke("show", "99")
    assert missing.exit_code == 1 and "no memory with id '99'" in missing.output


def test_forget_deletes_one(store: MemoryStore) -> None:
    assert invoke("forget", "1").output == "Forgot memory 1.\n"
    assert [e.id for e in store.entries()] == ["2"]
    again = invoke("forget", "1")
    assert again.exit_code == 1 and "no memory with id '1'" in again.output


def test_clear_asks_first_unless_yes(store: MemoryStore) -> None:
    declined = invoke("clear", input="n\n")
    assert declined.exit_code == 1 and f"Delete all 2 memories in {default_memory_dir()}?" in declined.output
    assert store.count() == 2
    accepted = invoke("clear", input="y\n")
    assert accepted.exit_code == 0 and "Deleted 2 memories." in accepted.output and store.count() == 0
    store.add(entry("again"), hash_vector("again"), HASH_MODEL)
    assert invoke("clear", "--yes").output == "Deleted 1 memories.\n"
    assert invoke("clear").output == "No memories to clear.\n"


def test_search_shows_what_a_run_would_recall(store: MemoryStore, hash_embeddings: list[object]) -> None:
    result = invoke("search", "convert 30 usd to eur", "--model", "local")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.endswith(f"#1  {TASKS[0]}") and float(first.split()[0]) > 0.35
    assert "Christmas" not in result.output
    assert hash_embeddings == [("local", None)]  # a base URL from the environment is for openai: specs only

    nothing = invoke("search", "photosynthesis in plants")
    assert nothing.output.startswith("No memory reaches the recall threshold 0.35")
    everything = invoke("search", "photosynthesis in plants", "--all")
    assert everything.output.count("(below the recall threshold)") == 2


def test_reembed_switches_the_model_and_a_mismatch_names_the_fix(store: MemoryStore,
                                                                 hash_embeddings: list[object]) -> None:
    refused = invoke("search", "usd", "--model", "hash:other")
    assert refused.exit_code == 1
    assert "Error:" in refused.output and "autoagent memory reembed" in refused.output
    assert len(refused.output.strip().splitlines()) == 1

    result = invoke("reembed", "--model", "hash:other")
    assert result.exit_code == 0 and "Re-embedded 2 memories with hash:other-64." in result.output
    assert store.embedding_record() == ("hash:other-64", 64)
    assert invoke("search", TASKS[0], "--model", "hash:other").output.split()[1] == "#1"


def test_a_damaged_store_is_one_line_and_then_a_fresh_start(store: MemoryStore) -> None:
    store.close()
    (default_memory_dir() / "memory.sqlite3").write_bytes(b"garbage" * 500)
    result = invoke("list")
    assert result.exit_code == 1 and "was damaged" in result.output and "moved to" in result.output
    assert invoke("list").output == "No memories yet.\n"


def test_the_repl_helper_runs_sub_commands_and_reports_errors(store: MemoryStore, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    run_memory_command("")
    assert capsys.readouterr().out == format_memories(store.entries(), total=2) + "\n"
    run_memory_command("show 2")
    assert f"Task:     {TASKS[1]}" in capsys.readouterr().out
    run_memory_command("forget 99")
    assert "no memory with id '99'" in capsys.readouterr().err
    run_memory_command('search "unbalanced')
    assert "No closing quotation" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    run_memory_command("clear")  # declined: nothing deleted, and the REPL goes on
    assert "Aborted." in capsys.readouterr().err and store.count() == 2


def test_help_lists_every_command() -> None:
    output = invoke("--help").output
    for name in ("list", "search", "show", "forget", "clear", "reembed"):
        assert f"  {name} " in output
