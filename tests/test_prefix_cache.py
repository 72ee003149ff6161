"""Prompt-prefix snapshots: when one is loaded or saved, and that a bad file is never loaded."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from autoagent.llm import load_chat_model, local
from autoagent.llm import prefix_cache as pc
from autoagent.llm.local import ChatLocalLlama
from autoagent.llm.prefix_cache import PrefixSnapshots, prompt_key

STATIC = "You are a careful assistant.\n" + "".join(f"Rule {n}: item {n} is colour {n % 7}.\n" for n in range(60))


class FakeLlama:
    """The parts of llama_cpp.Llama that snapshots touch; its 'state' is just the evaluated token ids."""

    def __init__(self, n_ctx: int = 4096) -> None:
        self.input_ids = [0] * n_ctx
        self.n_tokens = 0
        self._requires_eval = False
        self.state = b""
        self.resets = 0
        self.calls: list[dict[str, Any]] = []

    def n_ctx(self) -> int:
        return len(self.input_ids)

    def close(self) -> None:
        pass

    def reset(self) -> None:
        self.n_tokens, self._requires_eval, self.resets = 0, True, self.resets + 1

    def evaluate(self, text: str) -> None:
        """Pretend to decode `text`: one token per character, reusing the common prefix like generate() does."""
        tokens = [ord(char) for char in text]
        keep = pc.shared_prefix("".join(map(chr, self.input_ids[: self.n_tokens])), text)
        self.input_ids[keep : len(tokens)] = tokens[keep:]
        self.n_tokens = len(tokens)
        self.state = bytes(str(tokens), "ascii")

    def create_chat_completion(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        self.evaluate("".join(message["content"] for message in kwargs["messages"]) + "OK")
        reply = {"role": "assistant", "content": "OK"}
        if kwargs.get("stream"):
            return iter([{"choices": [{"delta": reply, "finish_reason": "stop"}]}])
        return {"choices": [{"message": reply, "finish_reason": "stop"}], "usage": None}


@pytest.fixture(autouse=True)
def fake_state(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> list[bytes]:
    """read_state/write_state work on FakeLlama.state (not for the real model); the list records states written."""
    written: list[bytes] = []
    if request.node.get_closest_marker("slow"):
        return written

    def write_state(llama: FakeLlama, state: bytes) -> None:
        written.append(state)
        llama.state = state

    monkeypatch.setattr(pc, "read_state", lambda llama: llama.state)
    monkeypatch.setattr(pc, "write_state", write_state)
    return written


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    """A stand-in model file: its name and size are part of a snapshot's identity."""
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF" * 10)
    return path


@pytest.fixture
def snap_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "prefix"


def key(tail: str) -> str:
    """A prompt key: the static part, then a task-specific tail."""
    return prompt_key([{"role": "user", "content": STATIC + tail}], {})


def call(manager: PrefixSnapshots, llama: FakeLlama, tail: str, directory: Path) -> None:
    """One model call as ChatLocalLlama makes it."""
    prompt_key_text = key(tail)
    manager.before_call(llama, prompt_key_text, directory)
    llama.evaluate(prompt_key_text + "reply")
    manager.after_call(llama, prompt_key_text, directory)


def first_process(model_file: Path, directory: Path) -> PrefixSnapshots:
    """Two steps of one task in a process that finds no snapshot: the second saves one."""
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    call(manager, llama, "Task: add 2 and 2.\nSteps so far: (none)", directory)
    call(manager, llama, "Task: add 2 and 2.\nSteps so far: calculator -> 4", directory)
    return manager


# --- the key ---------------------------------------------------------------------------------------


def test_key_holds_tools_and_messages_but_not_the_grammar() -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    plain = prompt_key(messages, {"max_tokens": 5})
    assert plain == prompt_key(messages, {"response_format": {"type": "json_object"}, "temperature": 0.5})
    assert prompt_key(messages, {"tools": [{"name": "calculator"}]}) != plain
    assert "Be brief." in plain and plain.index("Be brief.") < plain.index("hi")
    assert prompt_key(messages[:1], {}) == plain[: len(prompt_key(messages[:1], {}))]  # a longer chat extends it


