"""Record every call a run makes of the embedded model, and replay them later: a refactor whose runs, replayed, ask
the model exactly the same things in the same order (and so end the same way, task by task) changed no behaviour.

`install(mode, folder)` wraps the `llama_cpp.Llama` that autoagent loads (in this process and, through the
environment and the batch pool's initializer, in every batch worker this process spawns; `python -m bench run
--record DIR` and `--replay DIR` install it):
- `record`: the real model answers; each chat completion (its messages, parameters and reply, streamed chunks
  included) is appended to `folder/<pid>.jsonl`;
- `replay`: no weights are loaded (only the vocabulary, for token counts); each call is answered with the reply
  recorded for the same messages and parameters, in the order recorded, and noted in `folder/used-<pid>.jsonl`; a
  call never recorded is written to `folder/misses.jsonl` and raises `ReplayMiss`, which ends that task in an error.
  `unused(folder)` lists the recorded calls a replay did not ask for.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections import defaultdict, deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MODE_VARIABLE, FOLDER_VARIABLE = "AUTOAGENT_BENCH_REPLAY", "AUTOAGENT_BENCH_REPLAY_DIR"
# random in every run, so numbered by order of appearance in a key: tool-call ids, and the tags of the fences that
# quote the workspace's files (autoagent's fence.py)
_RANDOM = re.compile(r"(?<![0-9A-Za-z_])(?:call_)?[0-9a-f]{12}(?![0-9A-Za-z_])")
# the clock's time of day, which the date tools show: a replay on the same day reads another one
_TIME_OF_DAY = re.compile(r"(?<=\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2})?")


class ReplayMiss(RuntimeError):
    """The model was asked something the recording never asked it."""


def call_key(messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    """What identifies a call: its messages and parameters (not whether it streams), random ids and tags numbered,
    the time of day a date tool read left out."""
    seen: dict[str, str] = {}

    def numbered(value: Any) -> Any:
        if isinstance(value, str):
            value = _TIME_OF_DAY.sub("T<time>", value)
            return _RANDOM.sub(lambda match: seen.setdefault(match.group(0), f"<random {len(seen)}>"), value)
        if isinstance(value, list):
            return [numbered(item) for item in value]
        if isinstance(value, dict):
            return {key: numbered(item) for key, item in value.items()}
        return value

    shown = {"messages": messages, "params": {key: value for key, value in params.items() if key != "stream"}}
    return json.dumps(numbered(shown), sort_keys=True, ensure_ascii=False)


class _Recording:
    """A real Llama whose chat completions are written down as they are made."""

    def __init__(self, llama: Any, folder: Path) -> None:
        object.__setattr__(self, "_llama", llama)
        object.__setattr__(self, "_out", folder / f"{os.getpid()}.jsonl")
        object.__setattr__(self, "_lock", threading.Lock())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._llama, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._llama, name, value)

    def _write(self, record: dict[str, Any]) -> None:
        with self._lock, self._out.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")

    def create_chat_completion(self, messages: list[dict[str, Any]], **params: Any) -> Any:
        record: dict[str, Any] = {"key": call_key(messages, params), "stream": bool(params.get("stream"))}
        if not record["stream"]:
            record["response"] = self._llama.create_chat_completion(messages=messages, **params)
            record["n_tokens"] = int(self._llama.n_tokens)
            self._write(record)
            return record["response"]
        return self._streamed(self._llama.create_chat_completion(messages=messages, **params), record)

    def _streamed(self, stream: Iterator[Any], record: dict[str, Any]) -> Iterator[Any]:
        chunks: list[Any] = []
        try:
            for chunk in stream:
                chunks.append(chunk)
                yield chunk
        finally:
            stream.close()  # type: ignore[attr-defined]
            record.update(chunks=chunks, n_tokens=int(self._llama.n_tokens))
            self._write(record)


class _Replaying:
    """A Llama with the vocabulary only, answering each call as it was answered when recorded."""

    def __init__(self, vocabulary: Any, folder: Path) -> None:
        self._vocabulary = vocabulary
        self._misses = folder / "misses.jsonl"
        self._used = folder / f"used-{os.getpid()}.jsonl"
        self._replies: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
        for path in sorted(folder.glob("[0-9]*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)  # keyed as this module keys calls now (a recording may be older)
                self._replies[_TIME_OF_DAY.sub("T<time>", record["key"])].append(record)
        self.n_tokens = 0

    def tokenize(self, *args: Any, **kwargs: Any) -> Any:
        return self._vocabulary.tokenize(*args, **kwargs)

    def n_ctx(self) -> int:
        return int(self._vocabulary.n_ctx())

    def close(self) -> None:
        self._vocabulary.close()

    def create_chat_completion(self, messages: list[dict[str, Any]], **params: Any) -> Any:
        key = call_key(messages, params)
        if not self._replies[key]:
            with self._misses.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"key": key}, ensure_ascii=False) + "\n")
            raise ReplayMiss("the model was asked something the recording never asked it")
        record = self._replies[key].popleft()
        with self._used.open("a", encoding="utf-8") as out:  # which recorded calls a replay asked for: all, once each
            out.write(json.dumps({"key": key}, ensure_ascii=False) + "\n")
        if not params.get("stream"):
            self.n_tokens = record["n_tokens"]
            return record["response"]
        return self._streamed(record)

    def _streamed(self, record: dict[str, Any]) -> Iterator[Any]:
        try:
            yield from (chunk for chunk in record["chunks"])
        finally:
            self.n_tokens = record["n_tokens"]


def install(mode: str, folder: Path) -> None:
    """Record or replay every embedded-model call of this process, and of the batch workers it spawns."""
    if mode not in ("record", "replay"):
        raise ValueError(f"unknown replay mode {mode!r}")
    folder.mkdir(parents=True, exist_ok=True)
    os.environ[MODE_VARIABLE], os.environ[FOLDER_VARIABLE] = mode, str(folder.resolve())
    _patch(mode, folder.resolve())
    _chain_pool_initializer()


def install_from_environment() -> None:
    """In a spawned batch worker: what the process that spawned it installed."""
    mode, folder = os.environ.get(MODE_VARIABLE), os.environ.get(FOLDER_VARIABLE)
    if mode and folder:
        _patch(mode, Path(folder))


def start_worker(initializer: Any, initargs: tuple[Any, ...]) -> None:
    """A batch worker's initializer: this module's patch first, then the batch's own initializer."""
    install_from_environment()
    if initializer is not None:
        initializer(*initargs)


