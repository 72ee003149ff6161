"""`python -m bench`: measure the framework's own overhead, list the task sets.

  python -m bench overhead                               `make bench`: overhead beside LangChain and smolagents
  python -m bench sets                                   the task sets, their status and size
"""

from __future__ import annotations

import argparse

from bench.tasksets import load_set, set_names


def overhead(args: argparse.Namespace) -> None:
    from bench.overhead import measure

    print(f"wrote {measure(args.rounds, args.runs, args.cold_runs, args.memory_sizes, set(args.sections.split(',')))}")


def sets(args: argparse.Namespace) -> None:
    for name in set_names():
        task_set = load_set(name)
        print(f"{name:10} {task_set.status:14} {len(task_set.tasks):3} tasks")


def parser() -> argparse.ArgumentParser:
    """The command line, every flag explained."""
    top = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    four = commands.add_parser("overhead", help="`make bench`: autoagent's own cost beside LangChain and smolagents",
                               description="Measure per-step overhead, prompt tokens, cold start, the embedded model "
                               "and the memory store beside LangChain's AutoGPT and smolagents (installed into "
                               "bench/.venvs/ on first use); write the summary into bench/summaries/overhead/. "
                               "BENCH_SKIP_LOCAL=1 skips the embedded model.")
    four.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the per-step overhead")
    four.add_argument("--runs", type=int, default=5, help="timed runs per N per agent per round")
    four.add_argument("--cold-runs", type=int, default=7, help="runs of each cold-start command")
    four.add_argument("--memory-sizes", default="1000,10000,100000", help="memory store sizes, comma-separated")
    four.add_argument("--sections", default="1,2,3,4,5",
                      help="which sections to measure: 1 overhead, 2 tokens, 3 cold start, 4 embedded, 5 memory")
    four.set_defaults(handle=overhead)

    six = commands.add_parser("sets", help="list the task sets", description="List the task sets with their status.")
    six.set_defaults(handle=sets)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.handle(args)


if __name__ == "__main__":
    main()
