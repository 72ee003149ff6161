"""What the coach costs a capable model: the ten requests of tests/test_capable_model.py, answered the way a
GPT-4-class model answers them, run with `--coach on`. A run counts as taken as given when it finishes with the
model's own answer and no model call beyond its steps and the finish prompt. When the coach sends a finish back,
the scripted model insists: it finishes again with the same answer (and gives it again when sampled).

Run from the checkout's root (it reads tests/): .venv/bin/python -m bench.coach_capable  (offline, a second; it
decides `--coach auto` for models behind a URL)
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.tools import calculator, calendar, file_tools
from tests.scripted import ScriptedChatModel, act
from tests.test_capable_model import CASES


def main() -> None:
    given = finished = 0
    for task, files, replies, answer, _left in CASES:
        workspace = Path(tempfile.mkdtemp())
        for name, text in files.items():
            (workspace / name).write_text(text, encoding="utf-8")
        insisting = [act("FINISH"), answer, answer, answer] * 3
        llm = ScriptedChatModel(replies=[*replies, answer, *insisting])
        run = AutoGPT(llm=llm, tools=[calculator, calendar, *file_tools(workspace)], advisors=[Coach()]).execute(task)
        as_given = run.finished and run.answer == answer and len(llm.calls) == len(replies) + 1
        given += as_given
        finished += run.finished
        print(f"{'as given' if as_given else 'changed '}  {run.stop_reason.value:10}  {len(llm.calls)} calls "
              f"for {len(replies) + 1}  {task}")
    print(f"coach on: {given} of {len(CASES)} taken as given, {finished} finished in the end")


if __name__ == "__main__":
    main()