def _chain_pool_initializer() -> None:
    """A spawned worker re-imports no `__main__` of a package run with `-m` (multiprocessing skips those), so it would
    never import this module: the batch's process pool is given `start_worker` as its initializer instead."""
    from autoagent.batch import pool

    executor = pool.ProcessPoolExecutor
    if getattr(executor, "replay_chained", False):
        return

    class Chained(executor):  # type: ignore[valid-type,misc]
        replay_chained = True

        def __init__(self, *args: Any, initializer: Any = None, initargs: tuple[Any, ...] = (), **kwargs: Any) -> None:
            super().__init__(*args, initializer=start_worker, initargs=(initializer, initargs), **kwargs)

    pool.ProcessPoolExecutor = Chained  # type: ignore[misc]


def _patch(mode: str, folder: Path) -> None:
    from autoagent.llm import local, prefix_cache

    opened = local._open_llama
    if getattr(opened, "replay_mode", None):
        return
    if mode == "record":
        def open_llama(path: str, n_ctx: int, threads: int | None) -> Any:
            return _Recording(opened(path, n_ctx, threads), folder)
    else:
        import llama_cpp

        def open_llama(path: str, n_ctx: int, threads: int | None) -> Any:
            return _Replaying(llama_cpp.Llama(model_path=path, n_ctx=n_ctx, vocab_only=True, verbose=False), folder)

        # no KV cache to restore or save: the replies are recorded
        prefix_cache.PrefixSnapshots.before_call = lambda self, llama, key, directory: None  # type: ignore[method-assign]
        prefix_cache.PrefixSnapshots.after_call = lambda self, llama, key, directory: None  # type: ignore[method-assign]
    open_llama.replay_mode = mode  # type: ignore[attr-defined]
    local._open_llama = open_llama  # type: ignore[assignment]


def unused(folder: Path) -> list[str]:
    """The keys of the recorded calls that the replays in `folder` did not ask for (each as often as it was left)."""
    from collections import Counter

    recorded = Counter(_TIME_OF_DAY.sub("T<time>", json.loads(line)["key"]) for path in folder.glob("[0-9]*.jsonl")
                       for line in path.read_text(encoding="utf-8").splitlines())
    asked = Counter(json.loads(line)["key"] for path in folder.glob("used-*.jsonl")
                    for line in path.read_text(encoding="utf-8").splitlines())
    return sorted((recorded - asked).elements())
