"""`autoagent batch --ray` on a local Ray instance (two CPUs) against the scripted fake server: the results a local
pool of two workers gives, for 50 tasks."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from autoagent.cli import cli
from autoagent.commands import exit_codes as codes

from .batch_fakes import adder, read_lines, stable, write_sums
from .fake_openai import FakeOpenAI

pytestmark = pytest.mark.slow
TASKS = 50


def test_ray_and_a_local_pool_give_the_same_results(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'autoagent[ray]'; the dev extra has it)")
    ids = write_sums(tmp_path / "tasks.jsonl", TASKS)
    seconds = {}
    with FakeOpenAI(responder=adder()) as server:
        common = ["batch", str(tmp_path / "tasks.jsonl"), "--model", "openai:fake", "--base-url", server.base_url,
                  "--no-memory"]
        for name, extra in {"one": ["--workers", "1"], "pool": ["--workers", "2"],
                            "ray": ["--ray", "--workers", "2"]}.items():
            started = time.monotonic()
            result = CliRunner().invoke(cli, [*common, "--out", str(tmp_path / f"{name}.jsonl"), *extra],
                                        catch_exceptions=False)
            seconds[name] = time.monotonic() - started
            assert result.exit_code == codes.OK, result.stderr
    for name, took in seconds.items():
        print(f"[measure] {TASKS} tasks on the scripted server, {name}: {took:.1f} s, "
              f"{TASKS / (took / 60):.0f} tasks/min (process start-up included)")

    one, pool, ray = (read_lines(tmp_path / f"{name}.jsonl") for name in ("one", "pool", "ray"))
    assert sorted(record["id"] for record in ray) == ids
    assert stable(ray) == stable(pool) == stable(one)
    assert all(record["finished"] for record in ray)