@pytest.mark.parametrize(("first", "second", "shared"), [("", "abc", 0), ("abc", "abd", 2), ("abc", "abc", 3),
                                                         ("abcdef", "abc", 3), ("xbc", "abc", 0)])
def test_shared_prefix(first: str, second: str, shared: int) -> None:
    assert pc.shared_prefix(first, second) == shared == pc.shared_prefix(second, first)


# --- saving ----------------------------------------------------------------------------------------


def test_the_second_call_sharing_the_static_part_saves_once(model_file: Path, snap_dir: Path) -> None:
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    call(manager, llama, "Task: add 2 and 2.", snap_dir)
    assert not snap_dir.exists()  # one prompt alone does not show which part is static
    call(manager, llama, "Task: add 2 and 2. Step 2", snap_dir)
    (saved,) = snap_dir.glob("*.snap")
    assert [event.kind for event in manager.events] == ["save"]
    other_static = "Another agent's instructions.\n" * 50  # would be worth a snapshot of its own
    for tail in ("step 1", "step 2", "step 3"):
        manager.before_call(llama, other_static + tail, snap_dir)
        llama.evaluate(other_static + tail)
        manager.after_call(llama, other_static + tail, snap_dir)
    assert list(snap_dir.glob("*.snap")) == [saved] and len(manager.events) == 1  # once per process
    assert not list(snap_dir.glob(".snap-*"))  # no temp file left behind


def test_no_save_when_consecutive_prompts_share_little(model_file: Path, snap_dir: Path) -> None:
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    for text in ("Say OK.", "Summarise the task in one line.", "Write the final answer."):
        manager.before_call(llama, text, snap_dir)
        manager.after_call(llama, text, snap_dir)
    assert not snap_dir.exists()


def test_no_save_when_the_snapshot_on_disk_already_holds_the_static_part(model_file: Path, snap_dir: Path) -> None:
    first_process(model_file, snap_dir)
    second = first_process(model_file, snap_dir)  # a new process: step 1 loads, so nothing new to save
    assert [event.kind for event in second.events] == ["load"]
    assert len(list(snap_dir.glob("*.snap"))) == 1


