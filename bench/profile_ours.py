"""Where autoagent's own time goes: cProfile of the step loop, and of the cold start.

Run: `.venv/bin/python bench/profile_ours.py [--top 25]`; prints to stdout and writes bench/out/*.prof for snakeviz or
pstats. Parts: the loop (20 scripted runs of N=50, display off, construction included once per run), `autoagent
--help` (in-process, imports included: a fresh interpreter), the one-shot run up to its first request (fresh
interpreter, the fake server from cold_start.py), and `python -X importtime` of both, grouped by top-level package.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
PYTHON = str(ROOT / ".venv/bin/python")

HELP = ("import sys; sys.argv = ['autoagent', '--help']\nfrom autoagent.cli import main\ntry:\n    main()\n"
        "except SystemExit:\n    pass\n")
# --coach off as in cold_start.py (explicit; auto is off for a model behind a URL anyway).
ONE_SHOT = ("import sys; sys.argv = ['autoagent', '--model', 'openai:gpt-4o-mini', '--base-url', sys.argv[1], "
            "'--no-memory', '--quiet', '--coach', 'off', 'What is 1+1?']\nfrom autoagent.cli import main\n"
            "try:\n    main()\n"
            "except SystemExit:\n    pass\n")


def show(path: Path, top: int, title: str) -> None:
    """The top entries of a profile by cumulative and by own time."""
    print(f"\n## {title}\n")
    for key in ("cumulative", "tottime"):
        print(f"### by {key}")
        stats = pstats.Stats(str(path), stream=sys.stdout)
        stats.strip_dirs().sort_stats(key).print_stats(top)


def profile_loop(top: int) -> None:
    """cProfile of scripted N=50 runs."""
    from agent_ours import run_once

    run_once(10)  # warm the imports and caches
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(20):
        run_once(50)
    profiler.disable()
    path = OUT / "loop.prof"
    profiler.dump_stats(str(path))
    show(path, top, "The step loop: 20 runs of N=50 (1,040 model calls, 1,000 tool calls)")


def profile_script(name: str, code: str, args: list[str], top: int, env: dict[str, str]) -> None:
    """cProfile of `code` in a fresh interpreter, then python -X importtime of the same, by package."""
    path = OUT / f"{name}.prof"
    script = OUT / f"{name}.py"
    script.write_text(code)
    subprocess.run([PYTHON, "-m", "cProfile", "-o", str(path), str(script), *args], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=env.get("HOME_DIR", ROOT))
    show(path, top, f"{name}: cProfile in a fresh interpreter")
    done = subprocess.run([PYTHON, "-X", "importtime", str(script), *args], env=env, capture_output=True,
                          text=True, cwd=env.get("HOME_DIR", ROOT))
    by_package: collections.Counter[str] = collections.Counter()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, module = (part.strip() for part in line.removeprefix("import time:").split("|"))
        by_package[module.strip().split(".")[0]] += int(own)
    total = sum(by_package.values())
    print(f"\n### {name}: import time by top-level package (own time summed; total {total / 1000:.0f} ms)\n")
    for package, micros in by_package.most_common(top):
        print(f"{micros / 1000:8.1f} ms  {package}")


def main() -> None:
    """Profile the loop and the two cold starts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    profile_loop(args.top)
    from cold_start import FakeOpenAI, RecordingServer

    server = RecordingServer(("127.0.0.1", 0), FakeOpenAI)
    server.arrivals = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as home:
        env = {**os.environ, "OPENAI_API_KEY": "test", "AUTOAGENT_HOME": home, "HOME_DIR": home}
        profile_script("help", HELP, [], args.top, env)
        profile_script("one_shot", ONE_SHOT, [url], args.top, env)
    server.shutdown()


if __name__ == "__main__":
    main()
