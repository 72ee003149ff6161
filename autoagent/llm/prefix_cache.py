"""Prompt-prefix snapshots: a llama.cpp context's state kept on disk, so a new process skips the static prompt."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import struct
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoagent.paths import autoagent_home

FORMAT_VERSION = 1
MAGIC = b"AAPREFIX"
LOAD_MARGIN = 200  # characters a snapshot must share beyond what the live cache shares to be worth loading
MIN_STATIC = 1000  # characters two consecutive prompts must share before their common start counts as static
KEEP = 3  # snapshot files per model file and context size, least recently used removed first
KEEP_ALL = 3 * KEEP  # snapshot files per directory, whatever saved them (other models, other llama.cpp builds)
_PROMPT_OPTIONS = ("tools", "tool_choice", "functions", "function_call")  # response_format only sets a grammar
_MAX_HEADER = 4 << 20
_STALE_TEMP_S = 3600  # a temp file this old was left by a killed writer

log = logging.getLogger("autoagent")


def prefix_cache_dir() -> Path | None:
    """Where snapshots live ($AUTOAGENT_HOME/cache/prefix), or None when AUTOAGENT_PREFIX_CACHE=0."""
    if os.environ.get("AUTOAGENT_PREFIX_CACHE", "").strip().lower() in ("0", "false", "no", "off"):
        return None
    return autoagent_home() / "cache" / "prefix"


def prompt_key(messages: Sequence[dict[str, Any]], options: dict[str, Any]) -> str:
    """A cheap text whose start identifies how the formatted prompt starts: prompt-shaping options, then messages."""
    shaping = {name: options[name] for name in _PROMPT_OPTIONS if name in options}
    parts = [json.dumps(shaping, sort_keys=True, default=str), "\x1d"]
    for message in messages:
        extra = {name: value for name, value in message.items() if name not in ("role", "content")}
        parts.append(f"{message.get('role')}\x1f{message.get('content')}\x1f")
        parts.append(f"{json.dumps(extra, sort_keys=True, default=str)}\x1e" if extra else "\x1e")
    return "".join(parts)


def shared_prefix(first: str, second: str) -> int:
    """The length of the common start of two strings."""
    low, high = 0, min(len(first), len(second))
    while low < high:  # binary search: slice comparisons run in C, a per-character loop would not
        middle = (low + high + 1) // 2
        if first[:middle] == second[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


@dataclass(frozen=True)
class Snapshot:
    """A snapshot file's checked header: what it was saved for and where its payload starts."""

    path: Path
    key: str
    n_tokens: int
    state_size: int
    sha256: str
    offset: int
    inode: int  # another process may replace the file between reading its header and its payload


@dataclass
class SnapshotEvent:
    """One load or save, for benchmarks and tests."""

    kind: str  # "load" or "save"
    n_tokens: int
    size: int
    seconds: float


