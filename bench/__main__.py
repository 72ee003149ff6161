"""`python -m bench`: run task sets and judge them, compare two runs, regenerate the result pages, measure the
framework's own overhead.

  python -m bench run --set main --configs json          a measured run: records to bench/out/, a summary committed
  python -m bench run --set main --configs json --resume the same run, cut off, goes on where it stopped
  python -m bench run --set main --configs json --checkpoint
                                                         what it had done kept, to --resume it on another checkout
  python -m bench run --set main --replay DIR --against bench/summaries/X.json
                                                         replayed model calls: a check that a change changed nothing
  python -m bench compare A.json B.json                  the tasks whose class differs between two runs
  python -m bench report                                 bench/RESULTS.md, docs/results.md, the README's table
  python -m bench overhead                               `make bench`: overhead beside LangChain and smolagents
  python -m bench ceiling                                tasks right in some run against the best single run
  python -m bench sets                                   the task sets, their status and size
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from bench.tasksets import load_set, set_names


def run(args: argparse.Namespace) -> None:
    from bench.measure import Plan, run_plan
    from bench.runner import Options, limit_threads

    if (args.resume or args.checkpoint) and args.replay:
        raise SystemExit("--resume and --checkpoint are for a measured run; a replay is run whole (leave them out)")
    if args.record or args.replay:
        from bench.replay import install

        install("record" if args.record else "replay", args.record or args.replay)
    if args.threads:
        limit_threads(args.threads)
    logging.disable(logging.WARNING)
    settings = dict(parse_setting(text) for text in args.setting)
    if settings and not args.variant:
        raise SystemExit("--setting needs --variant NAME: the name its summaries and table rows carry")
    options = Options(args.model, args.coach or "", args.base_url, args.workers, args.allow_python, settings,
                      args.max_steps, args.task_seconds)
    run_plan(Plan(args.set, [config for config in args.configs.split(",") if config], options, args.threads,
                  {task for task in args.tasks.split(",") if task}, args.note, bool(args.replay), args.variant,
                  args.against, resume=args.resume, checkpoint=args.checkpoint))


def parse_setting(text: str) -> tuple[str, object]:
    """`KEY=VALUE` of --setting: the value read as JSON where it is JSON (a list, a number, true), else a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise SystemExit(f"--setting {text!r}: write KEY=VALUE (a task setting of autoagent batch)")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def compare(args: argparse.Namespace) -> None:
    from bench.summaries import describe_differences

    before, after = (json.loads(path.read_text(encoding="utf-8")) for path in (args.before, args.after))
    print(describe_differences(before, after, load_set(before["set"]) if before["set"] in set_names() else None))


def report(args: argparse.Namespace) -> None:
    from bench.report import stale_outputs, write_outputs

    if args.check:
        stale = stale_outputs()
        if stale:
            raise SystemExit(f"not as `python -m bench report` writes them: {', '.join(stale)}")
        return
    for path in write_outputs():
        print(f"wrote {path}")


def overhead(args: argparse.Namespace) -> None:
    from bench.overhead import measure

    print(f"wrote {measure(args.rounds, args.runs, args.cold_runs, args.memory_sizes, set(args.sections.split(',')))}")


def ceiling(args: argparse.Namespace) -> None:
    from bench.ceiling import ceiling_table

    print(ceiling_table())


def sets(args: argparse.Namespace) -> None:
    for name in set_names():
        task_set = load_set(name)
        print(f"{name:10} {task_set.status:14} {len(task_set.tasks):3} tasks")