def test_a_failed_write_leaves_the_old_snapshot_and_no_temp_file(
    model_file: Path, snap_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    first_process(model_file, snap_dir)
    (old,) = snap_dir.glob("*.snap")
    before = old.read_bytes()

    def broken_replace(source: Any, target: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(pc.os, "replace", broken_replace)
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    other_static = "Another agent's instructions.\n" * 50  # shares nothing with the snapshot on disk
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        for tail in ("step 1", "step 2", "step 3"):  # step 2 would save but for the full disk; step 3 does not retry
            manager.before_call(llama, other_static + tail, snap_dir)
            llama.evaluate(other_static + tail)
            manager.after_call(llama, other_static + tail, snap_dir)
    assert caplog.text.count("prefix snapshot not saved: disk full") == 1
    assert list(snap_dir.iterdir()) == [old] and old.read_bytes() == before


def test_least_recently_used_snapshots_beyond_keep_are_removed(model_file: Path, snap_dir: Path) -> None:
    past = time.time() - 100
    for number in range(pc.KEEP + 2):
        manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
        static = f"{number}:" + "x" * (pc.MIN_STATIC + pc.LOAD_MARGIN + 10)  # shares nothing with the others
        for tail in ("a", "b"):
            manager.before_call(llama, static + tail, snap_dir)
            llama.evaluate(static + tail)
            manager.after_call(llama, static + tail, snap_dir)
        (new,) = [snap for snap in manager.snapshots(snap_dir) if snap.key.startswith(f"{number}:")]
        os.utime(new.path, (past + number, past + number))  # used a second after the one before
    remaining = PrefixSnapshots(str(model_file), 4096).snapshots(snap_dir)
    assert sorted(snap.key[0] for snap in remaining) == [str(n) for n in range(2, pc.KEEP + 2)]


# --- loading ---------------------------------------------------------------------------------------


def test_a_new_process_loads_the_snapshot_on_its_first_call(
    model_file: Path, snap_dir: Path, fake_state: list[bytes]
) -> None:
    first_process(model_file, snap_dir)
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    manager.before_call(llama, key("Task: a different task"), snap_dir)
    (event,) = manager.events
    assert event.kind == "load" and len(fake_state) == 1
    saved_tokens = llama.input_ids[: llama.n_tokens]
    assert "".join(map(chr, saved_tokens)) == key("Task: add 2 and 2.\nSteps so far: calculator -> 4") + "reply"
    assert llama.n_tokens == event.n_tokens and llama._requires_eval  # generate() must refresh the logits
    assert manager.live_key == key("Task: add 2 and 2.\nSteps so far: calculator -> 4")


def test_no_load_when_the_live_cache_already_shares_as_much(
    model_file: Path, snap_dir: Path, fake_state: list[bytes]
) -> None:
    first_process(model_file, snap_dir)
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    call(manager, llama, "Task: multiply.\nSteps so far: (none)", snap_dir)  # loads: a fresh process
    loaded = len(fake_state)
    call(manager, llama, "Task: multiply.\nSteps so far: calculator -> 6", snap_dir)  # step 2: its own cache wins
    call(manager, llama, "Task: multiply.\nSteps so far: calculator -> 6; finish", snap_dir)
    assert len(fake_state) == loaded == 1


def test_load_after_another_prompt_replaced_the_cache(
    model_file: Path, snap_dir: Path, fake_state: list[bytes]
) -> None:
    manager = first_process(model_file, snap_dir)
    llama = FakeLlama()
    for text in ("Write the final answer.", "Summarise the run."):  # what a REPL runs between two tasks
        manager.before_call(llama, text, snap_dir)
        llama.evaluate(text)
        manager.after_call(llama, text, snap_dir)
    call(manager, llama, "Task: the next task", snap_dir)
    assert [event.kind for event in manager.events] == ["save", "load"]


def test_a_reset_context_counts_as_empty(model_file: Path, snap_dir: Path, fake_state: list[bytes]) -> None:
    manager = first_process(model_file, snap_dir)
    llama = FakeLlama()
    manager.live_key = key("Task: add 2 and 2.")
    llama.reset()  # what `llama.reset()` in a benchmark does: the live key no longer describes the cache
    manager.before_call(llama, key("Task: add 2 and 2."), snap_dir)
    assert len(fake_state) == 1


def test_no_load_when_the_snapshot_shares_little(model_file: Path, snap_dir: Path, fake_state: list[bytes]) -> None:
    first_process(model_file, snap_dir)
    manager = PrefixSnapshots(str(model_file), 4096)
    manager.before_call(FakeLlama(), prompt_key([{"role": "user", "content": "Something else."}], {}), snap_dir)
    manager.before_call(FakeLlama(), prompt_key([{"role": "user", "content": STATIC}], {"tools": ["t"]}), snap_dir)
    assert fake_state == [] and manager.events == []


# --- bad files are never loaded ------------------------------------------------------------------


def corrupt(path: Path, how: str) -> None:
    """Damage a snapshot file."""
    data = bytearray(path.read_bytes())
    if how == "flipped payload byte":
        data[-3] ^= 0xFF
    elif how == "truncated":
        del data[-10:]
    elif how == "garbage":
        data = bytearray(b"not a snapshot at all")
    elif how == "bad header":
        data[len(pc.MAGIC) + 4] = ord("[")  # the header is no longer JSON
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flipped payload byte", "truncated", "garbage", "bad header"])
def test_a_damaged_snapshot_is_removed_not_loaded(
    model_file: Path, snap_dir: Path, fake_state: list[bytes], caplog: pytest.LogCaptureFixture, how: str
) -> None:
    first_process(model_file, snap_dir)
    (path,) = snap_dir.glob("*.snap")
    corrupt(path, how)
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        manager.before_call(llama, key("Task: next"), snap_dir)
    assert fake_state == [] and llama.n_tokens == 0 and manager.events == []
    assert not path.exists() and "prefix snapshot" in caplog.text


@pytest.mark.parametrize("change", ["model size", "n_ctx"])
def test_a_snapshot_of_another_model_or_context_is_ignored(
    model_file: Path, snap_dir: Path, fake_state: list[bytes], change: str
) -> None:
    first_process(model_file, snap_dir)
    n_ctx = 4096
    if change == "model size":
        model_file.write_bytes(b"GGUF" * 11)
    else:
        n_ctx = 8192
    manager = PrefixSnapshots(str(model_file), n_ctx)
    manager.before_call(FakeLlama(n_ctx), key("Task: next"), snap_dir)
    assert fake_state == [] and len(list(snap_dir.glob("*.snap"))) == 1  # not ours, but maybe another's


def test_a_snapshot_replaced_after_its_header_was_read_is_not_loaded_nor_removed(
    model_file: Path, snap_dir: Path, fake_state: list[bytes]
) -> None:
    first_process(model_file, snap_dir)
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    (snap,) = manager.snapshots(snap_dir)
    newer = snap_dir / "newer.tmp"
    newer.write_bytes(snap.path.read_bytes())
    os.replace(newer, snap.path)  # another process saved the same key meanwhile
    with pytest.raises(FileNotFoundError, match="replaced"):
        manager.load(llama, snap)
    assert fake_state == [] and snap.path.exists()


def test_a_failed_restore_resets_the_context(
    model_file: Path, snap_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    first_process(model_file, snap_dir)

    def refuse(llama: FakeLlama, state: bytes) -> None:
        raise RuntimeError("llama_state_set_data read 0 of 12 bytes")

    monkeypatch.setattr(pc, "write_state", refuse)
    manager, llama = PrefixSnapshots(str(model_file), 4096), FakeLlama()
    llama.evaluate("stale")
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        manager.before_call(llama, key("Task: next"), snap_dir)
    assert llama.resets == 1 and llama.n_tokens == 0 and manager.live_key == ""
    assert "prefix snapshot not loaded: llama_state_set_data read 0" in caplog.text


# --- wiring ----------------------------------------------------------------------------------------


@pytest.fixture
def fake_llamas(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[FakeLlama]]:
    """ChatLocalLlama loads FakeLlamas; each test starts with no shared model."""
    loaded: list[FakeLlama] = []
    monkeypatch.setattr(local, "_MODELS", {})
    monkeypatch.setattr(local, "_open_llama", lambda *args: loaded.append(FakeLlama()) or loaded[-1])
    yield loaded


def test_chat_model_saves_then_a_reloaded_model_restores(
    model_file: Path, snap_dir: Path, fake_llamas: list[FakeLlama], fake_state: list[bytes]
) -> None:
    chat = ChatLocalLlama(model_path=str(model_file), prefix_cache_dir=str(snap_dir))
    chat.invoke([SystemMessage(STATIC), HumanMessage("Task one")])
    list(chat.stream([SystemMessage(STATIC), HumanMessage("Task one, step two")]))  # the stream path saves too
    assert len(list(snap_dir.glob("*.snap"))) == 1 and fake_state == []
    local.close_models()  # as a new process would start
    chat.invoke([SystemMessage(STATIC), HumanMessage("Task two")])
    assert len(fake_llamas) == 2 and len(fake_state) == 1
    assert [event.kind for event in chat.prefix_snapshots().events] == ["load"]


def test_chat_model_without_a_directory_touches_no_files(
    model_file: Path, tmp_path: Path, fake_llamas: list[FakeLlama], fake_state: list[bytes]
) -> None:
    chat = ChatLocalLlama(model_path=str(model_file))
    for task in ("Task one", "Task two", "Task three"):
        chat.invoke([SystemMessage(STATIC), HumanMessage(task)])
    assert chat.prefix_cache_dir is None and fake_state == [] and chat.prefix_snapshots().events == []
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tiny.gguf"]


def test_an_unwritable_directory_is_logged_and_the_call_succeeds(
    model_file: Path, tmp_path: Path, fake_llamas: list[FakeLlama], caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    chat = ChatLocalLlama(model_path=str(model_file), prefix_cache_dir=str(blocker / "prefix"))
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        replies = [chat.invoke([SystemMessage(STATIC), HumanMessage(task)]).content for task in ("one", "two")]
    assert replies == ["OK", "OK"] and "prefix snapshot not saved" in caplog.text


def test_loader_turns_snapshots_on_and_the_environment_off(
    model_file: Path, monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    monkeypatch.setattr(local, "llama_cpp_installed", lambda: True)
    model = load_chat_model(f"local:{model_file}")
    assert isinstance(model, ChatLocalLlama)
    assert model.prefix_cache_dir == str(isolated_home / "cache" / "prefix")
    monkeypatch.setenv("AUTOAGENT_PREFIX_CACHE", "0")
    off = load_chat_model(f"local:{model_file}")
    assert isinstance(off, ChatLocalLlama) and off.prefix_cache_dir is None


# --- the real model --------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_new_process_with_a_snapshot_skips_the_static_prompt(
    local_weights: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def first_call(prefix_cache_dir: Path | None) -> tuple[str, int, int, float]:
        """A fresh shared Llama (as in a new process) answers item 12: reply, prompt tokens, evaluated, seconds."""
        local.close_models()
        chat = ChatLocalLlama(model_path=str(local_weights), max_tokens=16, prefix_cache_dir=prefix_cache_dir)
        llama = chat.llama()
        evaluated: list[int] = []
        real_eval = llama.eval
        monkeypatch.setattr(llama, "eval", lambda tokens: (evaluated.append(len(tokens)), real_eval(tokens))[1])
        started = time.perf_counter()
        reply = chat.invoke([SystemMessage(STATIC), HumanMessage("What colour is item 12?")])
        seconds = time.perf_counter() - started
        assert reply.usage_metadata is not None
        return str(reply.content), reply.usage_metadata["input_tokens"], evaluated[0], seconds

    directory = tmp_path / "prefix"
    local.close_models()
    saver = ChatLocalLlama(model_path=str(local_weights), max_tokens=16, prefix_cache_dir=directory)
    for question in ("What colour is item 3?", "What colour is item 5?"):
        saver.invoke([SystemMessage(STATIC), HumanMessage(question)])
    (save,) = saver.prefix_snapshots().events
    (snapshot,) = directory.glob("*.snap")

    text, prompt_tokens, evaluated, seconds = first_call(directory)
    cold_text, cold_prompt_tokens, cold_evaluated, cold_seconds = first_call(None)
    print(f"\n[measure] snapshot {snapshot.stat().st_size / 1e6:.1f} MB of {save.n_tokens} tokens, saved in "
          f"{save.seconds * 1000:.0f} ms; first call of a new process: {evaluated} of {prompt_tokens} prompt tokens "
          f"evaluated in {seconds:.2f} s with it, {cold_evaluated} in {cold_seconds:.2f} s without")
    assert prompt_tokens == cold_prompt_tokens > 500 and cold_evaluated == prompt_tokens
    assert evaluated < prompt_tokens // 10
    assert text == cold_text  # the restored state decodes exactly like a fresh one