@dataclass
class PrefixSnapshots:
    """Decides, for one shared Llama, when to restore a prompt-prefix snapshot from disk and when to save one."""

    model_path: str
    n_ctx: int
    live_key: str = ""  # the key of the prompt whose tokens the context holds now
    saved: set[Path] = field(default_factory=set)  # directories this process has saved (or tried to save) to
    events: list[SnapshotEvent] = field(default_factory=list)
    _identity: dict[str, Any] | None = field(default=None, repr=False)

    def before_call(self, llama: Any, key: str, directory: Path | None) -> None:
        """Load the snapshot that shares the most with `key` when it beats the live cache by a margin."""
        if directory is None:
            return
        live = shared_prefix(key, self.live_key) if llama.n_tokens > 0 else 0
        try:
            candidates = [(shared_prefix(key, snap.key), snap) for snap in self.snapshots(directory)]
            best = max(candidates, key=lambda pair: pair[0], default=None)
            if best is not None and best[0] > live + LOAD_MARGIN:
                self.load(llama, best[1])
        except Exception as exc:  # a snapshot is an optimisation: never fail the call for it
            log.warning("prefix snapshot not loaded: %s", exc)

    def after_call(self, llama: Any, key: str, directory: Path | None) -> None:
        """Remember `key` as live; once per process, save the state when the static start is not on disk yet."""
        static = shared_prefix(key, self.live_key)
        self.live_key = key
        if directory is None or directory in self.saved or static < MIN_STATIC:
            return
        try:
            on_disk = max((shared_prefix(key, snap.key) for snap in self.snapshots(directory)), default=0)
            if on_disk + LOAD_MARGIN < static:
                self.saved.add(directory)  # one try per process, even a failed one
                self.save(llama, key, directory)
        except Exception as exc:
            log.warning("prefix snapshot not saved: %s", exc)

    def identity(self) -> dict[str, Any]:
        """What a snapshot must have been saved with to be loadable here (a snapshot from another build may crash)."""
        if self._identity is None:
            from importlib.metadata import PackageNotFoundError, version

            try:
                llama_version = version("llama_cpp_python")
            except PackageNotFoundError:
                llama_version = "unknown"
            self._identity = {
                "format": FORMAT_VERSION, "model": Path(self.model_path).name,
                "model_size": Path(self.model_path).stat().st_size, "n_ctx": self.n_ctx, "llama_cpp": llama_version,
            }
        return self._identity

    def snapshots(self, directory: Path) -> list[Snapshot]:
        """The readable snapshots in `directory` saved with this identity; unreadable files are deleted."""
        if not directory.is_dir():
            return []
        identity = self.identity()
        found = []
        for path in directory.glob("*.snap"):
            try:
                header, snap = read_header(path)
            except FileNotFoundError:
                continue
            except (OSError, ValueError) as exc:
                log.warning("removing unreadable prefix snapshot %s: %s", path.name, exc)
                path.unlink(missing_ok=True)
                continue
            if {name: header.get(name) for name in identity} == identity:
                found.append(snap)
        return found

    def load(self, llama: Any, snap: Snapshot) -> None:
        """Check `snap`'s payload, then restore it into the context (a bad file is deleted, never loaded)."""
        started = time.perf_counter()
        try:
            tokens, state = read_payload(snap)  # FileNotFoundError: gone or replaced, so not loaded but not removed
            if snap.n_tokens > llama.n_ctx():
                raise ValueError(f"{snap.n_tokens} tokens exceed the context")
        except ValueError as exc:
            log.warning("removing bad prefix snapshot %s: %s", snap.path.name, exc)
            snap.path.unlink(missing_ok=True)
            return
        try:
            write_state(llama, state)
        except Exception:
            llama.reset()  # the KV cache is in an unknown state: evaluate the next prompt from scratch
            self.live_key = ""
            raise
        llama.input_ids[: snap.n_tokens] = tokens
        llama.n_tokens = snap.n_tokens
        llama._requires_eval = True  # generate() then re-decodes at least one token, so the logits are fresh
        self.live_key = snap.key
        os.utime(snap.path)  # most recently used
        self.events.append(SnapshotEvent("load", snap.n_tokens, len(state), time.perf_counter() - started))

    def save(self, llama: Any, key: str, directory: Path) -> Path:
        """Write the context's state and tokens atomically, then drop the least recently used beyond KEEP."""
        started = time.perf_counter()
        n_tokens = int(llama.n_tokens)
        tokens = struct.pack(f"<{n_tokens}i", *(int(token) for token in llama.input_ids[:n_tokens]))
        state = read_state(llama)
        digest = hashlib.sha256(tokens)
        digest.update(state)
        header = {**self.identity(), "key": key, "n_tokens": n_tokens, "state_size": len(state),
                  "sha256": digest.hexdigest()}
        encoded = json.dumps(header).encode("utf-8")
        directory.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256(f"{json.dumps(self.identity(), sort_keys=True)}\0{key}".encode()).hexdigest()[:16]
        target = directory / f"{name}.snap"
        handle, temp = tempfile.mkstemp(dir=directory, prefix=".snap-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(MAGIC + struct.pack("<I", len(encoded)) + encoded + tokens)
                out.write(state)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        evict([snap.path for snap in self.snapshots(directory)], keep=KEEP)  # another model's stay
        evict(directory.glob("*.snap"), keep=KEEP_ALL)
        remove_stale_temps(directory)
        self.events.append(SnapshotEvent("save", n_tokens, len(state), time.perf_counter() - started))
        return target


def read_header(path: Path) -> tuple[dict[str, Any], Snapshot]:
    """A snapshot file's header, checked for shape and against the file's size (ValueError when bad)."""
    with path.open("rb") as source:
        start = source.read(len(MAGIC) + 4)
        if len(start) != len(MAGIC) + 4 or not start.startswith(MAGIC):
            raise ValueError("not a prefix snapshot")
        (length,) = struct.unpack("<I", start[len(MAGIC):])
        if length > _MAX_HEADER:
            raise ValueError("header too long")
        raw = source.read(length)
        stat = os.fstat(source.fileno())
    try:
        header = json.loads(raw.decode("utf-8"))
        offset = len(MAGIC) + 4 + length
        snap = Snapshot(path, str(header["key"]), int(header["n_tokens"]), int(header["state_size"]),
                        str(header["sha256"]), offset, stat.st_ino)
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ValueError(f"bad header: {exc}") from exc
    if snap.n_tokens <= 0 or snap.state_size <= 0:
        raise ValueError("empty snapshot")
    if stat.st_size != offset + 4 * snap.n_tokens + snap.state_size:
        raise ValueError("truncated or padded")
    return header, snap


def read_payload(snap: Snapshot) -> tuple[list[int], bytes]:
    """A snapshot's token ids and state bytes, after checking their length and sha256 (ValueError when bad)."""
    with snap.path.open("rb") as source:
        if os.fstat(source.fileno()).st_ino != snap.inode:
            raise FileNotFoundError(f"{snap.path.name} was replaced")
        source.seek(snap.offset)
        payload = source.read()
    if len(payload) != 4 * snap.n_tokens + snap.state_size:
        raise ValueError("truncated")
    if hashlib.sha256(payload).hexdigest() != snap.sha256:
        raise ValueError("sha256 mismatch")
    split = 4 * snap.n_tokens
    return list(struct.unpack(f"<{snap.n_tokens}i", payload[:split])), payload[split:]


def evict(paths: Iterable[Path], keep: int) -> None:
    """Remove all but the `keep` most recently used of these snapshot files."""
    for path in sorted(paths, key=_mtime, reverse=True)[keep:]:
        path.unlink(missing_ok=True)


def remove_stale_temps(directory: Path) -> None:
    """Remove the temp files killed writers left in `directory`."""
    for temp in directory.glob(".snap-*.tmp"):
        if time.time() - _mtime(temp) > _STALE_TEMP_S:
            temp.unlink(missing_ok=True)


def _mtime(path: Path) -> float:
    """A file's modification time; 0 when it has just gone."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def read_state(llama: Any) -> bytes:
    """The llama.cpp context's full state (KV cache and last logits), without llama-cpp-python's scores copy."""
    import ctypes

    import llama_cpp

    size = llama_cpp.llama_state_get_size(llama._ctx.ctx)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_get_data(llama._ctx.ctx, buffer, size)
    if not 0 < written <= size:
        raise RuntimeError(f"llama_state_get_data wrote {written} of {size} bytes")
    return bytes(memoryview(buffer)[:written])


def write_state(llama: Any, state: bytes) -> None:
    """Restore a state from `read_state` into the llama.cpp context."""
    import ctypes

    import llama_cpp

    buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    read = llama_cpp.llama_state_set_data(llama._ctx.ctx, buffer, len(state))
    if read != len(state):
        raise RuntimeError(f"llama_state_set_data read {read} of {len(state)} bytes")