def parser() -> argparse.ArgumentParser:
    """The command line, every flag explained."""
    top = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    one = commands.add_parser("run", help="run task sets through `autoagent batch --yes --no-memory` and judge them",
                              description="Run each set under each config (a fresh workspace per task), judge each "
                              "result with the set's checks, write the full records under bench/out/records/ and a "
                              "summary into bench/summaries/ (none with --replay).")
    one.add_argument("--set", action="append", required=True, choices=set_names(), metavar="NAME",
                     help=f"a task set, repeatable: {', '.join(set_names())} (`python -m bench sets`)")
    one.add_argument("--configs", default="json",
                     help="comma-separated configs: protocols (json, tools, react, code) and/or plan (plan mode), "
                     "and/or a peer on the same bundled model: smolagents-tools (ToolCallingAgent), smolagents-code "
                     "(CodeAgent), run by bench/peers")
    one.add_argument("--max-steps", type=int, default=None, metavar="N",
                     help="the steps of every agent (default: each agent's own: autoagent 10, the peers 8)")
    one.add_argument("--task-seconds", type=float, default=None, metavar="S",
                     help="a task's time limit (autoagent: its --max-seconds budget; a peer is stopped)")
    one.add_argument("--model", default="local", help="the model every task runs on (local, local:0.5b, openai:NAME)")
    one.add_argument("--coach", choices=("auto", "on", "off"), default=None,
                     help="the coach setting of every task (default: none sent, the agent's own default)")
    one.add_argument("--allow-python", action="store_true", help="offer the sandboxed python tool to every task")
    one.add_argument("--base-url", default=None, help="an OpenAI-compatible server for --model openai:NAME")
    one.add_argument("--workers", type=int, default=1,
                     help="tasks at once (autoagent batch --workers); --threads holds with 1 only")
    one.add_argument("--threads", type=int, default=0, help="llama.cpp threads of the embedded model (0: all cores)")
    one.add_argument("--tasks", default="", help="comma-separated task ids to run (default: every task of the set)")
    replay = one.add_mutually_exclusive_group()
    replay.add_argument("--record", type=Path, metavar="DIR",
                        help="write every call of the embedded model and its reply into DIR (bench/replay.py)")
    replay.add_argument("--replay", type=Path, metavar="DIR",
                        help="answer every model call from the recording in DIR; no summary is written")
    one.add_argument("--against", type=Path, action="append", default=[], metavar="SUMMARY",
                     help="after the run, list the tasks whose class differs from this summary's (same set and "
                     "config), repeatable")
    one.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                     help="a further task setting of autoagent batch for every task, repeatable: "
                     "'tools=[\"calculator\"]', thoughts=full, max_steps=8 (VALUE as JSON where it is JSON); "
                     "needs --variant")
    one.add_argument("--variant", default="", help="a name for the --setting values: summaries and table rows carry it")
    one.add_argument("--note", default="", help="a note the summary keeps (what was measured, and why)")
    one.add_argument("--resume", action="store_true",
                     help="go on with the run the same arguments began at this commit (cut off, or killed): only "
                     "the tasks with no result yet run, and its summary is the whole run's; a set and config whose "
                     "summary the command already wrote (in bench/summaries/, as a fresh checkout has it) is not run "
                     "again; where none was begun, begin it")
    one.add_argument("--checkpoint", action="store_true",
                     help="run nothing: for the run the same arguments began here and that was cut off, keep what "
                     "its ended tasks came to (class, steps, seconds; never an answer) in bench/summaries/partial/; "
                     "committed, it lets --resume go on with the rest on another checkout of the same commit")
    one.set_defaults(handle=run)

    two = commands.add_parser("compare", help="the tasks whose class differs between two summaries",
                              description="List the tasks whose class differs between two summaries (a measured-only "
                              "set's tasks by their place in the set).")
    two.add_argument("before", type=Path, help="a summary (bench/summaries/*.json)")
    two.add_argument("after", type=Path, help="another summary of the same set")
    two.set_defaults(handle=compare)

    three = commands.add_parser("report", help="regenerate bench/RESULTS.md, docs/results.md and the README's table",
                                description="Write bench/RESULTS.md, docs/results.md and the README's results table "
                                "from the summaries in bench/summaries/.")
    three.add_argument("--check", action="store_true", help="write nothing; fail if a file is not as it would be")
    three.set_defaults(handle=report)

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

    five = commands.add_parser("ceiling", help="tasks right in some run beside the best single run, per set",
                               description="Per set, from the summaries of full runs: the tasks right in at least one "
                               "run (what a perfect judge choosing among the runs would reach) and the best run.")
    five.set_defaults(handle=ceiling)

    six = commands.add_parser("sets", help="list the task sets", description="List the task sets with their status.")
    six.set_defaults(handle=sets)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.handle(args)


if __name__ == "__main__":
    main()
